import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import { readCounts } from './counts';
import { assertFresh } from './folders';
import { checksumFolder, MANIFEST_FORMAT, writeManifest, type Manifest } from './manifest';

/**
 * `npm run backup -- --manifest-only --to DIR`: only the counts, for an
 * operator who backs up their own PostgreSQL (DATABASE_URL) with pg_basebackup
 * or pg_dump. Run it right BEFORE that backup starts: every row counted here
 * is then in the backup, so the restored database must hold at least as many
 * (`npm run verify-backup -- --against DIR`).
 */
export async function writeCountsManifest(url: string, to: string): Promise<Manifest> {
  await assertFresh(to, 'The backup folder');
  await mkdir(to, { recursive: true });
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const startedAt = new Date().toISOString();
    const { rows } = await client.query<{ version: string; database: string }>(
      "SELECT current_setting('server_version') AS version, current_database() AS database",
    );
    const counts = await readCounts(client);
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      kind: 'counts-only',
      startedAt,
      finishedAt: new Date().toISOString(),
      serverVersion: rows[0]!.version,
      database: rows[0]!.database,
      // One reading: the lower bound, and what the database held at that instant.
      counts: { atLeast: counts, atStop: counts },
      files: await checksumFolder(to),
    };
    await writeManifest(to, manifest);
    return manifest;
  } finally {
    await client.end();
  }
}
