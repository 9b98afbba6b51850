import { readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Trap 3 of design/stack-notes.md: a PostgreSQL left running, or its lock
 * files left behind, by a killed previous run of the embedded PostgreSQL.
 */

/** What this file logs through (the embedded PostgreSQL's logger). */
interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * The pid file and the Unix socket's lock file (and socket) a dead postmaster
 * left: PostgreSQL refuses to start while a lock file names a live process,
 * and after a reboot that pid may be another program's.
 */
async function removeStaleLocks(clusterDir: string, pidFile: string): Promise<void> {
  await rm(pidFile, { force: true });
  for (const name of await readdir(clusterDir).catch(() => [] as string[])) {
    if (/^\.s\.PGSQL\.\d+(\.lock)?$/.test(name)) {
      await rm(path.join(clusterDir, name), { force: true });
    }
  }
}

/**
 * Before starting the cluster in `clusterDir`: the pid file of a PostgreSQL no
 * longer running is removed (with its socket's lock), an orphaned PostgreSQL
 * is stopped, and one that belongs to a running server is refused.
 */
export async function handleStalePostmaster(clusterDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    log.info(`removing the stale ${pidFile} of a PostgreSQL that is no longer running`);
    await removeStaleLocks(clusterDir, pidFile);
    return;
  }
  const cmdline = await readProc(pid, 'cmdline');
  if (cmdline !== undefined && !cmdline.includes('postgres')) {
    log.info(`removing ${pidFile}: process ${pid} is not PostgreSQL any more`);
    await removeStaleLocks(clusterDir, pidFile);
    return;
  }
  const ppid = await parentPid(pid);
  if (ppid !== undefined && ppid > 1 && isAlive(ppid)) {
    const parentCmd = (await readProc(ppid, 'cmdline')) ?? '';
    if (parentCmd.includes('node')) {
      throw new Error(
        `The PostgreSQL in ${clusterDir} (pid ${pid}) belongs to another running server ` +
          `(pid ${ppid}). Stop that server first, or use another DATA_DIR.`,
      );
    }
  }
  log.warn(
    `stopping the orphaned PostgreSQL (pid ${pid}) that a previous run left behind in ${clusterDir}`,
  );
  try {
    process.kill(pid, 'SIGINT');
  } catch (err) {
    throw new Error(
      `A PostgreSQL (pid ${pid}) is still running on ${clusterDir} and cannot be stopped ` +
        `(${(err as Error).message}). Stop it by hand: kill -INT ${pid}`,
      { cause: err },
    );
  }
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (!isAlive(pid)) return;
    await sleep(100);
  }
  throw new Error(
    `The orphaned PostgreSQL (pid ${pid}) did not stop within 20 s: kill -INT ${pid}`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (exited, not reaped: init here may not reap) is not running. No /proc: trust kill(0).
  const procStat = readProcSync(pid);
  return !(procStat !== undefined && /\)\s+Z\s/.test(procStat));
}

function readProcSync(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
}

async function readProc(pid: number, file: 'cmdline' | 'status'): Promise<string | undefined> {
  try {
    return (await readFile(`/proc/${pid}/${file}`, 'utf8')).replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

async function parentPid(pid: number): Promise<number | undefined> {
  const status = await readProc(pid, 'status');
  const m = status?.match(/^PPid:\s+(\d+)/m);
  return m ? Number(m[1]) : undefined;
}
