import { and, desc, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fromDriverRow } from '../../db/driver-row';
import { alarms, records, type RecordRow } from '../../db/schema-shipments';

/**
 * The records table as ingest writes it (issue 12, "one owner per table"):
 * runs found and locked for an upload, a new run (ending the tag's earlier
 * ones), a record's fields after a recomputation, and the records a trip
 * input change reaches. Ingest asks these through the records module's
 * index.ts. Every query scopes by the organization: a tag's records are
 * looked up within the organization too (a tag that moved to another
 * organization left its records behind: they stay the old one's). Lock a
 * record only after its tag (ingest's `tags-repository.ts`). Reads of one
 * record: `lookups.ts`.
 */

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
export interface RunCandidates<Alongside> {
  byStart: RecordRow | undefined;
  pending: RecordRow | undefined;
  laterRun: boolean;
  /** The columns the caller asked alongside (its lateral lookup, alias `u`). */
  alongside: Alongside;
}

/**
 * Where an upload with a start time goes, in one round trip (the caller has
 * locked the tag), all within the organization: the tag's run with that start
 * and its pending records (active, not started; the newest is answered), both
 * locked; whether a later run exists; and, alongside, the caller's own lookup
 * (`lateral`, joined as `u`, its `columns` answered; ingest: the upload stored
 * under the key, looked up again now that the tag's lock is held, so a twin
 * committed meanwhile is seen).
 */
export async function lockRunCandidates<Alongside extends Record<string, unknown>>(
  db: Db,
  organizationId: string,
  tagId: number,
  startTimeSeconds: number,
  alongside: { columns: SQL; lateral: SQL },
): Promise<RunCandidates<Alongside>> {
  const result = await db.execute<Alongside & { later_run: boolean }>(sql`
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
           ${alongside.columns}, cand.*
    from (select 1) one
    left join lateral (${alongside.lateral}) u on true
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
  return { byStart, pending, laterRun: first.later_run, alongside: first as Alongside };
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

/** {@link updateRecord} as a statement (nothing answered). */
export function updateRecordSql(
  db: Db,
  id: number,
  patch: Partial<typeof records.$inferInsert>,
): SQL {
  return db.update(records).set(patch).where(eq(records.id, id)).getSQL();
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
