import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  alarms,
  locationSamples,
  organizationSettings,
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

/**
 * Database access of the ingest module. Every query that takes an
 * organization id scopes by it; rows are locked (`FOR UPDATE`) in the order
 * tag, then record, so concurrent uploads of one tag serialize without
 * deadlocks.
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
  const result = await db.execute<{
    kind: 'scan' | 'action';
    record_id: string | number | null;
    tag_id: string | number;
    tag_serial_number: string;
    reply: unknown;
  }>(sql`
    (select 'action' as kind, record_id, tag_id, tag_serial_number, reply
       from ${recordActions}
      where organization_id = ${organizationId} and upload_key = ${uploadKey}
      limit 1)
    union all
    (select 'scan' as kind, record_id, tag_id, tag_serial_number, null::jsonb as reply
       from ${scans}
      where organization_id = ${organizationId} and upload_key = ${uploadKey}
      limit 1)
    limit 1`);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    kind: row.kind,
    recordId: row.record_id === null ? null : Number(row.record_id),
    tagId: Number(row.tag_id),
    tagSerialNumber: row.tag_serial_number,
    reply: row.kind === 'action' ? row.reply : null,
  };
}

// ---------------------------------------------------------------- tags

export async function lockTagById(db: Db, id: number): Promise<TagRow | undefined> {
  const [row] = await db.select().from(tags).where(eq(tags.id, id)).for('update');
  return row;
}

export async function lockTagBySerial(db: Db, serialNumber: string): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(eq(tags.serialNumber, serialNumber))
    .for('update');
  return row;
}

/** A new tag; undefined when another transaction created that serial number meanwhile. */
export async function insertTag(
  db: Db,
  values: { organizationId: string; serialNumber: string; tagType: string },
): Promise<TagRow | undefined> {
  const [row] = await db
    .insert(tags)
    .values(values)
    .onConflictDoNothing({ target: tags.serialNumber })
    .returning();
  return row;
}

export async function updateTag(
  db: Db,
  id: number,
  patch: Partial<typeof tags.$inferInsert>,
): Promise<void> {
  await db.update(tags).set(patch).where(eq(tags.id, id));
}

/**
 * Recompute the tag's `running` (it has an active, started record) and
 * `last_record_id` (its newest run: a record not started yet first, then by
 * start time); writes only when they change.
 */
export async function refreshTagState(db: Db, tagId: number): Promise<void> {
  await db.execute(sql`
    update ${tags} t set running = s.running, last_record_id = s.last_record_id
    from (
      select
        exists (
          select 1 from ${records} r
          where r.tag_id = ${tagId} and r.active and r.start_time_seconds is not null
        ) as running,
        (
          select r.id from ${records} r where r.tag_id = ${tagId}
          order by r.start_time_seconds desc nulls first, r.id desc limit 1
        ) as last_record_id
    ) s
    where t.id = ${tagId}
      and (t.running, t.last_record_id) is distinct from (s.running, s.last_record_id)
  `);
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

/** The tag's record of the run that started at `startTimeSeconds`, locked. */
export async function lockRecordByStart(
  db: Db,
  tagId: number,
  startTimeSeconds: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.tagId, tagId), eq(records.startTimeSeconds, startTimeSeconds)))
    .for('update');
  return row;
}

/** The tag's active record (the newest if several), locked. */
export async function lockActiveRecord(db: Db, tagId: number): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.tagId, tagId), eq(records.active, true)))
    .orderBy(sql`${records.startTimeSeconds} desc nulls first`, desc(records.id))
    .limit(1)
    .for('update');
  return row;
}

/** The tag's record that is active and not started yet, locked. */
export async function lockPendingRecord(db: Db, tagId: number): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(
      and(eq(records.tagId, tagId), eq(records.active, true), isNull(records.startTimeSeconds)),
    )
    .orderBy(desc(records.id))
    .limit(1)
    .for('update');
  return row;
}

/**
 * The tag's started record whose run covers `time` (the latest start at or
 * before it), locked: where a packet without a start time belongs.
 */
export async function lockRecordCovering(
  db: Db,
  tagId: number,
  time: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(
      and(
        eq(records.tagId, tagId),
        sql`${records.startTimeSeconds} is not null`,
        sql`${records.startTimeSeconds} <= ${time}`,
      ),
    )
    .orderBy(desc(records.startTimeSeconds))
    .limit(1)
    .for('update');
  return row;
}

/** The tag's latest record (active first), locked. */
export async function lockLatestRecord(db: Db, tagId: number): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(eq(records.tagId, tagId))
    .orderBy(
      desc(records.active),
      sql`${records.startTimeSeconds} desc nulls first`,
      desc(records.id),
    )
    .limit(1)
    .for('update');
  return row;
}

/** Whether the tag has a run that started after `startTimeSeconds`. */
export async function hasLaterRun(
  db: Db,
  tagId: number,
  startTimeSeconds: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: records.id })
    .from(records)
    .where(and(eq(records.tagId, tagId), gt(records.startTimeSeconds, startTimeSeconds)))
    .limit(1);
  return rows.length > 0;
}

/** A new run of the tag ended the earlier active runs (they were never stopped). */
export async function endEarlierRuns(
  db: Db,
  tagId: number,
  startTimeSeconds: number,
  exceptId: number,
  now: Date,
): Promise<void> {
  await db
    .update(records)
    .set({ active: false, tagStatus: 'XT1_IDLE', lastModified: now })
    .where(
      and(
        eq(records.tagId, tagId),
        eq(records.active, true),
        ne(records.id, exceptId),
        lt(records.startTimeSeconds, startTimeSeconds),
      ),
    );
}

export async function insertRecord(
  db: Db,
  values: typeof records.$inferInsert,
): Promise<RecordRow> {
  const [row] = await db.insert(records).values(values).returning();
  return row!;
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

export async function insertScan(db: Db, values: typeof scans.$inferInsert): Promise<void> {
  await db.insert(scans).values(values);
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

export async function listLocationSamples(
  db: Db,
  recordId: number,
): Promise<{ latitude: number; longitude: number; timestamp: Date }[]> {
  return db
    .select({
      latitude: locationSamples.latitude,
      longitude: locationSamples.longitude,
      timestamp: locationSamples.timestamp,
    })
    .from(locationSamples)
    .where(eq(locationSamples.recordId, recordId))
    .orderBy(asc(locationSamples.timestamp), asc(locationSamples.id));
}

/** The activity of a record the summary shows: latest scan, latest action (one round trip). */
export async function recordActivity(
  db: Db,
  recordId: number,
): Promise<{
  lastScan: { timestamp: Date; userId: string | null } | undefined;
  lastActionAt: Date | null;
}> {
  const result = await db.execute<{
    scan_at: string | Date | null;
    scan_user: string | null;
    action_at: string | Date | null;
  }>(sql`
    select s.timestamp as scan_at, s.created_by_user_id as scan_user,
           (select max(a.timestamp) from ${recordActions} a where a.record_id = ${recordId}) as action_at
    from (select 1) one
    left join lateral (
      select timestamp, created_by_user_id from ${scans}
      where record_id = ${recordId}
      order by timestamp desc, id desc limit 1
    ) s on true`);
  const row = result.rows[0];
  const asDate = (v: string | Date | null | undefined) =>
    v == null ? null : v instanceof Date ? v : new Date(v);
  const scanAt = asDate(row?.scan_at);
  return {
    lastScan: scanAt ? { timestamp: scanAt, userId: row?.scan_user ?? null } : undefined,
    lastActionAt: asDate(row?.action_at),
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

export async function findOrganizationSettings(
  db: Db,
  organizationId: string,
): Promise<OrganizationSettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId));
  return row;
}

// ---------------------------------------------------------------- alarms

export async function listAlarms(db: Db, recordId: number): Promise<AlarmRow[]> {
  return db.select().from(alarms).where(eq(alarms.recordId, recordId)).orderBy(asc(alarms.id));
}

/** Insert new alarms; answers their ids. */
export async function insertAlarms(
  db: Db,
  values: (typeof alarms.$inferInsert)[],
): Promise<number[]> {
  if (values.length === 0) return [];
  const rows = await db.insert(alarms).values(values).returning({ id: alarms.id });
  return rows.map((r) => r.id);
}

/** Update the evaluated fields of an alarm; acknowledgement and dismissal are never written here. */
export async function updateAlarm(
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
    | 'resolved'
  >,
): Promise<void> {
  await db.update(alarms).set(patch).where(eq(alarms.id, id));
}

export async function markAlarmsResolved(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) {
    await db
      .update(alarms)
      .set({ resolved: true })
      .where(inArray(alarms.id, [...ids]));
  }
}
