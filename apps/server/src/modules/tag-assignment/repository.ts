import { and, arrayContains, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, roles } from '../../db/schema';
import { tags, type TagRow } from '../../db/schema-shipments';
import { insertTag, refreshTagState } from '../ingest';

/**
 * Database access of Assign Tags. A tag is looked up only in the
 * organizations the caller may take tags from (`null`: any, for a server
 * administrator), so a tag of any other organization is never read or locked.
 */

/** The organizations where the user holds sysAssignTags. */
export async function organizationsAssigningTags(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ organizationId: memberships.organizationId })
    .from(memberships)
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .where(
      and(eq(memberships.userId, userId), arrayContains(roles.permissionNames, ['sysAssignTags'])),
    );
  return rows.map((r) => r.organizationId);
}

const inOrganizations = (organizationIds: readonly string[] | null): SQL | undefined =>
  organizationIds === null ? undefined : inArray(tags.organizationId, [...organizationIds]);

/** The tag with this id in one of the organizations, locked. */
export async function lockTagByIdIn(
  db: Db,
  id: number,
  organizationIds: readonly string[] | null,
): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.id, id), inOrganizations(organizationIds)))
    .for('update');
  return row;
}

/** The tags with this serial number in the organizations (one per organization), locked. */
export async function lockTagsBySerialIn(
  db: Db,
  serialNumber: string,
  organizationIds: readonly string[] | null,
): Promise<TagRow[]> {
  return db
    .select()
    .from(tags)
    .where(and(eq(tags.serialNumber, serialNumber), inOrganizations(organizationIds)))
    .orderBy(tags.id)
    .for('update');
}

/** A new tag of the organization; undefined when it has that serial number already. */
export { insertTag };

/**
 * Whether the tag is in use in its organization: it has an active record
 * there, started (running) or not yet started (configured or a shipment
 * created, waiting for the start).
 */
export { tagHasActiveRecord as tagInUse } from '../records';

/**
 * Move the tag into another organization. What it carried of its old one
 * stays behind: its configuration (the old owner's thresholds and intervals)
 * and an unconfirmed rt request are cleared, and its state is recomputed from
 * the new organization's records of it (none, unless it was there before).
 * False when the target has a tag of that serial number (also when one was
 * created meanwhile); nothing is changed then.
 */
export async function moveTag(
  db: Db,
  tag: Pick<TagRow, 'id' | 'organizationId'>,
  targetOrganizationId: string,
): Promise<boolean> {
  try {
    // A savepoint: a serial number taken meanwhile fails this tag only.
    await db.transaction(async (sp) => {
      await sp
        .update(tags)
        .set({
          organizationId: targetOrganizationId,
          configuration: sql`'{}'::jsonb`,
          pendingCommand: null,
          running: false,
          lastRecordId: null,
        })
        .where(and(eq(tags.id, tag.id), eq(tags.organizationId, tag.organizationId)));
      await refreshTagState(sp, tag.id);
    });
    return true;
  } catch (err) {
    if (isSerialTaken(err)) return false;
    throw err;
  }
}

function isSerialTaken(err: unknown): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e;) {
    if (e.code === '23505' && e.constraint === 'tags_org_serial_number_key') return true;
    e = e.cause as typeof e;
  }
  return false;
}
