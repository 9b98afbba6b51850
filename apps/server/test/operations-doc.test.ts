import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import {
  cleanEnv,
  markedBlock,
  npmStart,
  readDoc,
  startDocServer,
  stopDocServer,
  type DocServer,
} from './doc-blocks';
import { epoch, iso, serial, xt1Body } from './shipment-factories';
import { freePort } from './smtp-sink';

/**
 * Issue 36, "done when": docs/operations.md's point-in-time restore and its
 * upgrade (with the roll-back), followed literally. The shell blocks marked
 * `<!-- test: ... -->` in the page are run with bash as they are written, from
 * the checkout, with the server's environment (as the page says); only the
 * page's example folders (`/backups/...`, `/var/backups/coldtrace-wal`,
 * `/srv/...`), the target time and the server's port are replaced. `npm start`
 * is the server on the sources (as `npm run dev`, without the build), started
 * by the test and waited for until its health check answers; the steps the
 * page gives in words (stop the server, install a version) are done here.
 *
 * Point-in-time: uploads, a base backup, more uploads, the instant T, uploads
 * after T, the server stopped; a restore to T into a new folder and a server
 * on it holds every upload made before T and none made after it. Upgrade: the
 * "new version" is this checkout: backup, stop, start (migrations at start),
 * health and verification against the backup; then the roll-back.
 */

const DOC = readDoc('docs/operations.md');
const ADMIN_PASSWORD = 'ops-doc-test-admin-password';

/** The page's example instant of the target time. */
const DOC_TARGET_TIME = '2026-12-02T10:15:00Z';

/** A browser-like client of a running server: the CSRF cookie, a session, JSON calls. */
class Http {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly port: number) {}

  async call(method: string, url: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {};
    if (method !== 'GET') {
      if (!this.cookies.has('csrftoken')) await this.call('GET', '/api/auth/csrf/');
      headers['x-csrftoken'] = this.cookies.get('csrftoken')!;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const res = await fetch(`http://127.0.0.1:${this.port}${url}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }

  async login(): Promise<this> {
    const res = await this.call('POST', '/api/auth/login/', {
      email_or_username: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return this;
  }

  /** A new shipment: one xt1 scan of a fresh tag. Its record id, once the server answered 200. */
  async upload(): Promise<string> {
    const sn = serial('OPS');
    const start = epoch(new Date()) - 3600;
    const res = await this.call(
      'POST',
      '/api/devices/xt1/scans/',
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 600), temps: [4, 5, 6] }),
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return String((JSON.parse(text) as { record_id: string | number }).record_id);
  }

  /** The ids of every record of the organization, sorted. */
  async recordIds(): Promise<string[]> {
    const res = await this.call('GET', '/api/devices/xt1/records/?page_size=1000');
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return (JSON.parse(text) as { id: string | number }[]).map((r) => String(r.id)).sort();
  }
}

const sorted = (ids: string[]) => [...ids].sort();

/** Sends `sig` to `pid` (0: only asks whether it runs); false when there is no such process. */
function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

describe("docs/operations.md's point-in-time restore and upgrade, followed literally [FEAT-BACKUP-RESTORE]", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ops-doc-'));
  // As root the embedded PostgreSQL runs as 'postgres', which must enter the folders.
  chmodSync(root, 0o755);
  const folder = (name: string) => path.join(root, name);
  const servers: DocServer[] = [];
  let server: DocServer | undefined;

  afterAll(async () => {
    for (const s of servers) await stopDocServer(s);
    // A server killed without its clean stop leaves its PostgreSQL running: stop it by its pid.
    for (const name of existsSync(root) ? readdirSync(root) : []) {
      const pidFile = path.join(root, name, 'postgres', 'postmaster.pid');
      if (!existsSync(pidFile)) continue;
      const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
      if (!(pid > 0) || !signal(pid, 'SIGQUIT')) continue;
      for (let waited = 0; waited < 10_000 && signal(pid, 0); waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  /** The server's environment: the commands run with it, `npm start` extends it. */
  let serverEnv: Record<string, string> = {};
  let targetTime = '';
  let baseBackup = '';

  /** The page's examples, under this test's folder (one pass: a replacement is never replaced again). */
  const local = (command: string) =>
    command.replace(
      /\/backups\/coldtrace-20261202T0400Z|\/var\/backups\/coldtrace-wal|\/backups\/|\/srv\/coldtrace-pitr|\/srv\/coldtrace-data|localhost:8000|2026-12-02T10:15:00Z/g,
      (found) => {
        switch (found) {
          case '/backups/coldtrace-20261202T0400Z':
            return baseBackup;
          case '/var/backups/coldtrace-wal':
            return folder('wal');
          case '/backups/':
            return `${folder('backups')}/`;
          case '/srv/coldtrace-pitr':
            return folder('pitr');
          case '/srv/coldtrace-data':
            return serverEnv.DATA_DIR!;
          case 'localhost:8000':
            return `localhost:${serverEnv.PORT}`;
          default:
            return targetTime;
        }
      },
    );

  /** One command of the page: `npm start` starts the server, anything else runs in bash. */
  async function run(command: string): Promise<string> {
    const startEnv = npmStart(command);
    if (startEnv) {
      expect(server, `a server is already running for: ${command}`).toBeUndefined();
      serverEnv = {
        ...serverEnv,
        ...Object.fromEntries(Object.entries(startEnv).map(([k, v]) => [k, local(v)])),
      };
      server = await startDocServer(cleanEnv(serverEnv));
      servers.push(server);
      return '';
    }
    try {
      return execFileSync('bash', ['-c', local(command)], {
        cwd: REPO_ROOT,
        env: cleanEnv(serverEnv),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (err) {
      const e = err as { status?: number; stdout?: string; stderr?: string };
      throw new Error(
        `\`${local(command)}\` exited with ${e.status}:\n${e.stdout ?? ''}${e.stderr ?? ''}`,
        { cause: err },
      );
    }
  }

  /** The page's "stop the server". */
  async function stopServer(): Promise<void> {
    await stopDocServer(server);
    server = undefined;
  }

  const before: string[] = [];
  const after: string[] = [];

  it('restores to an instant: every upload before it is there, none after it', async () => {
    serverEnv = {
      DATA_DIR: folder('data'),
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      ADMIN_PASSWORD,
      SEED_DEMO: 'false',
      ARGON2_MEMORY_KIB: '64',
      ARGON2_TIME_COST: '1',
    };

    // Continuous WAL archiving: the server started with BACKUP_WAL_DIR.
    const archive = markedBlock(DOC, 'archive');
    expect(archive).toEqual(['BACKUP_WAL_DIR=/var/backups/coldtrace-wal npm start']);
    await run(archive[0]!);
    expect(serverEnv.BACKUP_WAL_DIR).toBe(folder('wal'));
    const http = await new Http(Number(serverEnv.PORT)).login();
    before.push(await http.upload(), await http.upload());

    // A base backup once archiving is on, the server running.
    const backup = markedBlock(DOC, 'backup');
    expect(backup).toEqual([expect.stringMatching(/^npm run backup -- --to \/backups\//)]);
    await run(backup[0]!);
    const made = readdirSync(folder('backups'));
    expect(made).toEqual([expect.stringMatching(/^coldtrace-\d{8}T\d{4}Z$/)]);
    baseBackup = path.join(folder('backups'), made[0]!);

    // Uploads after the backup (replayed from the archive), the instant T, uploads after T.
    for (let i = 0; i < 3; i++) before.push(await http.upload());
    // T as the page writes it (whole seconds, UTC): the next second after the last answer.
    const t = (Math.floor(Date.now() / 1000) + 1) * 1000;
    targetTime = new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(targetTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(DOC_TARGET_TIME).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Every upload from here on commits after T: wait (on the clock) until T has passed.
    while (Date.now() <= t) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 3; i++) after.push(await http.upload());
    expect(sorted(await http.recordIds())).toEqual(sorted([...before, ...after]));

    // 1. Stop the server (its last WAL segment is archived at the clean stop).
    await stopServer();

    // 2. Restore to T into a new folder and start on it.
    const pitr = markedBlock(DOC, 'pitr');
    expect(pitr).toEqual([
      `npm run restore -- --from /backups/coldtrace-20261202T0400Z --to-data-dir /srv/coldtrace-pitr --target-time ${DOC_TARGET_TIME}`,
      'DATA_DIR=/srv/coldtrace-pitr npm start',
    ]);
    await run(pitr[0]!);
    await run(pitr[1]!);
    expect(serverEnv.DATA_DIR).toBe(folder('pitr'));

    // 3. The check: counts at least the backup's, the evidence chain verified (exit code 0).
    const check = markedBlock(DOC, 'pitr-check');
    expect(check).toEqual(['DATA_DIR=/srv/coldtrace-pitr npm run verify-backup']);
    const verified = await run(check[0]!);
    expect(verified).toMatch(/^records\s/m);
    expect(verified).not.toMatch(/MISSING|BROKEN/);

    // The restored server: the uploads before T, none of those after it.
    const restored = await new Http(Number(serverEnv.PORT)).login();
    expect(await restored.recordIds()).toEqual(sorted(before));
    for (const id of after) {
      const res = await restored.call('GET', `/api/devices/xt1/record/?record_id=${id}`);
      expect(res.status, `record ${id}, uploaded after T`).toBe(404);
    }
  }, 120_000);

  it('upgrades (backup, stop, start with migrations, check) and rolls back [FEAT-DEPLOYMENT]', async () => {
    expect(server, 'the restored server of the point-in-time restore runs').toBeDefined();
    const dataDir = serverEnv.DATA_DIR!;

    // 1. Backup, the server running.
    const backup = markedBlock(DOC, 'upgrade-backup');
    expect(backup).toEqual([
      expect.stringMatching(/^npm run backup -- --to \/backups\/pre-upgrade-/),
    ]);
    await run(backup[0]!);

    // 2. Stop; the "new version" is this checkout (nothing to install).
    await stopServer();

    // 3. Start (pending migrations at start), then the health check and the verification.
    const start = markedBlock(DOC, 'upgrade-start');
    expect(start).toEqual(['npm start']);
    await run(start[0]!);
    const check = markedBlock(DOC, 'upgrade-check');
    expect(check).toEqual([
      'curl -fsS http://localhost:8000/api/health/',
      expect.stringMatching(/^npm run verify-backup -- --against \/backups\/pre-upgrade-/),
    ]);
    expect(await run(check[0]!)).toMatch(/ok/i);
    const verified = await run(check[1]!);
    expect(verified).toMatch(/^records\s/m);
    expect(verified).not.toMatch(/MISSING|BROKEN/);
    const http = await new Http(Number(serverEnv.PORT)).login();
    expect(await http.recordIds()).toEqual(sorted(before));
    const late = await http.upload();

    // 4. Roll back: stop, (the previous version: this checkout), DATA_DIR aside, restore, start.
    await stopServer();
    const rollback = markedBlock(DOC, 'rollback');
    expect(rollback).toEqual([
      'mv /srv/coldtrace-data /srv/coldtrace-data.failed-upgrade',
      expect.stringMatching(/^npm run restore -- --from \/backups\/pre-upgrade-\S+$/),
      'npm start',
    ]);
    for (const command of rollback) await run(command);
    expect(serverEnv.DATA_DIR).toBe(dataDir);
    expect(existsSync(`${dataDir}.failed-upgrade`)).toBe(true);
    const rolledBack = markedBlock(DOC, 'rollback-check');
    expect(rolledBack).toEqual(['npm run verify-backup']);
    const again = await run(rolledBack[0]!);
    expect(again).toMatch(/^records\s/m);
    expect(again).not.toMatch(/MISSING|BROKEN/);
    // As the backup was: the upload made after it (on the "new version") is not there.
    const back = await new Http(Number(serverEnv.PORT)).login();
    expect(await back.recordIds()).toEqual(sorted(before));
    expect((await back.call('GET', `/api/devices/xt1/record/?record_id=${late}`)).status).toBe(404);
  }, 120_000);
});
