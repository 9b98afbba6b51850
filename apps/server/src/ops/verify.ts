import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { COUNT_LABELS, readCounts, type Counts } from './counts';
import type { Manifest } from './manifest';
import { RESTORED_FROM_FILE } from './restore';

/**
 * Check a database against a backup's manifest: each count must be at least
 * the manifest's `atLeast` figure (read right after pg_backup_start, or before
 * the operator's own backup began), else rows the backup promised are missing.
 * More than the `atStop` figure is expected after a point-in-time restore past
 * the backup's end and is reported as a note, not a failure.
 */

export interface CountRow {
  name: keyof Counts;
  atLeast: number;
  atStop: number;
  actual: number;
  status: 'ok' | 'MISSING ROWS' | 'ok (more: later writes)';
}

export function compareCounts(actual: Counts, manifest: Manifest): CountRow[] {
  return (Object.keys(COUNT_LABELS) as (keyof Counts)[]).map((name) => {
    const atLeast = manifest.counts.atLeast[name];
    const atStop = manifest.counts.atStop[name];
    const value = actual[name];
    const status =
      value < atLeast ? 'MISSING ROWS' : value > atStop ? 'ok (more: later writes)' : 'ok';
    return { name, atLeast, atStop, actual: value, status };
  });
}

export const countsMatch = (rows: CountRow[]) => rows.every((r) => r.status !== 'MISSING ROWS');

/** A plain-text table, one line per count. */
export function formatCountTable(rows: CountRow[]): string {
  const header = ['', 'backup: at least', 'backup: at end', 'this database', ''];
  const lines = rows.map((r) => [
    COUNT_LABELS[r.name],
    String(r.atLeast),
    String(r.atStop),
    String(r.actual),
    r.status,
  ]);
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i]!.length)));
  const format = (l: string[]) =>
    l
      .map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [format(header), ...lines.map(format)].join('\n');
}

/** The counts of the database at `url`. */
export async function countsOf(url: string): Promise<Counts> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await readCounts(client);
  } finally {
    await client.end();
  }
}

/** The manifest a restore left in DATA_DIR (restored-from.json), if any. */
export async function restoredFromManifest(dataDir: string): Promise<Manifest | undefined> {
  const file = path.join(dataDir, RESTORED_FROM_FILE);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(await readFile(file, 'utf8')) as { manifest: Manifest }).manifest;
}
