/**
 * Fills an organization with many records quickly (COPY), for the list
 * benchmarks (issue 13): tags (20 runs each), carriers, products, travel
 * locations, a spread of statuses and trip states, creation times over two
 * years, one scan per record and an alarm on about 3% of records (a tenth of
 * those on running records not acknowledged yet). No temperature series: lists do not read
 * them.
 *
 * Usable by a bench (`fillRecords(pool, organizationId, n)`) or alone:
 *   DATABASE_URL=postgres://... RECORDS=1000000 npx tsx bench/fill-records.ts
 * (alone it creates a fresh organization named "Filled <time>" in that database,
 * which must be migrated, and prints its id).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const DAY = 86_400_000;
const TWO_YEARS_DAYS = 730;
const RUNS_PER_TAG = 20;
/** Share of records in alarm. */
const ALARM_SHARE = 0.03;

/** COPY ... FROM STDIN of `rows` (tab-separated lines) over the pg protocol (pg has no helper for it). */
function copyFrom(client: pg.PoolClient, text: string, rows: Iterable<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed: unknown;
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(text);
      },
      handleCopyInResponse(connection: {
        sendCopyFromChunk(chunk: Buffer): void;
        endCopyFrom(): void;
      }) {
        let buffer = '';
        for (const row of rows) {
          buffer += row;
          if (buffer.length > 1 << 20) {
            connection.sendCopyFromChunk(Buffer.from(buffer));
            buffer = '';
          }
        }
        if (buffer !== '') connection.sendCopyFromChunk(Buffer.from(buffer));
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleError(err: unknown) {
        failed = err;
      },
      handleReadyForQuery() {
        if (failed) reject(failed instanceof Error ? failed : new Error(String(failed)));
        else resolve();
      },
    };
    (client as unknown as { query(q: unknown): void }).query(submittable);
  });
}

/** A small deterministic generator (mulberry32), so every fill is the same. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CARRIERS = ['DHL', 'UPS', 'FedEx', 'Kuehne+Nagel', 'DB Schenker', 'Maersk', 'TNT', 'Yamato'];
const PRODUCTS = [
  { name: 'Vaccine 2-8', high: 8, low: 2 },
  { name: 'Insulin', high: 8, low: 2 },
  { name: 'Frozen plasma', high: -18, low: -40 },
  { name: 'CRT 15-25', high: 25, low: 15 },
  { name: 'Biologics', high: 8, low: 2 },
  { name: 'Deep frozen', high: -60, low: -90 },
];
const CITIES = [
  'Berlin',
  'Hamburg',
  'Munich',
  'Paris',
  'Lyon',
  'Madrid',
  'Milan',
  'Vienna',
  'Zurich',
  'Basel',
  'Amsterdam',
  'Brussels',
  'Warsaw',
  'Prague',
  'Copenhagen',
  'Stockholm',
  'Oslo',
  'Dublin',
  'London',
  'Lisbon',
];

const iso = (ms: number) => new Date(ms).toISOString();

export interface FillResult {
  records: number;
  tags: number;
  alarms: number;
  /** Alarms neither acknowledged nor dismissed (the default alarm list). */
  openAlarms: number;
  scans: number;
  seconds: number;
}

/**
 * Adds `n` records (and their tags, one scan each, some alarms) to the
 * organization. `pool` must be allowed to COPY into the tables (the owner or
 * the application role).
 */
export async function fillRecords(
  pool: pg.Pool,
  organizationId: string,
  n: number,
  now = Date.now(),
): Promise<FillResult> {
  const start = performance.now();
  const rnd = random(13);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Larger batches into the search box's trigram index (its pending list), one commit at the end.
    await client.query("SET LOCAL gin_pending_list_limit = '64MB'");
    await client.query('SET LOCAL synchronous_commit = off');
    // Configuration: products, carriers, travel locations.
    await copyFrom(
      client,
      'COPY product_definitions (organization_id, product_name, high_threshold, low_threshold) FROM STDIN',
      PRODUCTS.map((p) => `${organizationId}\t${p.name}\t${p.high}\t${p.low}\n`),
    );
    await copyFrom(
      client,
      'COPY carrier_definitions (organization_id, name) FROM STDIN',
      CARRIERS.map((c) => `${organizationId}\t${c}\n`),
    );
    await copyFrom(
      client,
      'COPY travel_locations (organization_id, name, address, latitude, longitude, origin, destination) FROM STDIN',
      CITIES.map(
        (c, i) =>
          `${organizationId}\t${c} ${i % 2 === 0 ? 'Pharma Plant' : 'Distribution Centre'}\t${i + 1} Main Street, ${c}\t${45 + (i % 10)}\t${(i * 3) % 30}\t${i % 2 === 0}\t${i % 2 === 1}\n`,
      ),
    );
    const { rows: locationRows } = await client.query<{ id: string }>(
      'SELECT id::text FROM travel_locations WHERE organization_id = $1 ORDER BY id',
      [organizationId],
    );
    const locations = locationRows.map((r) => r.id);

    // Tags: one per RUNS_PER_TAG records; the tag's last run decides whether it is running.
    const tagCount = Math.max(1, Math.ceil(n / RUNS_PER_TAG));
    const serialBase = Math.floor(rnd() * 1e6);
    const serials = Array.from(
      { length: tagCount },
      (_, t) => `XT${String(serialBase + t).padStart(8, '0')}`,
    );
    const runningTag = serials.map(() => rnd() < 0.3);
    await copyFrom(
      client,
      'COPY tags (organization_id, serial_number, tag_type, created, running) FROM STDIN',
      (function* () {
        for (let t = 0; t < tagCount; t++) {
          yield `${organizationId}\t${serials[t]}\t${t % 7 === 0 ? 'XT1_RT' : 'XT1_NFC_MU'}\t${iso(now - TWO_YEARS_DAYS * DAY - DAY)}\t${runningTag[t]}\n`;
        }
      })(),
    );
    const { rows: tagRows } = await client.query<{ id: string }>(
      'SELECT id::text FROM tags WHERE organization_id = $1 ORDER BY id',
      [organizationId],
    );
    const tagIds = tagRows.map((r) => r.id);

    // Records: run r of tag t starts in the r-th slice of the last two years.
    const slice = (TWO_YEARS_DAYS * DAY) / RUNS_PER_TAG;
    await copyFrom(
      client,
      `COPY records (organization_id, tag_id, tag_serial_number, tag_type, tag_status, created,
        last_modified, primary_reference, secondary_reference, shipping_reference, program_name,
        carrier, product_designation, po_number, shipper_location_id, receiver_location_id,
        high_threshold, low_threshold, start_time_seconds, stop_time, measurement_interval,
        highest_recorded_temperature, lowest_recorded_temperature, mean_kinetic_temp, first_point,
        last_point, number_of_points, series_length, record_duration, latest_temp, last_scanned,
        last_action_taken, status, computed_status, trip_status, active, trip_begin_time,
        trip_end_time, temps_last_updated) FROM STDIN`,
      (function* () {
        for (let i = 0; i < n; i++) {
          const t = i % tagCount;
          const run = Math.floor(i / tagCount);
          const last = run === RUNS_PER_TAG - 1 || i + tagCount >= n;
          const created =
            now - TWO_YEARS_DAYS * DAY + run * slice + Math.floor(rnd() * slice * 0.9);
          const active = last && runningTag[t]!;
          const points = 96 + Math.floor(rnd() * 2000);
          const interval = 600;
          const firstPoint = created + 60_000;
          const lastPoint = Math.min(now, firstPoint + points * interval * 1000);
          const product = PRODUCTS[Math.floor(rnd() * PRODUCTS.length)]!;
          const inAlarm = rnd() < ALARM_SHARE;
          const highest = inAlarm ? product.high + 1 + rnd() * 5 : product.high - rnd();
          const lowest = product.low + rnd() * 0.5;
          const shipper = locations[(i * 2) % locations.length]!;
          const receiver = locations[(i * 2 + 1) % locations.length]!;
          const stop = active ? '\\N' : iso(lastPoint);
          const trip = active ? (rnd() < 0.5 ? 'IN_TRANSIT' : 'NOT_DEPARTED') : 'ARRIVED';
          const begin = trip === 'NOT_DEPARTED' ? '\\N' : iso(firstPoint + 3_600_000);
          const end = trip === 'ARRIVED' ? iso(lastPoint - 3_600_000) : '\\N';
          const lastAction = lastPoint;
          const status = inAlarm ? 'Alarm' : 'OK';
          yield (
            [
              organizationId,
              tagIds[t],
              serials[t],
              t % 7 === 0 ? 'XT1_RT' : 'XT1_NFC_MU',
              active ? 'XT1_ACTIVE' : 'XT1_IDLE',
              iso(created),
              iso(lastPoint),
              `PR-${100000 + i}`,
              `LOT-${(i * 7919) % 1000000}`,
              `SH-${Math.floor(i / 3)}`,
              `Program ${String.fromCharCode(65 + (i % 26))}`,
              CARRIERS[i % CARRIERS.length],
              product.name,
              `PO-${(i * 104729) % 10000000}`,
              shipper,
              receiver,
              product.high,
              product.low,
              Math.floor(created / 1000),
              stop,
              interval,
              highest.toFixed(2),
              lowest.toFixed(2),
              ((product.high + product.low) / 2).toFixed(2),
              iso(firstPoint),
              iso(lastPoint),
              points,
              points,
              (lastPoint - firstPoint) / 1000,
              (product.low + 1).toFixed(2),
              iso(lastPoint),
              iso(lastAction),
              status,
              status,
              trip,
              active,
              begin,
              end,
              // A running tag reports: its last data is now. Left empty, the server's
              // no-data check would raise an alarm on every running real-time record
              // (about 2,300 at 1,000,000 records) and the default alarm list would show them.
              active ? iso(now) : iso(lastPoint),
            ].join('\t') + '\n'
          );
        }
      })(),
    );

    // One scan per record, at its last point.
    await client.query(
      `INSERT INTO scans (organization_id, record_id, tag_id, tag_serial_number, "timestamp", created,
         number_of_points, status, upload_key, start_time_seconds, highest_recorded_temp, lowest_recorded_temp)
       SELECT organization_id, id, tag_id, tag_serial_number, last_point, last_point, number_of_points,
         status, 'fill-' || id, start_time_seconds, highest_recorded_temperature, lowest_recorded_temperature
       FROM records WHERE organization_id = $1`,
      [organizationId],
    );
    // An excursion alarm on each record in alarm; a tenth of those on running records is not acknowledged yet.
    await client.query(
      `INSERT INTO alarms (organization_id, record_id, tag_id, tag_serial_number, created, kind,
         above_or_below, first_point_idx, last_point_idx, degree_minutes, start_time, end_time,
         duration, high_threshold, low_threshold, highest_recorded_temperature, number_of_points,
         state, acknowledged, acknowledged_at, acknowledge_comment)
       SELECT organization_id, id, tag_id, tag_serial_number, first_point + interval '1 hour', 'excursion',
         'ABOVE', 6, 12, 42.5, first_point + interval '1 hour', first_point + interval '2 hours',
         3600, high_threshold, low_threshold, highest_recorded_temperature, 7,
         CASE WHEN active THEN 'OPEN' ELSE 'CLOSED' END,
         NOT (active AND id % 10 = 0), CASE WHEN NOT (active AND id % 10 = 0) THEN first_point + interval '3 hours' END,
         CASE WHEN NOT (active AND id % 10 = 0) THEN 'Checked: product released' END
       FROM records WHERE organization_id = $1 AND computed_status = 'Alarm'`,
      [organizationId],
    );
    // The tags' latest records, as ingest keeps them.
    await client.query(
      `UPDATE tags t SET last_record_id = r.id
       FROM (SELECT tag_id, max(id) AS id FROM records WHERE organization_id = $1 GROUP BY tag_id) r
       WHERE t.id = r.tag_id AND t.organization_id = $1`,
      [organizationId],
    );
    await client.query('COMMIT');
    const { rows: counts } = await client.query<{ alarms: number; open: number }>(
      `SELECT count(*)::int AS alarms, (count(*) FILTER (WHERE NOT acknowledged AND NOT dismissed))::int AS open
       FROM alarms WHERE organization_id = $1`,
      [organizationId],
    );
    for (const table of ['records', 'scans', 'alarms', 'tags', 'travel_locations']) {
      await client.query(`VACUUM (ANALYZE) ${table}`);
    }
    return {
      records: n,
      tags: tagCount,
      alarms: counts[0]!.alarms,
      openAlarms: counts[0]!.open,
      scans: n,
      seconds: (performance.now() - start) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

// Alone: `DATABASE_URL=... RECORDS=1000000 npx tsx bench/fill-records.ts`
if (process.argv[1]?.endsWith('fill-records.ts')) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL (of a migrated Coldtrace database) is required');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const organizationId = randomUUID();
  await pool.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [
    organizationId,
    `Filled ${new Date().toISOString()}`,
  ]);
  const result = await fillRecords(pool, organizationId, Number(process.env.RECORDS ?? 1_000_000));
  console.log(JSON.stringify({ organizationId, ...result }));
  await pool.end();
}
