import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';
import { applyGrants, EMBEDDED_APP_ROLE } from '../src/db/roles';
import { users, tosAgreements } from '../src/db/schema';
import { readSeries } from '../src/kernel/series-store';
import { hashPassword } from '../src/modules/identity/auth/passwords';
import { findActiveTerms } from '../src/modules/legal/repository';
import { createOrganization, setMembership } from '../src/modules/orgs/repository';
import { takeBaseBackup, type BaseBackupResult } from '../src/ops/base-backup';
import { checkFolder, MANIFEST_FILE, type Manifest } from '../src/ops/manifest';
import { restoreBackup } from '../src/ops/restore';
import { compareCounts, countsMatch, countsOf, formatCountTable } from '../src/ops/verify';
import { TEST_PASSWORD, TestClient, testConfig, uid } from './helpers';
import { scannedShipment, stoppedShipment } from './shipment-factories';

/**
 * The restore drill (issue 36): a server on its own embedded PostgreSQL (WAL
 * archiving on) ingests xt1 scans without pause; an online backup is taken in
 * the middle; the backup is restored into new folders, once as it is and once
 * to an instant a few seconds after it (point-in-time, from the archive); every
 * upload acknowledged before the backup (resp. that instant) must be there,
 * its stored series identical, with the alarms, signatures, release decision
 * and audit entries made before it; the counts verify against the manifest.
 */

const XT1 = '/api/devices/xt1';
const DATABASE = 'coldtrace';
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
/** High 8, low 2: one excursion above and one below (two alarms). */
const EXCURSIONS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];
const POINTS_PER_UPLOAD = 300;

interface Ack {
  recordId: string;
  temps: number[];
  /** When the HTTP 200 of the scan arrived. */
  at: number;
}

/** A user in `orgId` (or a new organization) with a signed-in client of `app`. */
async function signedIn(app: FastifyInstance, db: Database, orgId?: string) {
  const organizationId = orgId ?? (await createOrganization(db, `Drill ${uid()}`)).organization.id;
  const username = `drill_${uid()}`;
  const [row] = await db
    .insert(users)
    .values({
      username,
      email: `${username}@example.test`,
      firstName: 'Drill',
      lastName: 'Operator',
      passwordHash: await hashPassword(TEST_PASSWORD, { memoryCost: 256, timeCost: 1 }),
    })
    .returning();
  await setMembership(db, row!.id, organizationId, 'Administrator');
  const terms = await findActiveTerms(db);
  if (terms) await db.insert(tosAgreements).values({ userId: row!.id, tosId: terms.id });
  const client = new TestClient(app);
  const res = await client.login(username, TEST_PASSWORD);
  if (res.statusCode !== 200) throw new Error(`login: ${res.statusCode} ${res.body}`);
  return { client, organizationId };
}

/** A migrated database as the server prepares it, and the app on it. */
async function appOn(cluster: EmbeddedPostgresHandle, migrate: boolean) {
  if (migrate) {
    const owner = openDatabase(cluster.ownerUrl, { max: 1 });
    await runMigrations(owner.db);
    await applyGrants(owner.db, EMBEDDED_APP_ROLE);
    await owner.close();
  }
  const handle = openDatabase(cluster.appUrl, { max: 6 });
  const app = await buildApp({
    config: testConfig(),
    db: handle.db,
    jobs: { pollingIntervalSeconds: 0.5 },
  });
  await app.ready();
  return { app, handle };
}

/** Rows of a query as JSON text, to compare two databases exactly. */
async function rowsOf(url: string, query: string, params: unknown[] = []): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ j: string }>(
      `SELECT row_to_json(t)::text AS j FROM (${query}) t`,
      params,
    );
    return rows.map((r) => r.j);
  } finally {
    await client.end();
  }
}

/** The stored chunks of a record as PostgreSQL prints them: byte for byte. */
const chunksOf = (url: string, recordId: string) =>
  rowsOf(
    url,
    'SELECT chunk_no, temps::text AS temps FROM record_series_chunks WHERE record_id = $1 ORDER BY chunk_no',
    [Number(recordId)],
  );

/**
 * Each record `url` holds, compared with the same record in `originUrl`: its
 * stored series is identical, or still empty (the record's start was uploaded
 * before the restore point, its one scan after). Never a part of an upload.
 */
async function sameSeriesAsOrigin(url: string, originUrl: string) {
  const query =
    'SELECT r.id, r.number_of_points, ' +
    "coalesce(string_agg(c.temps::text, '|' ORDER BY c.chunk_no), '') AS series " +
    'FROM records r LEFT JOIN record_series_chunks c ON c.record_id = r.id ' +
    'WHERE r.id = ANY($1::bigint[]) GROUP BY r.id ORDER BY r.id';
  type Row = { id: number; number_of_points: number; series: string };
  const ids = (await rowsOf(url, 'SELECT id FROM records')).map(
    (r) => (JSON.parse(r) as { id: number }).id,
  );
  const parse = (rows: string[]) => rows.map((r) => JSON.parse(r) as Row);
  const restored = parse(await rowsOf(url, query, [ids]));
  const original = new Map(parse(await rowsOf(originUrl, query, [ids])).map((r) => [r.id, r]));
  let whole = 0;
  for (const row of restored) {
    if (row.series === '') {
      expect(row.number_of_points, `record ${row.id}`).toBe(0);
      continue;
    }
    expect(row, `record ${row.id}`).toEqual(original.get(row.id));
    whole += 1;
  }
  return { records: restored.length, whole };
}

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** `npm run verify-backup -- ...args` with DATA_DIR=`dataDir`: its exit code and output. */
async function verifyCli(dataDir: string, ...args: string[]) {
  const run = promisify(execFile);
  try {
    const { stdout, stderr } = await run(
      path.join(REPO, 'node_modules/.bin/tsx'),
      ['apps/server/src/ops/backup-cli.ts', 'verify', ...args],
      { cwd: REPO, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
    );
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('restore drill [FEAT-BACKUP-RESTORE]', () => {
  let root: string;
  let origin: EmbeddedPostgresHandle;
  const clusters: EmbeddedPostgresHandle[] = [];
  const handles: DatabaseHandle[] = [];
  const apps: FastifyInstance[] = [];
  const port = 26000 + Math.floor(Math.random() * 2000);
  const acks: Ack[] = [];
  let excursionRecordId: string;
  let manager: TestClient;
  let backupStartedAt: number;
  let backup: BaseBackupResult;
  let targetInstant: number;

  const dirs = () => ({
    data: path.join(root, 'data'),
    wal: path.join(root, 'wal'),
    backup: path.join(root, 'backup'),
    restored: path.join(root, 'restored'),
    pitr: path.join(root, 'pitr'),
    latest: path.join(root, 'latest'),
  });

  const startOn = async (dataDir: string, at: number, walArchiveDir?: string) => {
    const cluster = await startEmbeddedPostgres({
      dataDir,
      port: at,
      database: DATABASE,
      log: quiet,
      unsafeFast: true,
      walArchiveDir,
    });
    clusters.push(cluster);
    return cluster;
  };

  beforeAll(async () => {
    root = await mkdtemp('/tmp/bk-drill-');
    // As root PostgreSQL runs as `postgres`, which must get through to the folders.
    await chmod(root, 0o755);
    origin = await startOn(dirs().data, port, dirs().wal);
    const { app, handle } = await appOn(origin, true);
    apps.push(app);
    handles.push(handle);
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    for (const cluster of clusters) await cluster.stop();
    if (root && !process.env.DRILL_KEEP) await rm(root, { recursive: true, force: true });
  });

  it('takes an online backup while two clients keep uploading', async () => {
    const [app] = apps;
    const db = handles[0]!.db;
    ({ client: manager } = await signedIn(app!, db));
    const { client: second } = await signedIn(app!, db);

    // Alarms, their signed acknowledgement, a signed release decision, and their audit entries.
    excursionRecordId = (await stoppedShipment(manager, EXCURSIONS, 'DRX')).recordId;
    const ack = await manager.post(`${XT1}/alarm-acknowledge/`, {
      record_ids: [excursionRecordId],
      comment: 'Reviewed in the drill',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(ack.statusCode, ack.body).toBe(200);
    const release = await manager.post(`${XT1}/records/disposition/`, {
      password: TEST_PASSWORD,
      record_id: excursionRecordId,
      decision: 'RELEASED',
      comment: 'Excursions within the stability budget',
    });
    expect(release.statusCode, release.body).toBe(200);

    // Two uploaders that never pause: each upload a new shipment of 300 points.
    let stop = false;
    const uploader = async (client: TestClient, offset: number) => {
      for (let i = 0; !stop; i++) {
        const temps = Array.from(
          { length: POINTS_PER_UPLOAD },
          (_, k) => 3 + ((offset + i * 7 + k) % 40) / 10,
        );
        const { recordId } = await scannedShipment(client, temps, 'DRL');
        acks.push({ recordId, temps, at: Date.now() });
      }
    };
    const uploading = Promise.all([uploader(manager, 0), uploader(second, 13)]);
    // A failed upload is reported where `uploading` is awaited, not as an unhandled rejection.
    uploading.catch(() => undefined);
    await until('uploads before the backup', () => acks.length >= 10);

    // An upload acknowledged in this same millisecond was acknowledged before the backup's
    // pg_backup_start, which comes later: "before" is `at <= backupStartedAt`.
    backupStartedAt = Date.now();
    backup = await takeBaseBackup({
      dataDir: dirs().data,
      to: dirs().backup,
      walArchiveDir: dirs().wal,
    });
    const duringBackup = acks.filter((a) => a.at > backupStartedAt).length;

    // Some uploads acknowledged after the backup, then the instant to restore to, then more.
    const afterBackup = acks.length;
    await until('uploads after the backup', () => acks.length >= afterBackup + 10);
    targetInstant = Date.now();
    const beforeTarget = acks.length;
    await until('uploads after the target instant', () => acks.length >= beforeTarget + 5);
    stop = true;
    await uploading;

    // Close the WAL segment holding the target instant and wait until it is archived.
    const admin = new pg.Client({ connectionString: origin.url });
    await admin.connect();
    const switched = (
      await admin.query<{ name: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS name')
    ).rows[0]!.name;
    await until('the WAL archive', async () => {
      const { rows } = await admin.query<{ last: string | null }>(
        'SELECT last_archived_wal AS last FROM pg_stat_archiver',
      );
      return (rows[0]!.last ?? '') >= switched;
    });
    await admin.end();

    const m = backup.manifest;
    console.info(
      `drill: backup ${(backup.milliseconds / 1000).toFixed(1)} s, ${m.files.length} files, ` +
        `${(backup.bytes / 1024 / 1024).toFixed(1)} MB, ${m.wal!.segments.length} WAL segment(s); ` +
        `${acks.filter((a) => a.at <= backupStartedAt).length} uploads before it, ${duringBackup} during, ` +
        `${acks.length} in all; counts at start ${JSON.stringify(m.counts.atLeast)}`,
    );
    expect(duringBackup, 'uploads went on during the backup').toBeGreaterThan(0);
    expect(await checkFolder(dirs().backup, m)).toEqual([]);
  }, 90_000);

  it('a restore of the backup holds every upload acknowledged before it, byte for byte', async () => {
    const restoredFrom = await restoreBackup({ from: dirs().backup, toDataDir: dirs().restored });
    expect(restoredFrom.manifest.wal?.stopLsn).toBe(backup.manifest.wal?.stopLsn);
    // A second restore into the same, now full, folder is refused.
    await expect(
      restoreBackup({ from: dirs().backup, toDataDir: dirs().restored }),
    ).rejects.toThrow(/not empty/);

    const restored = await startOn(dirs().restored, port + 100);
    const before = acks.filter((a) => a.at <= backupStartedAt);
    expect(before.length).toBeGreaterThanOrEqual(10);
    const { app, handle } = await appOn(restored, false);
    apps.push(app);
    handles.push(handle);
    for (const upload of before) {
      expect(await chunksOf(restored.url, upload.recordId)).toEqual(
        await chunksOf(origin.url, upload.recordId),
      );
      const series = await readSeries(handle.db, Number(upload.recordId));
      expect(series).toEqual(upload.temps);
    }

    // Also the uploads that were going on during the backup: each record it holds is whole.
    const { records, whole } = await sameSeriesAsOrigin(restored.url, origin.url);
    console.info(
      `drill: restored ${records} records, ${whole} with a series identical to the original's, ` +
        `the others not yet scanned at the restore point`,
    );

    // The excursion's alarms, signatures, release decision and audit entries, row for row.
    const evidence = [
      'SELECT * FROM alarms WHERE record_id = $1 ORDER BY id',
      'SELECT * FROM alarm_signatures WHERE record_id = $1 ORDER BY id',
      'SELECT * FROM record_dispositions WHERE record_id = $1 ORDER BY id',
    ];
    for (const query of evidence) {
      const rows = await rowsOf(origin.url, query, [Number(excursionRecordId)]);
      expect(rows.length, query).toBeGreaterThan(0);
      expect(await rowsOf(restored.url, query, [Number(excursionRecordId)])).toEqual(rows);
    }
    const audit = 'SELECT * FROM audit_events WHERE occurred_at < $1 ORDER BY id';
    const auditRows = await rowsOf(origin.url, audit, [new Date(backupStartedAt)]);
    expect(auditRows.some((r) => r.includes('record.disposition'))).toBe(true);
    expect(await rowsOf(restored.url, audit, [new Date(backupStartedAt)])).toEqual(auditRows);

    // The app runs on the restored database: the manager's session of before still works.
    const client = new TestClient(app);
    for (const [k, v] of manager.cookies) client.cookies.set(k, v);
    const res = await client.get(`${XT1}/record/?record_id=${excursionRecordId}`);
    expect(res.statusCode, res.body).toBe(200);

    // verify-backup: the counts against the manifest.
    const rows = compareCounts(await countsOf(restored.url), backup.manifest);
    console.info(`drill: restored\n${formatCountTable(rows)}`);
    expect(countsMatch(rows)).toBe(true);

    // Promoted to a new timeline (restore.ts), it takes uploads again.
    const [control] = await rowsOf(restored.url, 'SELECT timeline_id FROM pg_control_checkpoint()');
    expect((JSON.parse(control!) as { timeline_id: number }).timeline_id).toBeGreaterThan(1);
    await scannedShipment(client, [4, 4.5, 5], 'DRR');
  }, 90_000);

  it('a point-in-time restore holds every upload acknowledged before the target instant', async () => {
    await restoreBackup({
      from: dirs().backup,
      toDataDir: dirs().pitr,
      targetTime: new Date(targetInstant).toISOString(),
      walArchiveDir: dirs().wal,
    });
    const pitr = await startOn(dirs().pitr, port + 200);
    const before = acks.filter((a) => a.at < targetInstant);
    const afterBackup = before.filter((a) => a.at > backupStartedAt);
    expect(afterBackup.length, 'uploads between backup and target').toBeGreaterThanOrEqual(10);
    for (const upload of before) {
      expect(await chunksOf(pitr.url, upload.recordId)).toEqual(
        await chunksOf(origin.url, upload.recordId),
      );
    }
    await sameSeriesAsOrigin(pitr.url, origin.url);
    const rows = compareCounts(await countsOf(pitr.url), backup.manifest);
    console.info(
      `drill: point-in-time restore checked ${before.length} uploads (${afterBackup.length} after the backup)\n` +
        formatCountTable(rows),
    );
    expect(countsMatch(rows)).toBe(true);
  }, 90_000);

  it('a restore to the latest archived instant holds every acknowledged upload', async () => {
    await restoreBackup({
      from: dirs().backup,
      toDataDir: dirs().latest,
      targetTime: 'latest',
      walArchiveDir: dirs().wal,
    });
    const latest = await startOn(dirs().latest, port + 300);
    // The archive got the last segment after the uploads stopped: every one is there.
    for (const upload of acks) {
      expect(await chunksOf(latest.url, upload.recordId)).toEqual(
        await chunksOf(origin.url, upload.recordId),
      );
    }
    console.info(`drill: restore to the end of the archive checked all ${acks.length} uploads`);
  }, 90_000);

  it('npm run verify-backup checks the restored database and the backup files, and fails on a mismatch [FEAT-EVIDENCE-CHAIN]', async () => {
    // The restored PostgreSQL still runs: the command finds it through postmaster.pid,
    // and the manifest through the restore's restored-from.json.
    let result = await verifyCli(dirs().restored);
    expect(result.output).toContain('audit entries');
    expect(result.code, result.output).toBe(0);

    result = await verifyCli(dirs().restored, '--backup', dirs().backup);
    expect(result.code, result.output).toBe(0);

    // A manifest promising more records than there are: exit code 1, named in the table.
    const inflated = path.join(root, 'inflated');
    await mkdir(inflated);
    const manifest = JSON.parse(
      await readFile(path.join(dirs().backup, MANIFEST_FILE), 'utf8'),
    ) as Manifest;
    manifest.counts.atLeast.records += 1_000_000;
    await writeFile(path.join(inflated, MANIFEST_FILE), JSON.stringify(manifest));
    result = await verifyCli(dirs().restored, '--against', inflated);
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('MISSING ROWS');

    // A damaged backup file: found by its checksum, and the restore refuses it.
    const victim = path.join(dirs().backup, 'data', 'postgres', 'PG_VERSION');
    await writeFile(victim, `${await readFile(victim, 'utf8')} `);
    expect(await checkFolder(dirs().backup, manifest)).toEqual([
      { path: 'data/postgres/PG_VERSION', problem: 'changed' },
    ]);
    result = await verifyCli(dirs().restored, '--backup', dirs().backup);
    expect(result.code, result.output).toBe(1);
    await expect(
      restoreBackup({ from: dirs().backup, toDataDir: path.join(root, 'never') }),
    ).rejects.toThrow(/does not match its manifest/);
  }, 90_000);
});
