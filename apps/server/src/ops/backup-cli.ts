import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { takeBaseBackup } from './base-backup';
import { writeCountsManifest } from './counts-manifest';
import { signingKeyFrom } from '../modules/evidence';
import { withSecretKey } from '../secret-key';
import { checkEvidence } from './evidence-check';
import { connectEmbedded } from './locate';
import { checkFolder, readManifest, type Manifest } from './manifest';
import { restoreBackup } from './restore';
import {
  compareCounts,
  countsMatch,
  countsOf,
  formatCountTable,
  restoredFromManifest,
} from './verify';

/**
 * npm run backup -- --to DIR [--manifest-only]
 * npm run restore -- --from DIR [--to-data-dir DIR] [--target-time ISO|latest] [--wal-dir DIR]
 * npm run verify-backup [-- --against DIR] [-- --backup DIR]
 * npm run verify-evidence [-- --org ID]
 *
 * The same environment as the server (DATA_DIR, DATABASE_URL, BACKUP_WAL_DIR):
 * run it from the server's folder with the server's settings. See docs/operations.md.
 */

const USAGE = `Usage:
  npm run backup -- --to DIR                 online base backup of the embedded database
  npm run backup -- --manifest-only --to DIR counts only (beside your own pg_basebackup / pg_dump)
  npm run restore -- --from DIR [--to-data-dir DIR] [--target-time ISO|latest] [--wal-dir DIR]
  npm run verify-backup [-- --against DIR]   counts of the database against a backup's manifest
  npm run verify-backup -- --backup DIR      checksums of a backup folder
  npm run verify-evidence [-- --org ID]      the evidence chain of every organization (or one)`;

const say = (m: string) => process.stderr.write(`${m}\n`);

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

class UsageError extends Error {}

async function backup(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { to: { type: 'string' }, 'manifest-only': { type: 'boolean' } },
  });
  if (!values.to) throw new UsageError('backup needs --to DIR');
  const to = path.resolve(values.to);
  const config = readConfig();
  if (values['manifest-only']) {
    const url = config.migrationDatabaseUrl ?? config.databaseUrl;
    const manifest = url
      ? await writeCountsManifest(url, to)
      : await withEmbedded(config, (u) => writeCountsManifest(u, to));
    say(`counts manifest written to ${to}/manifest.json`);
    printCounts(manifest);
    return 0;
  }
  if (config.databaseUrl) {
    throw new UsageError(
      'DATABASE_URL is set: back up your own PostgreSQL with pg_basebackup or pg_dump, and ' +
        'write the counts beside it with npm run backup -- --manifest-only --to DIR',
    );
  }
  const result = await takeBaseBackup({
    dataDir: config.dataDir,
    to,
    walArchiveDir: config.backupWalDir,
    port: config.embeddedPg.port,
    log: say,
  });
  const mb = (result.bytes / 1024 / 1024).toFixed(1);
  say(
    `backup written to ${to}: ${result.manifest.files.length} files, ${mb} MB, ` +
      `${(result.milliseconds / 1000).toFixed(1)} s, WAL ${result.manifest.wal!.startLsn} .. ${result.manifest.wal!.stopLsn}`,
  );
  printCounts(result.manifest);
  return 0;
}

async function restore(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      from: { type: 'string' },
      'to-data-dir': { type: 'string' },
      'target-time': { type: 'string' },
      'wal-dir': { type: 'string' },
    },
  });
  if (!values.from) throw new UsageError('restore needs --from DIR');
  const config = readConfig();
  const toDataDir = path.resolve(values['to-data-dir'] ?? config.dataDir);
  const result = await restoreBackup({
    from: path.resolve(values.from),
    toDataDir,
    targetTime: values['target-time'],
    walArchiveDir: values['wal-dir'] ?? config.backupWalDir,
    log: say,
  });
  say(
    `restored into ${toDataDir}` +
      (result.targetTime ? `, to replay up to ${result.targetTime}` : '') +
      '.\nNext: start the server on it (DATA_DIR=' +
      toDataDir +
      ' npm start) or check it first (DATA_DIR=' +
      toDataDir +
      ' npm run verify-backup).',
  );
  return 0;
}

async function verify(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { against: { type: 'string' }, backup: { type: 'string' } },
  });
  if (values.backup) return verifyChecksums(path.resolve(values.backup));
  const config = readConfig();
  const manifest = values.against
    ? await readManifest(path.resolve(values.against))
    : config.databaseUrl
      ? undefined
      : await restoredFromManifest(config.dataDir);
  if (!manifest) {
    throw new UsageError(
      'No manifest to compare with: give the backup folder with --against DIR ' +
        `(${config.dataDir} was not made by npm run restore)`,
    );
  }
  const { counts, evidence } = await withDatabase(config, async (url) => ({
    counts: await countsOf(url),
    evidence: await checkEvidence(url, await trustedKeys(config), (line) =>
      process.stdout.write(`${line}\n`),
    ),
  }));
  const rows = compareCounts(counts, manifest);
  process.stdout.write(`${formatCountTable(rows)}\n`);
  if (!countsMatch(rows)) {
    say('MISMATCH: this database holds fewer rows than the backup did.');
    return 1;
  }
  if (!evidence) {
    say('MISMATCH: the evidence chain does not verify (the lines marked BROKEN above).');
    return 1;
  }
  say(
    `OK: every count is at least the backup's (taken ${manifest.startedAt}), ` +
      'and the evidence chain of every organization verifies.',
  );
  return 0;
}

async function verifyEvidenceCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' } } });
  const config = readConfig();
  const keys = await trustedKeys(config);
  const ok = await withDatabase(config, (url) =>
    checkEvidence(url, keys, (line) => process.stdout.write(`${line}\n`), values.org),
  );
  say(ok ? 'OK: the evidence chain verifies.' : 'BROKEN: the evidence chain does not verify.');
  return ok ? 0 : 1;
}

/** The server's own signing key (from SECRET_KEY or DATA_DIR/secret_key): its anchors are trusted. */
async function trustedKeys(config: Config): Promise<string[]> {
  return [signingKeyFrom((await withSecretKey(config)).secretKey).publicKey];
}

/** The owner's database URL when given, else the embedded database of DATA_DIR. */
function withDatabase<T>(config: Config, work: (url: string) => Promise<T>): Promise<T> {
  const url = config.migrationDatabaseUrl ?? config.databaseUrl;
  return url ? work(url) : withEmbedded(config, work);
}

async function verifyChecksums(dir: string): Promise<number> {
  const manifest = await readManifest(dir);
  const problems = await checkFolder(dir, manifest);
  for (const p of problems) process.stdout.write(`${p.problem.padEnd(10)} ${p.path}\n`);
  if (problems.length > 0) {
    say(`MISMATCH: ${problems.length} file(s) of ${dir} differ from the manifest.`);
    return 1;
  }
  say(`OK: all ${manifest.files.length} files of ${dir} match their sha256.`);
  return 0;
}

async function withEmbedded<T>(config: Config, work: (url: string) => Promise<T>): Promise<T> {
  const conn = await connectEmbedded(config.dataDir, {
    walArchiveDir: config.backupWalDir,
    port: config.embeddedPg.port,
  });
  try {
    return await work(conn.url);
  } finally {
    await conn.release();
  }
}

function printCounts(manifest: Manifest): void {
  const c = manifest.counts.atLeast;
  process.stdout.write(
    `records ${c.records}, points ${c.points}, alarms ${c.alarms}, alarm signatures ` +
      `${c.alarmSignatures}, release decisions ${c.releaseDecisions}, audit entries ${c.auditEntries}\n`,
  );
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'backup':
      return backup(rest);
    case 'restore':
      return restore(rest);
    case 'verify':
      return verify(rest);
    case 'verify-evidence':
      return verifyEvidenceCommand(rest);
    default:
      throw new UsageError(`unknown command ${command ?? '(none)'}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) say(`${err.message}\n\n${USAGE}`);
    else say(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
