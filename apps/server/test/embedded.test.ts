import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { socketDirFor, startEmbeddedPostgres } from '../src/db/embedded';
import { handleStalePostmaster } from '../src/db/stale-postmaster';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

const made: string[] = [];
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

async function clusterWithPid(pid: number): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'coldtrace-stale-'));
  made.push(parent);
  const dir = path.join(parent, 'postgres');
  await mkdir(dir);
  await writeFile(path.join(dir, 'postmaster.pid'), `${pid}\n${dir}\n1700000000\n5433\n`);
  return dir;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/\)\s+Z\s/.test(execFileSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' }));
  } catch {
    return false;
  }
};

describe.runIf(process.platform === 'linux')(
  'stale postmaster.pid (stack-notes trap 3) [FEAT-DEPLOYMENT]',
  () => {
    it('removes the pid file of a PostgreSQL that is no longer running', async () => {
      let pid = 4_000_000;
      while (alive(pid)) pid -= 1;
      const dir = await clusterWithPid(pid);
      await handleStalePostmaster(dir, quiet);
      expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
    });

    it('removes it when the pid now belongs to another program, with the socket lock it names', async () => {
      const dir = await clusterWithPid(process.pid);
      // The socket's lock file names the same (now reused) pid: PostgreSQL would refuse to start.
      await writeFile(path.join(dir, '.s.PGSQL.5433.lock'), `${process.pid}\n${dir}\n`);
      await writeFile(path.join(dir, '.s.PGSQL.5433'), '');
      await writeFile(path.join(dir, 'PG_VERSION'), '18\n');
      await handleStalePostmaster(dir, quiet);
      expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
      expect(existsSync(path.join(dir, '.s.PGSQL.5433.lock'))).toBe(false);
      expect(existsSync(path.join(dir, '.s.PGSQL.5433'))).toBe(false);
      expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    });

    it('refuses when a live server still owns the PostgreSQL', async () => {
      // A "postgres" whose parent is this (node) process.
      const child = spawn('bash', ['-c', 'exec -a postgres-fake sleep 30'], { stdio: 'ignore' });
      try {
        await new Promise((r) => setTimeout(r, 100));
        const dir = await clusterWithPid(child.pid!);
        await expect(handleStalePostmaster(dir, quiet)).rejects.toThrow(/another running server/);
      } finally {
        child.kill('SIGKILL');
      }
    });

    it('stops an orphaned PostgreSQL left by a killed run', async () => {
      // A "postgres" whose parent exited (re-parented to init), as after kill -9 of the server.
      const pid = Number(
        execFileSync(
          'bash',
          ['-c', '(exec -a postgres-orphan sleep 30) >/dev/null 2>&1 & echo $!'],
          {
            encoding: 'utf8',
          },
        ).trim(),
      );
      expect(alive(pid)).toBe(true);
      const dir = await clusterWithPid(pid);
      await handleStalePostmaster(dir, quiet);
      expect(alive(pid)).toBe(false);
    });
  },
);

describe.runIf(process.platform === 'linux')('the Unix socket [FEAT-DEPLOYMENT]', () => {
  it("the URLs with a database go through the cluster folder's socket; the base URLs by TCP", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'coldtrace-socket-'));
    made.push(dataDir);
    const cluster = await startEmbeddedPostgres({
      dataDir,
      port: 17433 + Math.floor(Math.random() * 1000),
      database: 'socket_test',
      log: quiet,
      persistent: false,
      unsafeFast: true,
    });
    /** The server's address as PostgreSQL sees the connection: null over a Unix socket. */
    const addressOf = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ a: string | null }>('SELECT inet_server_addr()::text AS a'))
          .rows[0]!.a;
      } finally {
        await client.end();
      }
    };
    try {
      expect(cluster.socketDir).toBe(path.join(dataDir, 'postgres'));
      expect(existsSync(path.join(cluster.socketDir!, `.s.PGSQL.${cluster.port}`))).toBe(true);
      expect(await addressOf(cluster.appUrl)).toBeNull();
      expect(await addressOf(cluster.ownerUrl)).toBeNull();
      expect(await addressOf(cluster.url)).toBeNull();
      expect(await addressOf(`${cluster.appBaseUrl}/socket_test`)).toMatch(/^127\.0\.0\.1/);
    } finally {
      await cluster.stop();
    }
  });

  it('a cluster folder too long for a socket address, or with a comma, is reached by TCP only', () => {
    expect(socketDirFor('/var/lib/coldtrace/postgres', 5433)).toBe('/var/lib/coldtrace/postgres');
    const long = `/srv/${'a'.repeat(90)}/postgres`;
    expect(socketDirFor(long, 5433)).toBeUndefined();
    expect(socketDirFor('/srv/a,b/postgres', 5433)).toBeUndefined();
  });
});
