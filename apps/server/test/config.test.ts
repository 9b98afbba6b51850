import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultDatabasePoolSize, loadConfig, REPO_ROOT } from '../src/config';
import { publicOriginWarning, servedOrigin } from '../src/public-origin';
import { withSecretKey } from '../src/secret-key';

describe('loadConfig [FEAT-DEPLOYMENT]', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8000,
      host: '0.0.0.0',
      webConcurrency: 1,
      dataDir: path.join(REPO_ROOT, 'data'),
      databaseUrl: undefined,
      migrationDatabaseUrl: undefined,
      secretKey: undefined,
      adminEmail: 'admin@coldtrace.local',
      adminPassword: undefined,
      publicLoginUser: undefined,
      seedDemo: true,
      logLevel: 'info',
      trustProxy: false,
      publicOrigin: undefined,
      allowedOrigins: [],
      sessionTtlHours: 336,
      argon2: { memoryCost: 19456, timeCost: 2 },
      loginThrottle: { maxPerAccount: 5, maxPerAddress: 20, windowMinutes: 15 },
      bodyLimitBytes: 1024 * 1024,
      webDist: path.join(REPO_ROOT, 'apps/web/dist'),
      embeddedPg: { port: 5433, exact: false },
    });
  });

  it('finds the repository root from its own location', async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(manifest.workspaces).toContain('apps/server');
  });

  it('reads every variable; relative paths are relative to the repository root', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: 'var/data',
      DATABASE_URL: 'postgres://u:p@db:5432/coldtrace',
      MIGRATION_DATABASE_URL: 'postgresql://owner:p@db:5432/coldtrace',
      SECRET_KEY: 'x'.repeat(40),
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'long-enough',
      PUBLIC_LOGIN_USER: 'public',
      SEED_DEMO: 'no',
      LOG_LEVEL: 'WARN',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      PUBLIC_ORIGIN: 'https://coldtrace.example.com/',
      ALLOWED_ORIGINS: 'https://a.example.com, http://localhost:5173',
      SESSION_TTL_HOURS: '12',
      ARGON2_MEMORY_KIB: '65536',
      ARGON2_TIME_COST: '3',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '10',
      WEB_DIST: '/srv/web',
      EMBEDDED_PG_PORT: '6000',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: path.join(REPO_ROOT, 'var/data'),
      databaseUrl: 'postgres://u:p@db:5432/coldtrace',
      migrationDatabaseUrl: 'postgresql://owner:p@db:5432/coldtrace',
      adminEmail: 'boss@example.com',
      seedDemo: false,
      logLevel: 'warn',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      publicOrigin: 'https://coldtrace.example.com',
      allowedOrigins: ['https://a.example.com', 'http://localhost:5173'],
      sessionTtlHours: 12,
      argon2: { memoryCost: 65536, timeCost: 3 },
      loginThrottle: { maxPerAccount: 3, maxPerAddress: 10, windowMinutes: 15 },
      webDist: '/srv/web',
      embeddedPg: { port: 6000, exact: true },
    });
  });

  it('MIGRATION_DATABASE_URL (the owner role) needs DATABASE_URL (the application role)', () => {
    expect(() => loadConfig({ MIGRATION_DATABASE_URL: 'postgres://owner:p@db/coldtrace' })).toThrow(
      /MIGRATION_DATABASE_URL .* needs DATABASE_URL/,
    );
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://app:p@db/coldtrace',
        MIGRATION_DATABASE_URL: ' ',
      }).migrationDatabaseUrl,
    ).toBeUndefined();
  });

  it('treats empty values as unset and parses TRUST_PROXY forms', () => {
    expect(loadConfig({ PORT: '', SEED_DEMO: ' ' })).toMatchObject({ port: 8000, seedDemo: true });
    // true means one proxy hop: Fastify's own true would believe a forged left-most X-Forwarded-For.
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('parses WEB_CONCURRENCY: 1 to 64 processes, or auto (one per CPU)', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '' }).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: ' 4 ' }).webConcurrency).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: '64' }).webConcurrency).toBe(64);
    expect(loadConfig({ WEB_CONCURRENCY: 'Auto' }).webConcurrency).toBe(
      Math.min(64, availableParallelism()),
    );
    for (const bad of ['0', '65', '-2', '1.5', 'two', 'max']) {
      expect(() => loadConfig({ WEB_CONCURRENCY: bad }), bad).toThrow(
        `WEB_CONCURRENCY must be 'auto' or an integer from 1 to 64, got '${bad}'`,
      );
    }
  });

  it('DATABASE_POOL_SIZE: connections per process, by default (2 x cores + 1) shared by the processes, at least 3', () => {
    // The PostgreSQL wiki's connections for the whole server, split between its processes.
    expect(defaultDatabasePoolSize(2, 1)).toBe(5);
    expect(defaultDatabasePoolSize(2, 2)).toBe(3);
    expect(defaultDatabasePoolSize(8, 1)).toBe(17);
    expect(defaultDatabasePoolSize(8, 4)).toBe(5);
    // Never below 3: requests and the background jobs share a process's pool.
    expect(defaultDatabasePoolSize(1, 1)).toBe(3);
    expect(defaultDatabasePoolSize(2, 64)).toBe(3);
    const cpus = availableParallelism();
    expect(loadConfig({}).databasePoolSize).toBe(Math.max(3, 2 * cpus + 1));
    expect(loadConfig({ WEB_CONCURRENCY: '2' }).databasePoolSize).toBe(
      Math.max(3, Math.ceil((2 * cpus + 1) / 2)),
    );
    expect(loadConfig({ DATABASE_POOL_SIZE: ' 12 ' }).databasePoolSize).toBe(12);
    expect(loadConfig({ DATABASE_POOL_SIZE: '', WEB_CONCURRENCY: '2' }).databasePoolSize).toBe(
      defaultDatabasePoolSize(cpus, 2),
    );
    for (const bad of ['0', '1001', '-1', '2.5', 'ten']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(
        `DATABASE_POOL_SIZE must be an integer from 1 to 1000, got '${bad}'`,
      );
    }
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://nope',
        MIGRATION_DATABASE_URL: 'owner:p@db/coldtrace',
        SECRET_KEY: 'short',
        ADMIN_EMAIL: 'not-an-email',
        ADMIN_PASSWORD: 'abc',
        SEED_DEMO: 'maybe',
        LOG_LEVEL: 'loud',
        PUBLIC_ORIGIN: 'ftp://x',
        SESSION_TTL_HOURS: '0',
        ARGON2_MEMORY_KIB: '1',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'MIGRATION_DATABASE_URL',
      'SECRET_KEY',
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
      'SEED_DEMO',
      'LOG_LEVEL',
      'PUBLIC_ORIGIN',
      'SESSION_TTL_HOURS',
      'ARGON2_MEMORY_KIB',
    ]) {
      expect(
        problems.some((p) => p.startsWith(name)),
        `${name} in ${problems.join(' | ')}`,
      ).toBe(true);
    }
    expect((error as Error).message).toContain(
      "PORT must be an integer from 0 to 65535, got 'eighty'",
    );
  });
});

describe('withSecretKey [FEAT-DEPLOYMENT]', () => {
  it('generates the key once, keeps it in DATA_DIR/secret_key with mode 0600', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'coldtrace-secret-'));
    const config = { ...loadConfig({}), dataDir };
    const first = await withSecretKey(config);
    const second = await withSecretKey(config);
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(second.secretKey).toBe(first.secretKey);
    expect((await stat(path.join(dataDir, 'secret_key'))).mode & 0o777).toBe(0o600);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prefers SECRET_KEY from the environment', async () => {
    const config = loadConfig({ SECRET_KEY: 'k'.repeat(32) });
    expect((await withSecretKey(config)).secretKey).toBe('k'.repeat(32));
  });
});

describe('the origin of links without PUBLIC_ORIGIN [FEAT-DEPLOYMENT]', () => {
  const origin = (HOST: string | undefined, PORT: string) =>
    servedOrigin(loadConfig({ ...(HOST === undefined ? {} : { HOST }), PORT }));

  it('is localhost on the port served for a wildcard or loopback HOST, else HOST itself', () => {
    expect(origin(undefined, '8123')).toBe('http://localhost:8123');
    for (const host of ['0.0.0.0', '::', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'LocalHost']) {
      expect(origin(host, '9000'), host).toBe('http://localhost:9000');
    }
    expect(origin('10.1.2.3', '8123')).toBe('http://10.1.2.3:8123');
    expect(origin('coldtrace.internal', '8000')).toBe('http://coldtrace.internal:8000');
    expect(origin('fd00::5', '8000')).toBe('http://[fd00::5]:8000');
    expect(origin('10.1.2.3', '80')).toBe('http://10.1.2.3');
  });

  it('is warned about at start unless PUBLIC_ORIGIN is set or NODE_ENV is development or test', () => {
    const unset = loadConfig({ PORT: '8123' });
    for (const env of [undefined, 'production', 'staging']) {
      expect(publicOriginWarning(unset, env), String(env)).toBe(
        'PUBLIC_ORIGIN is not set: links in e-mails point to http://localhost:8123; ' +
          'set it to the address users reach',
      );
    }
    expect(publicOriginWarning(unset, 'development')).toBeUndefined();
    expect(publicOriginWarning(unset, 'test')).toBeUndefined();
    const set = loadConfig({ PORT: '8123', PUBLIC_ORIGIN: 'https://coldtrace.example.com' });
    expect(publicOriginWarning(set, 'production')).toBeUndefined();
  });
});
