import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { MIGRATIONS_FOLDER } from '../src/db/migrate';
import { EMBEDDED_OWNER_ROLE } from '../src/db/roles';

/**
 * Migration 0005 (alarm lifecycle) on data as the earlier releases left it:
 * resolved alarms become closed with an "unrecorded" cause, open ones stay
 * open, every record keeps its trip inputs, and a run ended by the tag's next
 * run gets that run's start as its stop time.
 */
describe('migration 0005 on earlier data [FEAT-DEPLOYMENT, RULE-SERIES-5]', () => {
  const name = `ct_mig_${Math.random().toString(36).slice(2, 10)}`;
  let handle: DatabaseHandle;
  let folder: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} OWNER ${EMBEDDED_OWNER_ROLE}`);
    await admin.end();
    handle = openDatabase(`${inject('pgOwnerBaseUrl')}/${name}`, { max: 1 });
    // The migrations up to 0004, as a release before this one had them.
    folder = await mkdtemp(path.join(tmpdir(), 'coldtrace-migrations-'));
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, 5);
    await writeFile(journalPath, JSON.stringify(journal));
    await migrate(handle.db, { migrationsFolder: folder });
  });
  afterAll(async () => {
    await handle.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('closes resolved alarms, keeps open ones, fills trip inputs and stop times', async () => {
    const q = (text: string, values: unknown[] = []) => handle.pool.query(text, values);
    const org = (await q(`insert into organizations (name) values ('Old Pharma') returning id`))
      .rows[0].id as string;
    await q(
      `insert into organization_settings (organization_id, arrival_radius_meters, num_points_to_depart)
       values ($1, 750, 3)`,
      [org],
    );
    const origin = (
      await q(
        `insert into travel_locations (organization_id, name, address, latitude, longitude)
         values ($1, 'Dock', 'Quay 1', 52.37, 4.9) returning id`,
        [org],
      )
    ).rows[0].id as string;
    const tag = (
      await q(
        `insert into tags (organization_id, serial_number, tag_type) values ($1, 'SN-OLD', 'XT1_NFC_MU') returning id`,
        [org],
      )
    ).rows[0].id as string;
    const record = async (start: number, active: boolean) =>
      (
        await q(
          `insert into records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval,
             start_time_seconds, active, shipper_location_id)
           values ($1, $2, 'SN-OLD', 'XT1_NFC_MU', 300, $3, $4, $5) returning id`,
          [org, tag, start, active, origin],
        )
      ).rows[0].id as string;
    const first = await record(1_700_000_000, false);
    const second = await record(1_700_086_400, true);
    const alarm = async (resolved: boolean, firstPoint: number) =>
      (
        await q(
          `insert into alarms (organization_id, record_id, tag_id, tag_serial_number, kind, above_or_below,
             first_point_idx, last_point_idx, degree_minutes, duration, resolved)
           values ($1, $2, $3, 'SN-OLD', 'excursion', 'ABOVE', $4, $4, 5, 300, $5) returning id`,
          [org, first, tag, firstPoint, resolved],
        )
      ).rows[0].id as string;
    const closed = await alarm(true, 3);
    const open = await alarm(false, 9);

    await migrate(handle.db, { migrationsFolder: MIGRATIONS_FOLDER });

    const alarms = (await q(`select id, state, close_cause, close_reason from alarms order by id`))
      .rows;
    expect(alarms).toEqual([
      {
        id: closed,
        state: 'CLOSED',
        close_cause: 'UNRECORDED',
        close_reason: expect.stringContaining('audit trail'),
      },
      { id: open, state: 'OPEN', close_cause: null, close_reason: null },
    ]);
    const records = (await q(`select id, stop_time, trip_inputs from records order by id`))
      .rows as { id: string; stop_time: Date | null; trip_inputs: unknown }[];
    expect(records[0]!.id).toBe(first);
    expect(records[0]!.stop_time).toEqual(new Date(1_700_086_400 * 1000));
    expect(records[1]!.id).toBe(second);
    expect(records[1]!.stop_time).toBeNull();
    for (const r of records) {
      expect(r.trip_inputs).toEqual({
        origin: { id: Number(origin), latitude: 52.37, longitude: 4.9 },
        destination: null,
        geo_fence: {
          arrival_radius_meters: 750,
          departure_radius_meters: 1000,
          num_points_to_arrive: 2,
          num_points_to_depart: 3,
        },
      });
    }
  });
});
