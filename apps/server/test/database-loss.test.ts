import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { EMBEDDED_APP_ROLE, EMBEDDED_OWNER_ROLE } from '../src/db/roles';
import { users } from '../src/db/schema';
import { records, scans, tags } from '../src/db/schema-shipments';
import { createOrganization, setMembership } from '../src/modules/orgs/repository';
import { startServerProcess, type ServerProcess } from './server-process';
import { epoch, insertToken, serial, xt1Body } from './shipment-factories';
import { eventually, freePort } from './smtp-sink';

/**
 * The real server (`npm start` without DATABASE_URL: its own embedded
 * PostgreSQL in a fresh data folder) loses its database under load: the
 * PostgreSQL postmaster is killed (SIGKILL) in the middle of a stream of xt1
 * uploads. The Node process stays up, answers 503 (never 500, never a dropped
 * connection) and says so on its health check, restarts PostgreSQL by itself,
 * and then answers again; every upload that got a 200 is stored.
 */

const WORKERS = 3;
const KILL_AFTER = 12;
const POINTS = 20;

const pidOf = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('the server losing its embedded PostgreSQL [FEAT-DURABILITY]', () => {
  let dataDir = '';
  let port = 0;
  let server: ServerProcess | undefined;
  let db: DatabaseHandle | undefined;
  let superuserUrl = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'coldtrace-db-loss-'));
    port = await freePort();
    const pgPort = await freePort();
    server = await startServerProcess(undefined, port, dataDir, {
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'warn',
    });
    const secret = async (file: string) =>
      encodeURIComponent((await readFile(path.join(dataDir, file), 'utf8')).trim());
    superuserUrl = `postgres://postgres:${await secret('postgres_password')}@127.0.0.1:${pgPort}/coldtrace`;
    db = openDatabase(
      `postgres://${EMBEDDED_APP_ROLE}:${await secret('postgres_app_password')}@127.0.0.1:${pgPort}/coldtrace`,
      { max: 2 },
    );
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
      try {
        process.kill(pidOf(dataDir), 'SIGKILL');
      } catch {
        // PostgreSQL already gone
      }
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('made the owner and application roles on first start; the server connects as the application role', async () => {
    for (const file of ['postgres_owner_password', 'postgres_app_password']) {
      expect((await stat(path.join(dataDir, file))).mode & 0o777, file).toBe(0o600);
    }
    const client = new pg.Client({ connectionString: superuserUrl });
    await client.connect();
    try {
      const roles = await client.query<{ rolname: string; rolsuper: boolean }>(
        `SELECT rolname, rolsuper FROM pg_roles WHERE rolname = ANY($1) ORDER BY rolname`,
        [[EMBEDDED_OWNER_ROLE, EMBEDDED_APP_ROLE]],
      );
      expect(roles.rows).toEqual([
        { rolname: EMBEDDED_APP_ROLE, rolsuper: false },
        { rolname: EMBEDDED_OWNER_ROLE, rolsuper: false },
      ]);
      const owners = await client.query<{ owner: string }>(
        `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'pgboss')`,
      );
      expect(owners.rows).toEqual([{ owner: EMBEDDED_OWNER_ROLE }]);
      // The server's own connections (the start-up ones as the owner are closed by now).
      const sessions = await client.query<{ usename: string }>(
        `SELECT DISTINCT usename FROM pg_stat_activity
          WHERE datname = 'coldtrace' AND pid <> pg_backend_pid() AND usename IS NOT NULL`,
      );
      expect(sessions.rows).toEqual([{ usename: EMBEDDED_APP_ROLE }]);
    } finally {
      await client.end();
    }
  });

  it(
    'answers 503 while PostgreSQL is down, restarts it, and keeps every acknowledged upload',
    { timeout: 45_000 },
    async () => {
      const d = db!.db;
      const { organization } = await createOrganization(d, `Loss ${serial('ORG')}`);
      const [user] = await d
        .insert(users)
        .values({
          username: serial('loss').toLowerCase(),
          email: `${serial('loss').toLowerCase()}@example.test`,
          firstName: 'Lou',
          lastName: 'Loss',
          passwordHash: 'unused',
        })
        .returning();
      await setMembership(d, user!.id, organization.id, 'Administrator');
      const token = await insertToken(d, user!.id, organization.id);
      const base = `http://127.0.0.1:${port}`;
      const start = epoch(new Date()) - 3600;
      const temps = Array.from({ length: POINTS }, (_, i) => 4 + (i % 5) / 2);

      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      const dropped: string[] = [];
      let killedAt = 0;
      let stop = false;

      const worker = async () => {
        while (!stop) {
          const tag = serial('LOSS');
          try {
            const res = await fetch(`${base}/api/devices/xt1/scans/`, {
              method: 'POST',
              headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(xt1Body(tag, { start_time_seconds: start, temps })),
            });
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const body = await res.text();
            if (res.status === 200) acknowledged.push(tag);
            else if (res.status === 503) {
              expect(JSON.parse(body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
              expect(res.headers.get('retry-after')).toBe('5');
            } else throw new Error(`${res.status} ${body}`);
          } catch (err) {
            if (err instanceof Error && /^\d{3} /.test(err.message)) throw err;
            dropped.push(String(err));
          }
          if (!killedAt && acknowledged.length >= KILL_AFTER) {
            killedAt = Date.now();
            process.kill(pidOf(dataDir), 'SIGKILL');
          }
        }
      };
      const health = async () => {
        const res = await fetch(`${base}/api/health/`);
        return { status: res.status, body: (await res.json()) as unknown };
      };
      const workers = Array.from({ length: WORKERS }, worker);

      // Down: the health check says so, uploads answer 503.
      await eventually(
        () => killedAt,
        (at) => at > 0,
        20_000,
      );
      const down = await eventually(health, (h) => h.status !== 200, 10_000);
      expect(down).toEqual({ status: 503, body: { status: 'unavailable', database: 'down' } });
      // Back: the server restarted PostgreSQL by itself.
      const up = await eventually(health, (h) => h.status === 200, 30_000);
      expect(up.body).toEqual({ status: 'ok', database: 'up' });
      const ackBefore = acknowledged.length;
      await eventually(
        () => acknowledged.length,
        (n) => n >= ackBefore + 5,
        10_000,
      );
      stop = true;
      await Promise.all(workers);

      expect(server!.child.exitCode).toBeNull();
      expect(server!.child.signalCode).toBeNull();
      expect(server!.output.join('')).toMatch(/embedded PostgreSQL exited unexpectedly/);
      expect(statuses.get(503) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
      expect([...statuses.keys()].sort()).toEqual([200, 503]);
      expect(dropped).toEqual([]);

      // Every upload answered 200 is stored, whole.
      const stored = await d
        .select({ serial: tags.serialNumber, points: records.numberOfPoints })
        .from(scans)
        .innerJoin(tags, eq(tags.id, scans.tagId))
        .innerJoin(records, eq(records.id, scans.recordId))
        .where(inArray(tags.serialNumber, acknowledged));
      expect(new Set(stored.map((s) => s.serial))).toEqual(new Set(acknowledged));
      for (const s of stored) expect(s.points, s.serial).toBe(POINTS);

      // The server stops cleanly afterwards.
      server!.child.kill('SIGTERM');
      await server!.exited;
      expect(server!.child.exitCode, server!.output.join('')).toBe(0);
    },
  );
});
