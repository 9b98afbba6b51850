import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invitations, organizations, roles } from '../../db/schema';

/** Database access of invitations (issue 34). Every query names its organization or its token. */

export type InvitationRow = typeof invitations.$inferSelect;

export interface InvitationWithRole {
  invitation: InvitationRow;
  roleName: string;
  organizationName: string;
}

const withRole = {
  invitation: invitations,
  roleName: roles.name,
  organizationName: organizations.name,
};

const pending = (now: Date) => and(isNull(invitations.outcome), gt(invitations.expiresAt, now));

export async function insertInvitation(
  db: Db,
  values: typeof invitations.$inferInsert,
): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(values).returning();
  return row!;
}

/**
 * A newer invitation to the same address replaces the pending one (its link dies).
 * Invitations of one address to one organization wait for each other here (a
 * transaction lock), so two at the same moment end with the later one pending.
 */
export async function endPendingInvitationsTo(
  db: Db,
  organizationId: string,
  email: string,
  now: Date,
): Promise<InvitationRow[]> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`invitation:${organizationId}:${email.toLowerCase()}`}, 0))`,
  );
  return db
    .update(invitations)
    .set({ outcome: 'revoked', endedAt: now })
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        sql`lower(${invitations.email}) = ${email.toLowerCase()}`,
        isNull(invitations.outcome),
      ),
    )
    .returning();
}

/** The pending invitations of one organization, newest first. */
export async function listPendingInvitations(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<InvitationWithRole[]> {
  return db
    .select(withRole)
    .from(invitations)
    .innerJoin(roles, eq(roles.id, invitations.roleId))
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(and(eq(invitations.organizationId, organizationId), pending(now)))
    .orderBy(desc(invitations.created), invitations.id);
}

/** The pending invitation of this link (id and token hash), locked for the change that ends it. */
export async function findPendingByLink(
  db: Db,
  id: string,
  tokenHash: string,
  now: Date,
): Promise<InvitationWithRole | undefined> {
  const [row] = await db
    .select(withRole)
    .from(invitations)
    .innerJoin(roles, eq(roles.id, invitations.roleId))
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(and(eq(invitations.id, id), eq(invitations.tokenHash, tokenHash), pending(now)))
    .for('update', { of: invitations });
  return row;
}

export async function endInvitation(
  db: Db,
  invitation: Pick<InvitationRow, 'organizationId' | 'id'>,
  outcome: 'accepted' | 'declined' | 'revoked',
  now: Date,
  acceptedUserId: string | null = null,
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set({ outcome, endedAt: now, acceptedUserId })
    .where(
      and(
        eq(invitations.organizationId, invitation.organizationId),
        eq(invitations.id, invitation.id),
        isNull(invitations.outcome),
      ),
    )
    .returning();
  return row;
}

/** Which of these invitations are still pending (not ended, not expired). */
export async function pendingInvitationIds(db: Db, ids: readonly string[], now: Date) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(inArray(invitations.id, [...ids]), pending(now)));
  return rows.map((r) => r.id);
}
