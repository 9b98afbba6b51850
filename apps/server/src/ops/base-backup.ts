import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { readCounts, type Counts } from './counts';
import { assertFresh } from './folders';
import { clusterDirOf, connectEmbedded, EMBEDDED_DATABASE } from './locate';
import { checksumFolder, writeManifest, type Manifest } from './manifest';
import { parseSize, segmentRange, timelineOf } from './wal-segments';

/**
 * An online base backup of the embedded PostgreSQL with its own low-level API
 * (PostgreSQL manual, "Making a Base Backup Using the Low Level API"), while
 * the server keeps running and writing:
 *
 *   1. one session creates a temporary replication slot (WAL retention, below)
 *      and calls pg_backup_start (a checkpoint; full-page writes forced on);
 *   2. the files of the cluster folder are copied as they are: pages changed
 *      meanwhile are torn or stale in the copy, and the WAL replayed at the
 *      first start of a restore repairs them;
 *   3. pg_backup_stop ends the backup: its label file becomes the copy's
 *      `backup_label` (where replay starts), its tablespace map `tablespace_map`;
 *   4. the WAL segments from the start to the stop point are copied into the
 *      copy's pg_wal, so the backup restores on its own, with no archive.
 *
 * WAL retention: PostgreSQL may recycle WAL segments at any checkpoint, also
 * during a backup. The temporary physical replication slot (what pg_basebackup
 * uses) keeps every segment from before pg_backup_start until this session
 * ends, however long the copy takes and whatever max_wal_size says; it is
 * dropped by PostgreSQL even if this tool dies. With BACKUP_WAL_DIR the
 * archive is the second source of the segments.
 *
 * The rest of DATA_DIR (the role passwords, the secret key) is copied too: a
 * restored folder then starts with `npm start` as it is. The backup therefore
 * holds secrets: it is written 0600 / 0700, keep it like the data folder.
 */

/** What the copy leaves out, by name at the cluster's top level (manual: "Backing Up the Data Directory"). */
const SKIPPED_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
]);
/** Folders copied empty: their contents are rebuilt at start-up, or are WAL (copied in step 4). */
const EMPTIED_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);

export interface BaseBackupOptions {
  /** DATA_DIR of the server: the cluster is `dataDir/postgres`. */
  dataDir: string;
  /** The backup folder; must not exist or be empty. */
  to: string;
  /** BACKUP_WAL_DIR, if archiving is on (a second source of WAL segments). */
  walArchiveDir?: string | undefined;
  /** First port to try when the server is not running and the backup starts PostgreSQL itself. */
  port?: number | undefined;
  log?: (message: string) => void;
}

export interface BaseBackupResult {
  manifest: Manifest;
  /** Total bytes written (all files). */
  bytes: number;
  milliseconds: number;
}

export async function takeBaseBackup(opts: BaseBackupOptions): Promise<BaseBackupResult> {
  const log = opts.log ?? (() => undefined);
  const began = Date.now();
  await assertFresh(opts.to, 'The backup folder');
  const copyRoot = path.join(opts.to, 'data');
  const clusterCopy = clusterDirOf(copyRoot);
  await mkdir(clusterCopy, { recursive: true, mode: 0o700 });
  await chmod(opts.to, 0o700);

  const conn = await connectEmbedded(opts.dataDir, {
    walArchiveDir: opts.walArchiveDir,
    port: opts.port,
  });
  const client = new pg.Client({ connectionString: conn.url });
  client.on('error', () => undefined);
  let manifest: Omit<Manifest, 'files' | 'finishedAt'>;
  try {
    await client.connect();
    manifest = await backupSession(client, opts, clusterCopy, log);
  } finally {
    await client.end().catch(() => undefined);
    await conn.release();
  }

  await copyDataDirFiles(opts.dataDir, copyRoot);
  log('computing checksums');
  const files = await checksumFolder(opts.to);
  const full: Manifest = { ...manifest, finishedAt: new Date().toISOString(), files };
  await writeManifest(opts.to, full);
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  return { manifest: full, bytes, milliseconds: Date.now() - began };
}

/** Steps 1 to 4, in the one session the non-exclusive backup belongs to. */
async function backupSession(
  client: pg.Client,
  opts: BaseBackupOptions,
  clusterCopy: string,
  log: (m: string) => void,
): Promise<Omit<Manifest, 'files' | 'finishedAt'>> {
  const serverVersion = await setting(client, 'server_version');
  const archiving = (await setting(client, 'archive_mode')) !== 'off';
  const segmentBytes = parseSize(await setting(client, 'wal_segment_size'));
  const slot = `coldtrace_backup_${randomBytes(4).toString('hex')}`;
  // Temporary (dropped when the session ends), WAL reserved from now on.
  await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot]);

  const startedAt = new Date().toISOString();
  const label = `coldtrace ${startedAt}`;
  log('pg_backup_start (checkpoint)');
  const start = await client.query<{ lsn: string }>(
    'SELECT pg_backup_start($1, fast => true)::text AS lsn',
    [label],
  );
  // Transactions these rows come from committed before this point, so before the stop point:
  // a restore holds at least this many (manifest.ts).
  const atLeast = await readCounts(client);

  log('copying the cluster files');
  await copyCluster(clusterDirOf(opts.dataDir), clusterCopy);

  log('pg_backup_stop');
  // Not waiting for the archive inside pg_backup_stop: the counts at the end are read at
  // once, close to the end of the backup's WAL, and the archive is waited for below.
  const stop = await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
    'SELECT lsn::text AS lsn, labelfile, spcmapfile FROM pg_backup_stop(wait_for_archive => false)',
  );
  const stoppedAt = new Date().toISOString();
  const atStop: Counts = await readCounts(client);
  const { lsn: stopLsn, labelfile, spcmapfile } = stop.rows[0]!;
  await writeFile(path.join(clusterCopy, 'backup_label'), labelfile, { mode: 0o600 });
  if (spcmapfile) {
    await writeFile(path.join(clusterCopy, 'tablespace_map'), spcmapfile, { mode: 0o600 });
  }

  const firstSegment = startSegmentOf(labelfile);
  const lastSegment = (
    await client.query<{ name: string }>('SELECT pg_walfile_name($1::pg_lsn) AS name', [stopLsn])
  ).rows[0]!.name;
  const segments = segmentRange(firstSegment, lastSegment, segmentBytes);
  log(`copying ${segments.length} WAL segment(s) ${firstSegment} .. ${lastSegment}`);
  await copyWal(clusterDirOf(opts.dataDir), clusterCopy, segments, opts.walArchiveDir);
  await client.query('SELECT pg_drop_replication_slot($1)', [slot]);
  // With archiving, the backup is done once the archive holds its WAL too (what
  // wait_for_archive would have waited for): a point-in-time restore starts from there.
  if (archiving) await waitForArchive(client, lastSegment, log);

  return {
    format: 'coldtrace-backup/1',
    kind: 'embedded-base-backup',
    startedAt,
    serverVersion,
    database: EMBEDDED_DATABASE,
    wal: {
      startLsn: start.rows[0]!.lsn,
      stopLsn,
      stoppedAt,
      timeline: timelineOf(firstSegment),
      segments,
      archiveDir: archiving ? opts.walArchiveDir : undefined,
    },
    counts: { atLeast, atStop },
  };
}

/** Until PostgreSQL's archiver reports `segment` (or a later one) archived; at most 60 s. */
async function waitForArchive(client: pg.Client, segment: string, log: (m: string) => void) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await client.query<{ last: string | null; failed: string | null }>(
      'SELECT last_archived_wal AS last, last_failed_wal AS failed FROM pg_stat_archiver',
    );
    // Same timeline: names sort as the segments do (fixed-width hex).
    if ((rows[0]!.last ?? '') >= segment) return;
    if (Date.now() > deadline) {
      log(
        `warning: WAL segment ${segment} is not archived yet (last failure: ` +
          `${rows[0]!.failed ?? 'none'}); the backup itself is complete, check archive_command`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function setting(client: pg.Client, name: string): Promise<string> {
  const { rows } = await client.query<{ value: string }>('SELECT current_setting($1) AS value', [
    name,
  ]);
  return rows[0]!.value;
}

/** The segment replay starts in: `START WAL LOCATION: 0/2000028 (file 000000010000000000000002)`. */
function startSegmentOf(labelfile: string): string {
  const m = /^START WAL LOCATION: \S+ \(file ([0-9A-F]{24})\)/m.exec(labelfile);
  if (!m) throw new Error(`unexpected backup label:\n${labelfile}`);
  return m[1]!;
}

/**
 * Copy the cluster folder, skipping what the manual says to skip. Files may
 * vanish while we walk (a dropped table, a finished temporary file): skipped.
 */
async function copyCluster(from: string, to: string, top = true): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const name = entry.name;
    const src = path.join(from, name);
    const dst = path.join(to, name);
    if (top && SKIPPED_FILES.has(name)) continue;
    // The Unix socket and its lock file live in the cluster folder (db/embedded.ts).
    if (name.startsWith('.s.PGSQL.')) continue;
    if (name === 'pg_internal.init' || name.startsWith('pgsql_tmp')) continue;
    if (entry.isSymbolicLink()) {
      throw new Error(`${src} is a symbolic link (a tablespace?): not supported by this backup`);
    }
    if (entry.isDirectory()) {
      await mkdir(dst, { mode: 0o700 });
      if (top && EMPTIED_DIRS.has(name)) continue;
      await copyCluster(src, dst, false);
    } else if (entry.isFile()) {
      await copyIfStillThere(src, dst);
    }
  }
}

async function copyIfStillThere(src: string, dst: string): Promise<boolean> {
  try {
    await copyFile(src, dst);
    await chmod(dst, 0o600);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Step 4: each segment from pg_wal, else from the archive; a missing one fails the backup. */
async function copyWal(
  clusterDir: string,
  clusterCopy: string,
  segments: string[],
  archiveDir: string | undefined,
): Promise<void> {
  const walCopy = path.join(clusterCopy, 'pg_wal');
  await mkdir(path.join(walCopy, 'archive_status'), { recursive: true, mode: 0o700 });
  // Timeline history files (a server restored before is on timeline 2 or later): small,
  // and what a later point-in-time restore reads to follow the timelines.
  for (const name of await readdir(path.join(clusterDir, 'pg_wal'))) {
    if (name.endsWith('.history')) {
      await copyIfStillThere(path.join(clusterDir, 'pg_wal', name), path.join(walCopy, name));
    }
  }
  for (const segment of segments) {
    const dst = path.join(walCopy, segment);
    if (await copyIfStillThere(path.join(clusterDir, 'pg_wal', segment), dst)) continue;
    if (archiveDir && (await copyIfStillThere(path.join(archiveDir, segment), dst))) continue;
    throw new Error(
      `WAL segment ${segment} is gone from pg_wal${archiveDir ? ' and the archive' : ''}: ` +
        'the backup is incomplete. Run it again.',
    );
  }
}

/** The rest of DATA_DIR (passwords, secret key): everything but the cluster folder. */
async function copyDataDirFiles(dataDir: string, copyRoot: string): Promise<void> {
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    if (entry.name === 'postgres') continue;
    const src = path.join(dataDir, entry.name);
    if (!existsSync(src)) continue;
    await cp(src, path.join(copyRoot, entry.name), { recursive: true });
    if ((await stat(src)).isFile()) await chmod(path.join(copyRoot, entry.name), 0o600);
  }
}
