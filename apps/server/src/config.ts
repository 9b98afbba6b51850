import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The server's configuration: the environment parsed once at start-up with Zod.
 * Every problem is listed at once (`ConfigError`), so a misconfigured deployment
 * fails fast with one readable message. `loadConfig` is pure apart from finding
 * the repository root; the secret key file is handled by `secret-key.ts`.
 */

/** The repository root: the nearest folder above this file whose package.json has workspaces. */
export function findRepoRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { workspaces?: unknown };
        if (parsed.workspaces !== undefined) return dir;
      } catch {
        // not a readable manifest: keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot();

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An unset variable and an empty one (`FOO=` in an env file) both mean "use the default". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** An integer from min to max, else `fallback` when unset (undefined: none). */
function int<F extends number | undefined>(name: string, min: number, max: number, fallback: F) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx): number | F => {
        if (v === undefined) return fallback;
        const n = Number(v.trim());
        if (!/^-?\d+$/.test(v.trim()) || n < min || n > max) {
          ctx.addIssue({
            code: 'custom',
            message: `${name} must be an integer from ${min} to ${max}, got '${v}'`,
          });
          return z.NEVER;
        }
        return n;
      }),
  );
}

function bool(name: string, fallback: boolean) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return fallback;
        const s = v.trim().toLowerCase();
        if (['1', 'true', 'yes', 'on'].includes(s)) return true;
        if (['0', 'false', 'no', 'off'].includes(s)) return false;
        ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got '${v}'` });
        return z.NEVER;
      }),
  );
}

function optionalString(name: string, min = 1, what = `at least ${min} characters`) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        if (v !== undefined && v.length < min)
          ctx.addIssue({ code: 'custom', message: `${name} must be ${what}` });
      }),
  );
}

function normaliseOrigin(name: string, raw: string, ctx: z.RefinementCtx): string {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.origin;
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `${name} must be an http(s) origin such as https://coldtrace.example.com, got '${raw}'`,
    });
    return '';
  }
}

function resolvePath(p: string): string {
  return path.isAbsolute(p) ? p : path.resolve(REPO_ROOT, p);
}

/** The most server processes WEB_CONCURRENCY may ask for. */
export const MAX_WEB_CONCURRENCY = 64;

/**
 * Database connections per server process when DATABASE_POOL_SIZE is not set:
 * the PostgreSQL wiki's "(cores x 2) + 1" connections for the whole server
 * ("Number Of Database Connections"), shared by its processes, at least 3 per
 * process (requests and background jobs share a process's pool). On a 2-core
 * machine: 5 for one process, 3 each for two. More connections than that
 * left PostgreSQL's backends and Node taking the cores from each other: with
 * 10 a process, the records list cost PostgreSQL 15 % more CPU a page, and
 * answered fewer pages a second with a longer p99 (docs/decisions/
 * list-performance.md, "Pool size").
 */
export function defaultDatabasePoolSize(cpus: number, processes: number): number {
  return Math.max(3, Math.ceil((2 * cpus + 1) / processes));
}

/** WEB_CONCURRENCY: a process count, or `auto` (one per CPU the process may use). */
function webConcurrency() {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return 1;
        const s = v.trim().toLowerCase();
        if (s === 'auto') return Math.min(MAX_WEB_CONCURRENCY, Math.max(1, availableParallelism()));
        const n = Number(s);
        if (!/^\d+$/.test(s) || n < 1 || n > MAX_WEB_CONCURRENCY) {
          ctx.addIssue({
            code: 'custom',
            message: `WEB_CONCURRENCY must be 'auto' or an integer from 1 to ${MAX_WEB_CONCURRENCY}, got '${v}'`,
          });
          return z.NEVER;
        }
        return n;
      }),
  );
}

/** An optional postgres:// or postgresql:// connection URL. */
function postgresUrl(name: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        if (v !== undefined && !/^postgres(ql)?:\/\//.test(v))
          ctx.addIssue({
            code: 'custom',
            message: `${name} must be a postgres:// or postgresql:// connection URL`,
          });
      }),
  );
}

/**
 * Fastify's `trustProxy`: false, a hop count, or a list of addresses / CIDR ranges.
 * TRUST_PROXY=true means one hop (never Fastify's `true`, which believes the
 * left-most X-Forwarded-For address a client may have forged).
 */
export type TrustProxy = false | number | string[];

/**
 * The `trustProxy` option Fastify is given. A hop count becomes "trust the
 * nearest N addresses" (the socket peer and the N-1 proxies before it), so the
 * client address is the one the outermost trusted proxy appended; Fastify 5
 * itself treats a bare number as "trust nothing". With a hop count the server
 * must be reachable only through the proxy; a list of the proxies' addresses
 * (or CIDR ranges) also checks who the peer is.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}

const envSchema = z.object({
  PORT: int('PORT', 0, 65535, 8000),
  HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  WEB_CONCURRENCY: webConcurrency(),
  DATABASE_POOL_SIZE: int('DATABASE_POOL_SIZE', 1, 1000, undefined),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data').transform(resolvePath)),
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  MIGRATION_DATABASE_URL: postgresUrl('MIGRATION_DATABASE_URL'),
  MIGRATE: bool('MIGRATE', true),
  SECRET_KEY: optionalString('SECRET_KEY', 32),
  ADMIN_EMAIL: z.preprocess(
    blankToUndefined,
    z.email({ message: 'ADMIN_EMAIL must be an e-mail address' }).default('admin@coldtrace.local'),
  ),
  ADMIN_PASSWORD: optionalString('ADMIN_PASSWORD', 8),
  PUBLIC_LOGIN_USER: optionalString('PUBLIC_LOGIN_USER'),
  SEED_DEMO: bool('SEED_DEMO', true),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.trim().toLowerCase()) : v),
    z
      .enum(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
      .default('info'),
  ),
  TRUST_PROXY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((v): TrustProxy => {
        if (v === undefined) return false;
        const s = v.trim().toLowerCase();
        if (['true', 'yes', 'on'].includes(s)) return 1;
        if (['0', 'false', 'no', 'off'].includes(s)) return false;
        if (/^\d+$/.test(s)) return Number(s);
        return s
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean);
      }),
  ),
  PUBLIC_ORIGIN: z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx) =>
        v === undefined ? undefined : normaliseOrigin('PUBLIC_ORIGIN', v, ctx),
      ),
  ),
  ALLOWED_ORIGINS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx) =>
        (v ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
          .map((o) => normaliseOrigin('ALLOWED_ORIGINS', o, ctx)),
      ),
  ),
  SESSION_TTL_HOURS: int('SESSION_TTL_HOURS', 1, 24 * 366, 336),
  ARGON2_MEMORY_KIB: int('ARGON2_MEMORY_KIB', 8, 4 * 1024 * 1024, 19456),
  ARGON2_TIME_COST: int('ARGON2_TIME_COST', 1, 100, 2),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: int('LOGIN_MAX_FAILURES_PER_ACCOUNT', 1, 1_000_000, 5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: int('LOGIN_MAX_FAILURES_PER_ADDRESS', 1, 1_000_000, 20),
  LOGIN_THROTTLE_WINDOW_MINUTES: int('LOGIN_THROTTLE_WINDOW_MINUTES', 1, 24 * 60, 15),
  BODY_LIMIT_BYTES: int('BODY_LIMIT_BYTES', 1024, 1024 * 1024 * 1024, 1024 * 1024),
  COMPRESSION: bool('COMPRESSION', true),
  WEB_DIST: z.preprocess(
    blankToUndefined,
    z.string().default('apps/web/dist').transform(resolvePath),
  ),
  EMBEDDED_PG_PORT: int('EMBEDDED_PG_PORT', 1, 65535, 0),
  BACKUP_WAL_DIR: z.preprocess(blankToUndefined, z.string().optional()),
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        if (v !== undefined && !/^smtps?:\/\//.test(v.trim()))
          ctx.addIssue({
            code: 'custom',
            message: 'SMTP_URL must be an smtp:// or smtps:// URL',
          });
      }),
  ),
  MAIL_FROM: z.preprocess(
    blankToUndefined,
    z.string().default('Coldtrace <no-reply@coldtrace.local>'),
  ),
  MAIL_RETRY_DELAY_SECONDS: int('MAIL_RETRY_DELAY_SECONDS', 1, 3600, 15),
  WEBHOOK_ALLOW_PRIVATE: bool('WEBHOOK_ALLOW_PRIVATE', false),
  WEBHOOK_RETRY_DELAY_SECONDS: int('WEBHOOK_RETRY_DELAY_SECONDS', 1, 3600, 20),
  PASSWORD_RESET_TTL_HOURS: int('PASSWORD_RESET_TTL_HOURS', 1, 24 * 366, 72),
  PASSWORD_RESET_MAX_PER_ACCOUNT: int('PASSWORD_RESET_MAX_PER_ACCOUNT', 1, 1000, 3),
  PASSWORD_RESET_MAX_PER_ADDRESS: int('PASSWORD_RESET_MAX_PER_ADDRESS', 1, 100_000, 10),
  TOKEN_TTL_DAYS: int('TOKEN_TTL_DAYS', 1, 3650, 30),
  PRINCIPAL_CACHE_SECONDS: int('PRINCIPAL_CACHE_SECONDS', 0, 60, 5),
  TOKEN_MAX_TTL_DAYS: int('TOKEN_MAX_TTL_DAYS', 1, 3650, 365),
  REPORT_RETENTION_HOURS: int('REPORT_RETENTION_HOURS', 1, 24 * 3660, 24 * 7),
  // The web app's build reads the same variable (the record map's tiles); the server allows its host in the CSP.
  VITE_MAP_TILE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')
      .refine((v) => /^(https?:\/\/[^/]+|\/)/i.test(v.trim()), {
        message: 'VITE_MAP_TILE_URL must be an http(s):// URL template or a path starting with /',
      }),
  ),
  // docs/decisions/observability.md; the OpenTelemetry SDK reads OTEL_* itself (a bad URL fails here).
  METRICS_PORT: int('METRICS_PORT', 1, 65535, undefined),
  METRICS_HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  METRICS_TOKEN: optionalString('METRICS_TOKEN', 16),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(
    blankToUndefined,
    z.url({ protocol: /^https?$/, message: 'must be an http(s):// URL' }).optional(),
  ),
});

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /**
   * Server processes (WEB_CONCURRENCY). 1: this process serves. More: this process
   * prepares the database once and forks that many workers sharing the port (`cluster.ts`).
   */
  webConcurrency: number;
  /** Database connections each server process opens at most (DATABASE_POOL_SIZE, else `defaultDatabasePoolSize`). */
  databasePoolSize: number;
  /** Absolute. Holds the embedded PostgreSQL cluster and the generated secret key. */
  dataDir: string;
  /**
   * External PostgreSQL, as the application role (every query the server makes); when
   * absent an embedded one is started in `dataDir/postgres` with both roles made for it.
   */
  databaseUrl: string | undefined;
  /**
   * External PostgreSQL as the owner role: migrations and grants (MIGRATION_DATABASE_URL).
   * Absent: `databaseUrl` migrates too (one role; the audit trail is not protected from it).
   */
  migrationDatabaseUrl: string | undefined;
  /**
   * MIGRATE (default true): apply pending migrations at start (db/migrate.ts, `migrateAtStart`).
   * false: never; a pending migration is an error naming it (another instance migrates).
   */
  migrate: boolean;
  /** From the environment; when absent `secret-key.ts` generates one and keeps it in the data folder. */
  secretKey: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  publicLoginUser: string | undefined;
  seedDemo: boolean;
  logLevel: LogLevel;
  trustProxy: TrustProxy;
  publicOrigin: string | undefined;
  allowedOrigins: string[];
  sessionTtlHours: number;
  argon2: { memoryCost: number; timeCost: number };
  loginThrottle: { maxPerAccount: number; maxPerAddress: number; windowMinutes: number };
  bodyLimitBytes: number;
  /**
   * COMPRESSION (default on): API replies of 1 KiB or more are sent br or gzip when the
   * client accepts it. Off when a proxy in front compresses instead. The web app's
   * precompressed files are served either way.
   */
  compression: boolean;
  /** Absolute path of the built web app. */
  webDist: string;
  /** First port tried for the embedded PostgreSQL; `exact` when EMBEDDED_PG_PORT was given. */
  embeddedPg: { port: number; exact: boolean };
  /** BACKUP_WAL_DIR (absolute): the embedded PostgreSQL's WAL archive (docs/operations.md). */
  backupWalDir: string | undefined;
  /**
   * Mail: SMTP_URL (absent: kept in the outbox table and printed to the log), MAIL_FROM, and
   * the first retry delay after a failed delivery (doubled each time).
   */
  mail: { smtpUrl: string | undefined; from: string; retryDelaySeconds: number };
  /**
   * Webhooks: WEBHOOK_ALLOW_PRIVATE (default false) lets a webhook point at a private,
   * loopback or link-local address and use plain http (tests, a receiver on the same
   * network); WEBHOOK_RETRY_DELAY_SECONDS: the first retry delay (default 20, doubled each time).
   */
  webhooks: { allowPrivate: boolean; retryDelaySeconds: number };
  /** Lifetime of password reset and welcome links. */
  passwordResetTtlHours: number;
  /**
   * Reset e-mails per account per hour (more requests are answered alike but
   * not mailed), and reset requests per client address per 15 minutes (more: 429).
   */
  passwordResetLimits: { maxPerAccount: number; maxPerAddress: number };
  /** User tokens: lifetime without `expiry_days` (TOKEN_TTL_DAYS) and the longest allowed (TOKEN_MAX_TTL_DAYS). */
  tokenTtlDays: { default: number; max: number };
  /**
   * PRINCIPAL_CACHE_SECONDS (default 5, 0 = off): how long a process may reuse a
   * session's lookup (user, role, terms) while PostgreSQL's change notifications
   * reach it (identity/auth/principal-cache.ts). A change takes effect at once
   * where it was made and on other processes as the notification arrives;
   * this many seconds only bound a notification that never came.
   */
  principalCacheSeconds: number;
  /** Generated report files are deleted this long after they were requested. */
  reportRetentionHours: number;
  /** Tile URL template of the record map (VITE_MAP_TILE_URL): its host is allowed in the CSP. */
  mapTileUrl: string;
  /** METRICS_PORT (unset: none) on METRICS_HOST; METRICS_TOKEN: /metrics on the main port needs it (else 404). */
  metrics: { port: number | undefined; host: string; token: string | undefined };
}

/** The configuration once the secret key is known (what the app is built with). */
export interface RuntimeConfig extends Config {
  secretKey: string;
}

export const DEFAULT_EMBEDDED_PG_PORT = 5433;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parse the environment (usually `process.env`) into a `Config`; throws `ConfigError` listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(envSchema.shape)) picked[key] = env[key];
  const result = envSchema.safeParse(picked);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '');
      return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const e = result.data;
  if (e.TOKEN_TTL_DAYS > e.TOKEN_MAX_TTL_DAYS) {
    throw new ConfigError([
      `TOKEN_TTL_DAYS (${e.TOKEN_TTL_DAYS}) must not exceed TOKEN_MAX_TTL_DAYS (${e.TOKEN_MAX_TTL_DAYS})`,
    ]);
  }
  if (e.MIGRATION_DATABASE_URL !== undefined && e.DATABASE_URL === undefined) {
    throw new ConfigError([
      'MIGRATION_DATABASE_URL (the owner role) needs DATABASE_URL (the application role); ' +
        'without DATABASE_URL the embedded PostgreSQL makes both roles itself',
    ]);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    webConcurrency: e.WEB_CONCURRENCY,
    databasePoolSize:
      e.DATABASE_POOL_SIZE ?? defaultDatabasePoolSize(availableParallelism(), e.WEB_CONCURRENCY),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    migrate: e.MIGRATE,
    secretKey: e.SECRET_KEY,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    publicLoginUser: e.PUBLIC_LOGIN_USER?.trim(),
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    publicOrigin: e.PUBLIC_ORIGIN,
    allowedOrigins: e.ALLOWED_ORIGINS,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    argon2: { memoryCost: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
    loginThrottle: {
      maxPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowMinutes: e.LOGIN_THROTTLE_WINDOW_MINUTES,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    compression: e.COMPRESSION,
    webDist: e.WEB_DIST,
    embeddedPg:
      e.EMBEDDED_PG_PORT === 0
        ? { port: DEFAULT_EMBEDDED_PG_PORT, exact: false }
        : { port: e.EMBEDDED_PG_PORT, exact: true },
    backupWalDir: e.BACKUP_WAL_DIR === undefined ? undefined : resolvePath(e.BACKUP_WAL_DIR),
    mail: {
      smtpUrl: e.SMTP_URL?.trim(),
      from: e.MAIL_FROM.trim(),
      retryDelaySeconds: e.MAIL_RETRY_DELAY_SECONDS,
    },
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      retryDelaySeconds: e.WEBHOOK_RETRY_DELAY_SECONDS,
    },
    passwordResetTtlHours: e.PASSWORD_RESET_TTL_HOURS,
    passwordResetLimits: {
      maxPerAccount: e.PASSWORD_RESET_MAX_PER_ACCOUNT,
      maxPerAddress: e.PASSWORD_RESET_MAX_PER_ADDRESS,
    },
    tokenTtlDays: { default: e.TOKEN_TTL_DAYS, max: e.TOKEN_MAX_TTL_DAYS },
    principalCacheSeconds: e.PRINCIPAL_CACHE_SECONDS,
    reportRetentionHours: e.REPORT_RETENTION_HOURS,
    mapTileUrl: e.VITE_MAP_TILE_URL.trim(),
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST.trim(), token: e.METRICS_TOKEN?.trim() },
  };
}
