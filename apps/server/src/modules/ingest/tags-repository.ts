import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { records, tags, type TagRow } from '../../db/schema-shipments';
import { fromDriverRow } from '../../db/driver-row';
import {
  type StoredUpload,
  storedUploadOf,
  UPLOAD_COLUMNS,
  type UploadColumns,
  uploadLookup,
} from './uploads-repository';

/**
 * Tags of the ingest module. A serial number names a tag within an
 * organization only. Rows are locked (`FOR UPDATE`) in the order tag, then
 * record, so concurrent uploads of one tag serialize without deadlocks.
 */

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
