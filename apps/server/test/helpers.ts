import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@coldtrace/contract';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  InjectOptions,
  LightMyRequestResponse,
} from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type RuntimeConfig } from '../src/config';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db/client';
import { EMBEDDED_OWNER_ROLE } from '../src/db/roles';
import { termsOfService, tosAgreements, users, type UserRow } from '../src/db/schema';
import { hashPassword } from '../src/modules/identity/auth/passwords';
import { findActiveTerms } from '../src/modules/legal/repository';
import { createOrganization, setMembership } from '../src/modules/orgs/repository';

/**
 * Test kit of the server suite. Each test file gets its own database, cloned
 * from the migrated template (~50 ms), and an app built in-process (no port):
 *
 *   const t = await createTestApp();
 *   afterAll(() => t.close());
 *   const { client, user, orgs } = await t.signIn({ role: 'Viewer' });
 *   const res = await client.get('/api/auth/session/');
 *
 * Factories create data with unique names, so files run in parallel.
 */

export type RoleName = 'Administrator' | 'Manager' | 'Operator' | 'Viewer';

export const TEST_PASSWORD = 'correct horse battery staple';

/** Cheap argon2id so tests stay fast (production uses ARGON2_MEMORY_KIB / ARGON2_TIME_COST). */
const CHEAP_ARGON2 = { memoryCost: 256, timeCost: 1 };

export const uid = () => randomBytes(5).toString('hex');

export function testConfig(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  const base = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
  return {
    ...base,
    dataDir: path.join(tmpdir(), 'coldtrace-test-data-unused'),
    webDist: path.join(tmpdir(), `coldtrace-no-web-dist-${uid()}`),
    secretKey: 'test-secret-key-test-secret-key-test-secret-key',
    adminPassword: 'admin-test-password',
    argon2: CHEAP_ARGON2,
    // Tests change sessions, roles and terms in the database directly and expect
    // the next request to see it: no principal cache (principal-cache.test.ts
    // tests it on its own).
    principalCacheSeconds: 0,
    ...overrides,
  };
}

export async function createDatabaseFromTemplate(name = `ct_test_${uid()}`): Promise<string> {
  const client = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/postgres` });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(
      `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(inject('pgTemplate'))} OWNER ${EMBEDDED_OWNER_ROLE}`,
    );
  } finally {
    await client.end();
  }
  return name;
}

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  row: UserRow;
}

export interface TestOrg {
  id: string;
  name: string;
}

export interface CreateUserOptions {
  /** Role in every organization of `orgs` (default Viewer). */
  role?: RoleName;
  /** Organizations to join; default: one new organization. `[]`: none. */
  orgs?: TestOrg[];
  username?: string;
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  locked?: boolean;
  serverAdmin?: boolean;
  /** Agree to the active terms of service, if any (default true). */
  agreedToTos?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  /** The application role's connection, as the app under test has (what the server may do). */
  db: Database;
  handle: DatabaseHandle;
  /**
   * The owner role's connection, for fixtures the application role may not write
   * (e.g. to change a row of an append-only table). Connects on first use.
   */
  ownerDb: Database;
  ownerHandle: DatabaseHandle;
  config: RuntimeConfig;
  databaseName: string;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** A browser-like client: keeps cookies, sends X-CSRFToken on state-changing calls. */
  client(defaults?: ClientDefaults): TestClient;
  createOrg(name?: string): Promise<TestOrg>;
  createUser(opts?: CreateUserOptions): Promise<TestUser & { orgs: TestOrg[] }>;
  /** A new user and a client signed in as that user. */
  signIn(opts?: CreateUserOptions): Promise<{
    user: TestUser;
    orgs: TestOrg[];
    client: TestClient;
    body: Record<string, unknown>;
  }>;
  /** Publish terms of service (a new active version). */
  publishTerms(content?: string): Promise<{ id: string; version: number }>;
  /** Close this app and its pool (the database stays). */
  close(): Promise<void>;
}

export interface TestRequest {
  method?: InjectOptions['method'];
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** Send X-CSRFToken on state-changing methods (default true; fetches the cookie when missing). */
  csrf?: boolean;
}

export interface ClientDefaults {
  headers?: Record<string, string>;
  /** The client address the server sees (default 127.0.0.1). */
  remoteAddress?: string;
}

export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly defaults: ClientDefaults = {},
  ) {}

  async request(req: TestRequest): Promise<LightMyRequestResponse> {
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = { ...this.defaults.headers, ...req.headers };
    // Like the web client: state-changing calls, and GET logout (the contract marks it).
    const stateChanging =
      !['GET', 'HEAD', 'OPTIONS'].includes(method) || req.url.startsWith('/api/auth/logout/');
    if (stateChanging && req.csrf !== false) {
      if (!this.cookies.has(CSRF_COOKIE)) await this.csrf();
      headers[CSRF_HEADER] ??= this.cookies.get(CSRF_COOKIE)!;
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const opts: InjectOptions = { method, url: req.url, headers };
    if (this.defaults.remoteAddress) opts.remoteAddress = this.defaults.remoteAddress;
    if (req.payload !== undefined) {
      opts.payload = req.payload as InjectOptions['payload'];
    }
    const res = await this.app.inject(opts);
    for (const c of res.cookies as {
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const expired = (c.expires && c.expires.getTime() <= Date.now()) || c.maxAge === 0;
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, ...(headers ? { headers } : {}) });
  }

  post(url: string, payload?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, payload, ...(headers ? { headers } : {}) });
  }

  patch(url: string, payload?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'PATCH', url, payload, ...(headers ? { headers } : {}) });
  }

  async csrf(): Promise<string> {
    const res = await this.request({ url: '/api/auth/csrf/' });
    if (res.statusCode !== 200) throw new Error(`csrf: ${res.statusCode} ${res.body}`);
    return this.cookies.get(CSRF_COOKIE)!;
  }

  login(emailOrUsername: string, password: string) {
    return this.post('/api/auth/login/', { email_or_username: emailOrUsername, password });
  }

  get sessionToken(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }
}

export interface CreateTestAppOptions {
  config?: Partial<RuntimeConfig>;
  /** Reuse a database (e.g. to reopen it after `close()`); default: a new clone of the template. */
  databaseName?: string;
  /** Register extra routes before the app is ready (e.g. test-only calls). */
  register?: (app: FastifyInstance) => void | Promise<void>;
  /** Job queue: workers poll every 0.5 s in tests unless told otherwise. */
  jobs?: { pollingIntervalSeconds?: number; runWorkers?: boolean };
  /** A pino logger (e.g. to capture the log); none by default. */
  logger?: FastifyBaseLogger;
}

export async function createTestApp(opts: CreateTestAppOptions = {}): Promise<TestApp> {
  const databaseName = opts.databaseName ?? (await createDatabaseFromTemplate());
  const config = testConfig(opts.config);
  const handle = openDatabase(`${inject('pgAppBaseUrl')}/${databaseName}`, { max: 5 });
  // pg pools connect lazily: a test file that never uses it opens no connection.
  const ownerHandle = openDatabase(`${inject('pgOwnerBaseUrl')}/${databaseName}`, { max: 2 });
  const app = await buildApp({
    config,
    db: handle.db,
    jobs: { pollingIntervalSeconds: 0.5, ...opts.jobs },
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
  if (opts.register) await app.register(async (scope) => opts.register!(scope));
  await app.ready();
  const db = handle.db;

  const createOrg = async (name = `Org ${uid()}`): Promise<TestOrg> => {
    const { organization } = await createOrganization(db, name);
    return { id: organization.id, name: organization.name };
  };

  const createUser = async (o: CreateUserOptions = {}) => {
    const orgs = o.orgs ?? [await createOrg()];
    const suffix = uid();
    const username = o.username ?? `user_${suffix}`;
    const email = o.email ?? `${username}@example.test`;
    const password = o.password ?? TEST_PASSWORD;
    const [row] = await db
      .insert(users)
      .values({
        username,
        email,
        firstName: o.firstName ?? 'Test',
        lastName: o.lastName ?? `User ${suffix}`,
        passwordHash: await hashPassword(password, config.argon2),
        isLocked: o.locked ?? false,
        isServerAdmin: o.serverAdmin ?? false,
      })
      .returning();
    for (const org of orgs) await setMembership(db, row!.id, org.id, o.role ?? 'Viewer');
    if (o.agreedToTos !== false) {
      const terms = await findActiveTerms(db);
      if (terms) await db.insert(tosAgreements).values({ userId: row!.id, tosId: terms.id });
    }
    return { id: row!.id, username, email, password, row: row!, orgs };
  };

  return {
    app,
    db,
    handle,
    ownerDb: ownerHandle.db,
    ownerHandle,
    config,
    databaseName,
    inject: (o) => app.inject(o),
    client: (defaults) => new TestClient(app, defaults),
    createOrg,
    createUser,
    async signIn(o = {}) {
      const user = await createUser(o);
      const client = new TestClient(app);
      const res = await client.login(user.username, user.password);
      if (res.statusCode !== 200) throw new Error(`signIn: ${res.statusCode} ${res.body}`);
      return { user, orgs: user.orgs, client, body: res.json() };
    },
    async publishTerms(content = `Terms ${uid()}`) {
      const [last] = await db
        .select({ max: sql<number | null>`max(${termsOfService.version})` })
        .from(termsOfService);
      const version = (last?.max ?? 0) + 1;
      const [row] = await db
        .insert(termsOfService)
        .values({ version, content, active: true })
        .returning();
      return { id: row!.id, version: row!.version };
    },
    async close() {
      await app.close();
      await handle.close();
      await ownerHandle.close();
    },
  };
}
