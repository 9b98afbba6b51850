import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { assertFresh } from './folders';
import { clusterDirOf } from './locate';
import { checkFolder, readManifest, type Manifest } from './manifest';

/**
 * Restore a backup made by `takeBaseBackup` into a fresh DATA_DIR, so that
 * `npm start` (embedded PostgreSQL) runs on it. Nothing is overwritten: a
 * non-empty target folder is refused.
 *
 * Both ways the copy is restored as an archive recovery (`recovery.signal`,
 * settings appended to the copy's postgresql.auto.conf), ending in a
 * promotion to a new timeline: the restored server's WAL then never takes the
 * names of the original server's segments, should both archive into the same
 * BACKUP_WAL_DIR (a restore without recovery.signal would go on, on the old
 * timeline, as if it were the original).
 *
 * - Without a target time: `recovery_target = 'immediate'`. PostgreSQL replays
 *   the WAL the backup carries in its own pg_wal up to the backup's stop point,
 *   where the copy is consistent, and opens the database as it was then.
 *   There is no archive to fetch from (`restore_command = 'false'`: every
 *   segment is looked for in pg_wal).
 * - With a target time (point-in-time recovery): `restore_command` copies later
 *   WAL from the archive (BACKUP_WAL_DIR) and `recovery_target_time` stops the
 *   replay at the first transaction that committed after that instant; with
 *   `latest` the replay goes to the end of the archive.
 */

/** `--target-time latest`: replay the whole archive (a restore after losing the server). */
export const LATEST = 'latest';

/** Written into the restored DATA_DIR: what it came from, for `npm run verify-backup`. */
export const RESTORED_FROM_FILE = 'restored-from.json';

export interface RestoreOptions {
  /** The backup folder (with manifest.json). */
  from: string;
  /** The new DATA_DIR; must not exist or be empty. */
  toDataDir: string;
  /**
   * ISO 8601 instant for point-in-time recovery, or `latest` (all the archive holds);
   * absent: the backup's own end.
   */
  targetTime?: string | undefined;
  /** The WAL archive (BACKUP_WAL_DIR); default: the one the manifest names. */
  walArchiveDir?: string | undefined;
  log?: (message: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  dataDir: string;
  targetTime: string | undefined;
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const log = opts.log ?? (() => undefined);
  const manifest = await readManifest(opts.from);
  if (manifest.kind !== 'embedded-base-backup' || !manifest.wal) {
    throw new Error(
      `${opts.from} holds only a counts manifest (--manifest-only): restore your own ` +
        'pg_basebackup / pg_dump, then run npm run verify-backup -- --against it',
    );
  }
  const archiveDir = opts.targetTime ? archiveFor(opts, manifest) : undefined;
  await assertFresh(opts.toDataDir, 'The target DATA_DIR');
  // Looked up before anything is copied, so a missing user leaves no half-made folder.
  const owner = userInfo().uid === 0 ? postgresUserIds() : undefined;

  // A damaged backup is found now, not at PostgreSQL's first start.
  log('checking the backup against its checksums');
  const problems = await checkFolder(opts.from, manifest);
  if (problems.length > 0) {
    const list = problems.map((p) => `  ${p.problem}: ${p.path}`).join('\n');
    throw new Error(`The backup in ${opts.from} does not match its manifest:\n${list}`);
  }

  log(`copying the backup into ${opts.toDataDir}`);
  await mkdir(opts.toDataDir, { recursive: true });
  for (const name of await readdir(path.join(opts.from, 'data'))) {
    await cp(path.join(opts.from, 'data', name), path.join(opts.toDataDir, name), {
      recursive: true,
    });
  }
  const clusterDir = clusterDirOf(opts.toDataDir);
  // PostgreSQL refuses a data folder others may read.
  await chmod(clusterDir, 0o700);

  await configureRecovery(clusterDir, opts.targetTime, archiveDir);
  await writeRestoredFrom(opts, manifest);
  if (owner) await chownTree(clusterDir, owner);
  return { manifest, dataDir: opts.toDataDir, targetTime: opts.targetTime };
}

/** What the restored folder came from (the manifest without its file list): verify reads it. */
async function writeRestoredFrom(opts: RestoreOptions, manifest: Manifest): Promise<void> {
  const record = {
    restoredAt: new Date().toISOString(),
    from: path.resolve(opts.from),
    targetTime: opts.targetTime ?? null,
    manifest: { ...manifest, files: [] },
  };
  await writeFile(
    path.join(opts.toDataDir, RESTORED_FROM_FILE),
    `${JSON.stringify(record, null, 2)}\n`,
    { mode: 0o600 },
  );
}

const RESTORE_COMMENT = '# Restore of a backup';
/** The lines an earlier restore wrote (settings and comment). */
const RECOVERY_LINE = /^\s*(restore_command|recovery_target\w*)\s*=|^# Restore of a backup/;

/** PostgreSQL's timestamptz input: ISO's 'T' and 'Z' are refused by recovery_target_time. */
const asPostgresTime = (iso: string) =>
  new Date(Date.parse(iso)).toISOString().replace('T', ' ').replace('Z', '+00');

/** The archive to replay from, checked, and the target time checked against the backup. */
function archiveFor(opts: RestoreOptions, manifest: Manifest): string {
  const target = opts.targetTime === LATEST ? Infinity : Date.parse(opts.targetTime!);
  if (Number.isNaN(target)) {
    throw new Error(`--target-time ${opts.targetTime} is not an ISO 8601 instant (nor 'latest')`);
  }
  // Before the stop point the copy is not yet consistent: PostgreSQL would refuse to open it.
  if (target < Date.parse(manifest.wal!.stoppedAt)) {
    throw new Error(
      `--target-time ${opts.targetTime} is before this backup ended (${manifest.wal!.stoppedAt}): ` +
        'restore an older backup for that instant',
    );
  }
  const dir = opts.walArchiveDir ?? manifest.wal!.archiveDir;
  if (!dir || !existsSync(dir)) {
    throw new Error(
      'A point-in-time restore needs the WAL archive (BACKUP_WAL_DIR)' +
        (dir ? `: ${dir} does not exist` : ': give it with --wal-dir'),
    );
  }
  if (dir.includes('"')) throw new Error(`the WAL archive path must not contain a quote: ${dir}`);
  return path.resolve(dir);
}

async function configureRecovery(
  clusterDir: string,
  targetTime: string | undefined,
  archiveDir: string | undefined,
): Promise<void> {
  // No target at all with `latest`: PostgreSQL replays every segment the archive holds.
  const target =
    targetTime === undefined
      ? `recovery_target = 'immediate'`
      : targetTime === LATEST
        ? '# Restore of a backup: no recovery target, to the end of the archive'
        : `recovery_target_time = '${asPostgresTime(targetTime)}'`;
  const restoreCommand = archiveDir ? `cp "${archiveDir}/%f" "%p"` : 'false';
  const conf = path.join(clusterDir, 'postgresql.auto.conf');
  // A backup of a restored server carries the earlier restore's lines: PostgreSQL refuses
  // two recovery targets, so they go before the new ones are written.
  const kept = (await readFile(conf, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => !RECOVERY_LINE.test(line));
  const lines = [
    `${RESTORE_COMMENT} (npm run restore, ${new Date().toISOString()}); inert once recovery.signal is gone.`,
    `restore_command = '${restoreCommand}'`,
    target,
    `recovery_target_action = 'promote'`,
  ];
  while (kept.at(-1) === '') kept.pop();
  await writeFile(conf, `${[...kept, ...lines].join('\n')}\n`);
  await writeFile(path.join(clusterDir, 'recovery.signal'), '', { mode: 0o600 });
}

/** As root, PostgreSQL runs as the `postgres` system user (db/embedded.ts): the cluster must be its. */
function postgresUserIds(): { uid: number; gid: number } {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
    };
  } catch {
    throw new Error(
      'Running as root, but there is no `postgres` system user to own the restored cluster. ' +
        'Create it (useradd postgres) and run the restore again, or restore as a normal user.',
    );
  }
}

async function chownTree(dir: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(dir, owner.uid, owner.gid);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    await chown(path.join(entry.parentPath, entry.name), owner.uid, owner.gid);
  }
}
