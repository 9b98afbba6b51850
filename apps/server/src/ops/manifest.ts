import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Counts } from './counts';

/**
 * `manifest.json`, written last into a backup folder: what was backed up, when,
 * the counts to check a restore against, and a sha256 of every file so a copy
 * of the folder (on tape, in a bucket) can be checked before it is needed.
 */

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'coldtrace-backup/1';

export interface FileChecksum {
  /** Relative to the backup folder, with forward slashes. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /**
   * `embedded-base-backup`: a copy of DATA_DIR made by `npm run backup`.
   * `counts-only`: just the counts (`--manifest-only`), to sit beside the
   * operator's own pg_basebackup or pg_dump of an external PostgreSQL.
   */
  kind: 'embedded-base-backup' | 'counts-only';
  startedAt: string;
  finishedAt: string;
  /** PostgreSQL's `server_version` (a backup restores only on the same major version). */
  serverVersion: string;
  database: string;
  /** Base backups only: the WAL range the copy needs (pg_backup_start / pg_backup_stop). */
  wal?: {
    startLsn: string;
    stopLsn: string;
    /** When pg_backup_stop returned: a point-in-time restore targets a later instant. */
    stoppedAt: string;
    timeline: number;
    /** Segment files copied into the backup's pg_wal, first to last. */
    segments: string[];
    /** BACKUP_WAL_DIR when the backup was taken (archiving on), for point-in-time restore. */
    archiveDir: string | undefined;
  };
  counts: {
    /**
     * Read right after pg_backup_start: every transaction these rows come from
     * committed before the backup's stop point, so a restored database holds at
     * least this many of each (verify checks `>=`).
     */
    atLeast: Counts;
    /**
     * Read right after pg_backup_stop: about what the database held as the backup
     * ended. A restore without a target time stops replaying at the backup's stop
     * point, so it shows these give or take the transactions that committed in the
     * moment between that point and this reading: verify reports the difference,
     * it does not fail on it.
     */
    atStop: Counts;
  };
  files: FileChecksum[];
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await writeFile(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
}

export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`${file} not found: is ${dir} a backup folder made by npm run backup?`);
  }
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new Error(`${file} is not a Coldtrace backup manifest (format ${manifest.format})`);
  }
  return manifest;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `dir` (relative paths, sorted), the manifest itself left out. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((p) => p !== MANIFEST_FILE)
    .sort();
}

export async function checksumFolder(dir: string): Promise<FileChecksum[]> {
  const out: FileChecksum[] = [];
  for (const rel of await listFiles(dir)) {
    const full = path.join(dir, rel);
    const { size } = await stat(full);
    out.push({ path: rel, bytes: size, sha256: await sha256Of(full) });
  }
  return out;
}

export interface ChecksumProblem {
  path: string;
  problem: 'missing' | 'changed' | 'unexpected';
}

/** Compare a backup folder with its manifest's checksums: missing, changed and extra files. */
export async function checkFolder(dir: string, manifest: Manifest): Promise<ChecksumProblem[]> {
  const problems: ChecksumProblem[] = [];
  const present = new Set(await listFiles(dir));
  for (const f of manifest.files) {
    if (!present.has(f.path)) {
      problems.push({ path: f.path, problem: 'missing' });
      continue;
    }
    present.delete(f.path);
    if ((await sha256Of(path.join(dir, f.path))) !== f.sha256) {
      problems.push({ path: f.path, problem: 'changed' });
    }
  }
  for (const extra of present) problems.push({ path: extra, problem: 'unexpected' });
  return problems;
}
