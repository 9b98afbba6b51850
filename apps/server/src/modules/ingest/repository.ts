import {
  and,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lt,
  ne,
  sql,
  type SQL,
  type Table,
} from 'drizzle-orm';
import type { SeriesValue } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import { alarmSignatures } from '../../db/schema-notifications';
import {
  alarms,
  locationSamples,
  organizationSettings,
  productDefinitions,
  recordActions,
  records,
  scans,
  tags,
  travelLocations,
  type AlarmRow,
  type OrganizationSettingsRow,
  type RecordRow,
  type TagRow,
  type TravelLocationRow,
} from '../../db/schema-shipments';
import { chunkListSql, parseChunkList } from '../series/series-store';

/**
 * Database access of the ingest module. Every query scopes by the
 * organization: a serial number names a tag within an organization only, and
 * a tag's records are looked up within the organization too (a tag that moved
 * to another organization left its records behind: they stay the old one's).
 * Rows are locked (`FOR UPDATE`) in the order tag, then record, so concurrent
 * uploads of one tag serialize without deadlocks.
 */

// ---------------------------------------------------------------- upload keys

export interface StoredUpload {
  kind: 'scan' | 'action';
  recordId: number | null;
  tagId: number;
  tagSerialNumber: string;
  reply: unknown;
}

/**
 * The upload already stored under this key in the organization (a replay), if
 * any: an action (with its stored reply) or a scan, in one round trip.
 */
export async function findUpload(
  db: Db,
  organizationId: string,
  uploadKey: string,
): Promise<StoredUpload | undefined> {
  const result = await db.execute<UploadColumns>(
    sql`select ${UPLOAD_COLUMNS} from (select 1) one
        left join lateral (${uploadLookup(organizationId, uploadKey)}) u on true`,
  );
  return storedUploadOf(result.rows[0]);
}

/** The stored upload as `u_*` columns (see {@link uploadLookup}). */
interface UploadColumns extends Record<string, unknown> {
  u_kind: 'scan' | 'action' | null;
  u_record_id: string | number | null;
  u_tag_id: string | number | null;
  u_tag_serial_number: string | null;
  u_reply: unknown;
}

const UPLOAD_COLUMNS = sql`u.kind as u_kind, u.record_id as u_record_id, u.tag_id as u_tag_id,
  u.tag_serial_number as u_tag_serial_number, u.reply as u_reply`;

/** The action or scan stored under the key, at most one row (`left join lateral (...) u on true`). */
function uploadLookup(organizationId: string, uploadKey: string | null): SQL {
  if (uploadKey === null) {
    return sql`select null::text as kind, null::bigint as record_id, null::bigint as tag_id,
      null::text as tag_serial_number, null::jsonb as reply where false`;
  }
  return sql`
    (select 'action' as kind, record_id, tag_id, tag_serial_number, reply
       from ${recordActions}
      where organization_id = ${organizationId} and upload_key = ${uploadKey}
      limit 1)
    union all
    (select 'scan' as kind, record_id, tag_id, tag_serial_number, null::jsonb as reply
       from ${scans}
      where organization_id = ${organizationId} and upload_key = ${uploadKey}
      limit 1)
    limit 1`;
}

function storedUploadOf(row: UploadColumns | undefined): StoredUpload | undefined {
  if (!row || row.u_kind === null) return undefined;
  return {
    kind: row.u_kind,
    recordId: row.u_record_id === null ? null : Number(row.u_record_id),
    tagId: Number(row.u_tag_id),
    tagSerialNumber: row.u_tag_serial_number!,
    reply: row.u_kind === 'action' ? row.u_reply : null,
  };
}

/**
 * A row as the driver answers a plain statement (`select *`, `returning *`:
 * column names), mapped the way Drizzle maps the rows of its own queries.
 */
export function fromDriverRow<T extends Table>(
  table: T,
  raw: Record<string, unknown>,
): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}

// ---------------------------------------------------------------- tags

/** The organization's tag with this id, locked. */
export async function lockTagById(
  db: Db,
  organizationId: string,
  id: number,
): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.id, id), eq(tags.organizationId, organizationId)))
    .for('update');
  return row;
}

/**
 * The tag with this id, locked, whatever its organization: only to take the
 * tag's lock before one of its records (lock order), never to read or write it.
 */
export async function lockTagForRecord(db: Db, id: number): Promise<void> {
  await db.select({ id: tags.id }).from(tags).where(eq(tags.id, id)).for('update');
}

/** The organization's tag with this serial number, locked. */
export async function lockTagBySerial(
  db: Db,
  organizationId: string,
  serialNumber: string,
): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.organizationId, organizationId), eq(tags.serialNumber, serialNumber)))
    .for('update');
  return row;
}

/**
 * The organization's tag with this serial number, locked, in one round trip
 * with what an upload needs besides: the upload stored under its key (a
 * replay), and with `create`, the tag inserted in the organization when it
 * has none (`inserted`). The lookup by key runs on the statement's snapshot:
 * a twin that commits while this waits for the lock is found by the next
 * lookup ({@link lockRunCandidates}). No tag and not inserted: another
 * transaction created it meanwhile (lock it with {@link lockTagBySerial}) or
 * `create` was not given.
 */
export async function lockTagForUpload(
  db: Db,
  organizationId: string,
  serialNumber: string,
  opts: { create: { tagType: string } | null; uploadKey: string | null },
): Promise<{ tag: TagRow | undefined; inserted: boolean; stored: StoredUpload | undefined }> {
  const { create } = opts;
  // A replay creates nothing (its tag exists, unless it was deleted meanwhile).
  const insert = create
    ? sql`, ins as (
        insert into ${tags} (organization_id, serial_number, tag_type)
        select ${organizationId}, ${serialNumber}, ${create.tagType}
        where not exists (select 1 from locked) and not exists (select 1 from u)
        on conflict (organization_id, serial_number) do nothing
        returning *)`
    : sql``;
  const inserted = create ? sql` union all select ins.*, true as inserted from ins` : sql``;
  const result = await db.execute<UploadColumns & { inserted: boolean | null }>(sql`
    with locked as (
      select * from ${tags}
      where organization_id = ${organizationId} and serial_number = ${serialNumber}
      for update),
    u as (${uploadLookup(organizationId, opts.uploadKey)})${insert},
    tag as (select locked.*, false as inserted from locked${inserted})
    select ${UPLOAD_COLUMNS}, tag.*
    from (select 1) one
    left join u on true
    left join tag on true`);
  const row = result.rows[0]!;
  return {
    tag: row.id == null ? undefined : fromDriverRow(tags, row),
    inserted: row.inserted === true,
    stored: storedUploadOf(row),
  };
}

/**
 * A new tag of the organization; undefined when another transaction created
 * that serial number in the organization meanwhile.
 */
export async function insertTag(
  db: Db,
  values: { organizationId: string; serialNumber: string; tagType: string },
): Promise<TagRow | undefined> {
  const [row] = await db
    .insert(tags)
    .values(values)
    .onConflictDoNothing({ target: [tags.organizationId, tags.serialNumber] })
    .returning();
  return row;
}

/** Change the organization's tag (a tag of another organization is left alone). */
export async function updateTag(
  db: Db,
  organizationId: string,
  id: number,
  patch: Partial<Omit<typeof tags.$inferInsert, 'organizationId'>>,
): Promise<void> {
  await db
    .update(tags)
    .set(patch)
    .where(and(eq(tags.id, id), eq(tags.organizationId, organizationId)));
}

/**
 * Recompute the tag's `running` (it has an active, started record) and
 * `last_record_id` (its newest run: a record not started yet first, then by
 * start time), from the records of the organization the tag belongs to now
 * (the records it left behind in another organization are not its runs
 * there); writes only when they change.
 */
export async function refreshTagState(db: Db, tagId: number): Promise<void> {
  await db.execute(refreshTagStateSql(tagId));
}

/** The statement of {@link refreshTagState} (it reads the records as the statement starts). */
export function refreshTagStateSql(tagId: number): SQL {
  return sql`
    update ${tags} t set running = s.running, last_record_id = s.last_record_id
    from (select id, organization_id from ${tags} where id = ${tagId}) cur
    cross join lateral (
      select
        exists (
          select 1 from ${records} r
          where r.tag_id = cur.id and r.organization_id = cur.organization_id
            and r.active and r.start_time_seconds is not null
        ) as running,
        (
          select r.id from ${records} r
          where r.tag_id = cur.id and r.organization_id = cur.organization_id
          order by r.start_time_seconds desc nulls first, r.id desc limit 1
        ) as last_record_id
    ) s
    where t.id = cur.id
      and (t.running, t.last_record_id) is distinct from (s.running, s.last_record_id)
  `;
}

// ---------------------------------------------------------------- records

/** The record (of the organization) with this id, locked. */
export async function lockRecord(
  db: Db,
  organizationId: string,
  id: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.id, id), eq(records.organizationId, organizationId)))
    .for('update');
  return row;
}

/** The record without a lock (to learn its tag before locking in order). */
export async function findRecord(
  db: Db,
  organizationId: string,
  id: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.id, id), eq(records.organizationId, organizationId)));
  return row;
}

/** The condition "a record of this tag in this organization". */
const ofTag = (organizationId: string, tagId: number): SQL =>
  and(eq(records.organizationId, organizationId), eq(records.tagId, tagId))!;

/** The organization's record of the tag's run that started at `startTimeSeconds`, locked. */
export async function lockRecordByStart(
  db: Db,
  organizationId: string,
  tagId: number,
  startTimeSeconds: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(ofTag(organizationId, tagId), eq(records.startTimeSeconds, startTimeSeconds)))
    .for('update');
  return row;
}

/** What {@link lockRunCandidates} finds. */
export interface RunCandidates {
  byStart: RecordRow | undefined;
  pending: RecordRow | undefined;
  laterRun: boolean;
  stored: StoredUpload | undefined;
}

/**
 * Where an upload with a start time goes, in one round trip (the tag is
 * locked), all within the organization: the tag's run with that start and
 * its pending records (active, not started; the newest is answered), both
 * locked; whether a later run exists; and the upload stored under the key
 * (looked up again now that the tag's lock is held, so a twin committed
 * meanwhile is seen).
 */
export async function lockRunCandidates(
  db: Db,
  organizationId: string,
  tagId: number,
  startTimeSeconds: number,
  uploadKey: string | null,
): Promise<RunCandidates> {
  const result = await db.execute<UploadColumns & { later_run: boolean }>(sql`
    with cand as (
      select * from ${records}
      where organization_id = ${organizationId} and tag_id = ${tagId}
        and (start_time_seconds = ${startTimeSeconds} or (active and start_time_seconds is null))
      for update)
    select exists (
             select 1 from ${records}
             where organization_id = ${organizationId} and tag_id = ${tagId}
               and start_time_seconds > ${startTimeSeconds}
           ) as later_run,
           ${UPLOAD_COLUMNS}, cand.*
    from (select 1) one
    left join lateral (${uploadLookup(organizationId, uploadKey)}) u on true
    left join cand on true`);
  let byStart: RecordRow | undefined;
  let pending: RecordRow | undefined;
  for (const row of result.rows) {
    if (row.id == null) continue;
    const record = fromDriverRow(records, row);
    if (record.startTimeSeconds === startTimeSeconds) byStart = record;
    else if (record.startTimeSeconds === null && (!pending || record.id > pending.id)) {
      pending = record;
    }
  }
  const first = result.rows[0]!;
  return { byStart, pending, laterRun: first.later_run, stored: storedUploadOf(first) };
}

/**
 * A new record; with `endEarlier`, the tag's earlier active runs in the
 * record's organization end (they were never stopped) in the same statement.
 */
export async function insertRun(
  db: Db,
  values: typeof records.$inferInsert,
  endEarlier: { tagId: number; startTimeSeconds: number; now: Date } | null,
): Promise<RecordRow> {
  const insert = db.insert(records).values(values).returning().getSQL();
  if (endEarlier === null) {
    const result = await db.execute<Record<string, unknown>>(insert);
    return fromDriverRow(records, result.rows[0]!);
  }
  // The inserted run is not on the statement's snapshot, nor earlier than its own start.
  const end = db
    .update(records)
    .set(endedBy(endEarlier.startTimeSeconds, endEarlier.now))
    .where(
      and(
        ofTag(values.organizationId, endEarlier.tagId),
        eq(records.active, true),
        lt(records.startTimeSeconds, endEarlier.startTimeSeconds),
      ),
    )
    .getSQL();
  const result = await db.execute<Record<string, unknown>>(sql`with ended as (${end}) ${insert}`);
  return fromDriverRow(records, result.rows[0]!);
}

/** The organization's active record of the tag (the newest if several), locked. */
export async function lockActiveRecord(
  db: Db,
  organizationId: string,
  tagId: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(ofTag(organizationId, tagId), eq(records.active, true)))
    .orderBy(sql`${records.startTimeSeconds} desc nulls first`, desc(records.id))
    .limit(1)
    .for('update');
  return row;
}

/** The organization's record of the tag that is active and not started yet, locked. */
export async function lockPendingRecord(
  db: Db,
  organizationId: string,
  tagId: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(
      and(ofTag(organizationId, tagId), eq(records.active, true), isNull(records.startTimeSeconds)),
    )
    .orderBy(desc(records.id))
    .limit(1)
    .for('update');
  return row;
}

/**
 * The organization's started record of the tag whose run covers `time` (the
 * latest start at or before it), locked: where a packet without a start time
 * belongs.
 */
export async function lockRecordCovering(
  db: Db,
  organizationId: string,
  tagId: number,
  time: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(
      and(
        ofTag(organizationId, tagId),
        sql`${records.startTimeSeconds} is not null`,
        // Whole seconds: a timestamp with milliseconds is no bigint (it answered 500).
        sql`${records.startTimeSeconds} <= ${Math.floor(time)}`,
      ),
    )
    .orderBy(desc(records.startTimeSeconds))
    .limit(1)
    .for('update');
  return row;
}

/** The organization's latest record of the tag (active first), locked. */
export async function lockLatestRecord(
  db: Db,
  organizationId: string,
  tagId: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(ofTag(organizationId, tagId))
    .orderBy(
      desc(records.active),
      sql`${records.startTimeSeconds} desc nulls first`,
      desc(records.id),
    )
    .limit(1)
    .for('update');
  return row;
}

/**
 * The num_consecutive_excursions of the organization's product definition of
 * this name (the oldest, when several have it); undefined: no such product.
 */
export async function productConsecutive(
  db: Db,
  organizationId: string,
  productName: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ value: productDefinitions.numConsecutiveExcursions })
    .from(productDefinitions)
    .where(
      and(
        eq(productDefinitions.organizationId, organizationId),
        eq(productDefinitions.productName, productName),
      ),
    )
    .orderBy(productDefinitions.id)
    .limit(1);
  return row?.value;
}

/** Whether the tag has a run in the organization that started after `startTimeSeconds`. */
export async function hasLaterRun(
  db: Db,
  organizationId: string,
  tagId: number,
  startTimeSeconds: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: records.id })
    .from(records)
    .where(and(ofTag(organizationId, tagId), gt(records.startTimeSeconds, startTimeSeconds)))
    .limit(1);
  return rows.length > 0;
}

/**
 * What a run ended by the tag's next run gets: inactive, idle, and stopped
 * when the next run started (a stop time it already has is kept). The next
 * run's start is the moment the tag is known to have stopped this run (a tag
 * runs one run at a time); the old run's last point would move with every
 * late packet of it. A stop the tag reports later for this run moves the stop
 * time only earlier (the service's stopPatch keeps the earlier of the two).
 */
function endedBy(nextStartSeconds: number, now: Date) {
  return {
    active: false,
    tagStatus: 'XT1_IDLE',
    stopTime: sql`coalesce(${records.stopTime}, to_timestamp(${Math.floor(nextStartSeconds)}))`,
    lastModified: now,
  };
}

/** A new run of the tag ended its earlier active runs in the organization (never stopped). */
export async function endEarlierRuns(
  db: Db,
  organizationId: string,
  tagId: number,
  startTimeSeconds: number,
  exceptId: number,
  now: Date,
): Promise<void> {
  await db
    .update(records)
    .set(endedBy(startTimeSeconds, now))
    .where(
      and(
        ofTag(organizationId, tagId),
        eq(records.active, true),
        ne(records.id, exceptId),
        lt(records.startTimeSeconds, startTimeSeconds),
      ),
    );
}

export async function updateRecord(
  db: Db,
  id: number,
  patch: Partial<typeof records.$inferInsert>,
): Promise<RecordRow> {
  const [row] = await db.update(records).set(patch).where(eq(records.id, id)).returning();
  return row!;
}

// ---------------------------------------------------------------- scans, actions, samples

/** A scan row, as a statement for a write batch. */
export function insertScanSql(db: Db, values: typeof scans.$inferInsert): SQL {
  return db.insert(scans).values(values).getSQL();
}

/** {@link insertAction} as a statement for a write batch. */
export function insertActionSql(db: Db, values: typeof recordActions.$inferInsert): SQL {
  return db.insert(recordActions).values(values).getSQL();
}

/** {@link insertLocationSample} as a statement for a write batch. */
export function insertLocationSampleSql(db: Db, values: typeof locationSamples.$inferInsert): SQL {
  return db.insert(locationSamples).values(values).onConflictDoNothing().getSQL();
}

export async function insertAction(
  db: Db,
  values: typeof recordActions.$inferInsert,
): Promise<void> {
  await db.insert(recordActions).values(values);
}

/** A location sample; the same position at the same time of the same record is kept once. */
export async function insertLocationSample(
  db: Db,
  values: typeof locationSamples.$inferInsert,
): Promise<void> {
  await db.insert(locationSamples).values(values).onConflictDoNothing();
}

/** A location sample as the recomputation uses it. */
export interface SamplePoint {
  latitude: number;
  longitude: number;
  timestamp: Date;
}

/**
 * What the recomputation of a record reads, as stored: its series chunks
 * (all), location samples (by time, then id), alarms (by id), latest scan and
 * latest action time.
 */
export interface RecordState {
  chunks: Map<number, SeriesValue[]>;
  samples: SamplePoint[];
  /** The open alarms (closed ones are evidence: re-evaluation never touches them). */
  alarms: AlarmRow[];
  lastScan: { timestamp: Date; userId: string | null } | undefined;
  lastActionAt: Date | null;
}

/** The state of a record that has nothing stored yet (created in this transaction). */
export function emptyRecordState(): RecordState {
  return { chunks: new Map(), samples: [], alarms: [], lastScan: undefined, lastActionAt: null };
}

const asDate = (v: string | Date | null | undefined): Date | null =>
  v == null ? null : v instanceof Date ? v : new Date(v);

/**
 * The {@link RecordState} of a record in one round trip. `knownChunks`:
 * chunks the caller holds already (merged in this transaction), not read.
 */
export async function loadRecordState(
  db: Db,
  recordId: number,
  knownChunks?: ReadonlyMap<number, SeriesValue[]>,
): Promise<RecordState> {
  const result = await db.execute<{
    chunks: string | null;
    samples: [number, number, string][] | null;
    alarms: Record<string, unknown>[] | null;
    scan_at: string | Date | null;
    scan_user: string | null;
    action_at: string | Date | null;
  }>(sql`
    select ${chunkListSql(recordId, knownChunks ? [...knownChunks.keys()] : [])} as chunks,
      (select json_agg(json_build_array(l.latitude, l.longitude, l.timestamp)
                       order by l.timestamp, l.id)
         from ${locationSamples} l where l.record_id = ${recordId}) as samples,
      (select json_agg(a order by a.id) from ${alarms} a
        where a.record_id = ${recordId} and a.state = 'OPEN') as alarms,
      s.timestamp as scan_at, s.created_by_user_id as scan_user,
      (select max(a.timestamp) from ${recordActions} a where a.record_id = ${recordId}) as action_at
    from (select 1) one
    left join lateral (
      select timestamp, created_by_user_id from ${scans}
      where record_id = ${recordId}
      order by timestamp desc, id desc limit 1
    ) s on true`);
  const row = result.rows[0]!;
  const chunks = parseChunkList(row.chunks);
  for (const [chunkNo, values] of knownChunks ?? []) chunks.set(chunkNo, values);
  const scanAt = asDate(row.scan_at);
  return {
    chunks,
    samples: (row.samples ?? []).map(([latitude, longitude, timestamp]) => ({
      latitude,
      longitude,
      timestamp: new Date(timestamp),
    })),
    alarms: (row.alarms ?? []).map((a) => fromDriverRow(alarms, a)),
    lastScan: scanAt ? { timestamp: scanAt, userId: row.scan_user ?? null } : undefined,
    lastActionAt: asDate(row.action_at),
  };
}

/**
 * The travel locations (of the organization) with these ids and the
 * organization's geo-fence settings, in one round trip.
 */
export async function findTripInputs(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<{ locations: TravelLocationRow[]; settings: OrganizationSettingsRow | undefined }> {
  const result = await db.execute<{
    locations: Record<string, unknown>[] | null;
    settings: Record<string, unknown> | null;
  }>(sql`
    select
      (select json_agg(l) from ${travelLocations} l
        where l.organization_id = ${organizationId}
          and l.id = any(${`{${ids.join(',')}}`}::bigint[])) as locations,
      (select row_to_json(s) from ${organizationSettings} s
        where s.organization_id = ${organizationId}) as settings`);
  const row = result.rows[0]!;
  return {
    locations: (row.locations ?? []).map((l) => fromDriverRow(travelLocations, l)),
    settings: row.settings ? fromDriverRow(organizationSettings, row.settings) : undefined,
  };
}

// ---------------------------------------------------------------- travel locations, geo-fence

export async function findTravelLocations(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<TravelLocationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(travelLocations)
    .where(
      and(
        eq(travelLocations.organizationId, organizationId),
        inArray(travelLocations.id, [...ids]),
      ),
    );
}

// ---------------------------------------------------------------- alarms

/** Insert new alarms (answering their ids), as a statement for a {@link WriteBatch}; null: none. */
export function insertAlarmsSql(db: Db, values: (typeof alarms.$inferInsert)[]): SQL | null {
  if (values.length === 0) return null;
  return db.insert(alarms).values(values).returning({ id: alarms.id }).getSQL();
}

/** Update the evaluated fields of an open alarm; acknowledgement, dismissal and state are never written here. */
export function updateAlarmSql(
  db: Db,
  id: number,
  patch: Pick<
    typeof alarms.$inferInsert,
    | 'lastPointIdx'
    | 'degreeMinutes'
    | 'startTime'
    | 'endTime'
    | 'duration'
    | 'highThreshold'
    | 'lowThreshold'
    | 'highestRecordedTemperature'
    | 'lowestRecordedTemperature'
    | 'numberOfPoints'
  >,
): SQL {
  return db
    .update(alarms)
    .set(patch)
    .where(and(eq(alarms.id, id), eq(alarms.state, 'OPEN')))
    .getSQL();
}

/** How alarms close: when, who (null: the system), the cause and the reason. */
export interface AlarmClosing {
  closedAt: Date;
  closedByUserId: string | null;
  closeCause: string;
  closeReason: string;
}

/** Close open alarms for good, as a statement; null: none. */
export function closeAlarmsSql(db: Db, ids: readonly number[], closing: AlarmClosing): SQL | null {
  if (ids.length === 0) return null;
  return db
    .update(alarms)
    .set({ state: 'CLOSED', ...closing })
    .where(and(inArray(alarms.id, [...ids]), eq(alarms.state, 'OPEN')))
    .getSQL();
}

/** The signatures of a signed change that closed alarms (purpose CLOSE), one per alarm. */
export async function insertCloseSignatures(
  db: Db,
  rows: readonly Omit<typeof alarmSignatures.$inferInsert, 'purpose' | 'id'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(alarmSignatures).values(rows.map((r) => ({ ...r, purpose: 'CLOSE' as const })));
}

/** {@link updateRecord} as a statement (nothing answered). */
export function updateRecordSql(
  db: Db,
  id: number,
  patch: Partial<typeof records.$inferInsert>,
): SQL {
  return db.update(records).set(patch).where(eq(records.id, id)).getSQL();
}

/** Whether a record has any alarm, open or closed (a regulated change then needs a reason). */
export async function recordHasAlarms(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: alarms.id })
    .from(alarms)
    .where(and(eq(alarms.organizationId, organizationId), eq(alarms.recordId, recordId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The organization's records whose trip a geo-fence change (or a change of
 * the travel location `locationId`) reaches: active, not stopped, trip not
 * edited by hand, with an origin or destination (that location). Not locked:
 * lock each as uploads do (tag, then record).
 */
export async function findTripAffectedRecords(
  db: Db,
  organizationId: string,
  locationId: number | undefined,
): Promise<{ id: number; tagId: number; hasAlarms: boolean }[]> {
  const rows = await db
    .select({
      id: records.id,
      tagId: records.tagId,
      hasAlarms: sql<boolean>`exists (select 1 from ${alarms} a
        where a.organization_id = ${organizationId} and a.record_id = ${records.id})`,
    })
    .from(records)
    .where(
      and(
        eq(records.organizationId, organizationId),
        eq(records.active, true),
        sql`${records.stopTime} is null`,
        eq(records.tripManual, false),
        locationId === undefined
          ? sql`(${records.shipperLocationId} is not null or ${records.receiverLocationId} is not null)`
          : sql`(${records.shipperLocationId} = ${locationId} or ${records.receiverLocationId} = ${locationId})`,
      ),
    )
    .orderBy(records.id);
  return rows.map((r) => ({ ...r, hasAlarms: r.hasAlarms === true }));
}
