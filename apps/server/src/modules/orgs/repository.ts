import { BUILT_IN_ROLES } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  memberships,
  organizations,
  roles,
  type OrganizationRow,
  type RoleRow,
} from '../../db/schema';

/** Give an organization the built-in roles it lacks (idempotent); answers its roles by name. */
export async function ensureBuiltInRoles(
  db: Db,
  organizationId: string,
): Promise<Record<string, RoleRow>> {
  await db
    .insert(roles)
    .values(
      Object.entries(BUILT_IN_ROLES).map(([name, permissionNames]) => ({
        name,
        permissionNames: [...permissionNames],
        organizationId,
      })),
    )
    .onConflictDoNothing({ target: [roles.organizationId, roles.name] });
  const rows = await db.select().from(roles).where(eq(roles.organizationId, organizationId));
  return Object.fromEntries(rows.map((r) => [r.name, r]));
}

/** A new organization with its own copy of the built-in roles. */
export async function createOrganization(
  db: Db,
  name: string,
): Promise<{ organization: OrganizationRow; roles: Record<string, RoleRow> }> {
  return db.transaction(async (tx) => {
    const [organization] = await tx.insert(organizations).values({ name }).returning();
    return { organization: organization!, roles: await ensureBuiltInRoles(tx, organization!.id) };
  });
}

/** Make the user a member of the organization with the named role (replacing an earlier role). */
export async function setMembership(
  db: Db,
  userId: string,
  organizationId: string,
  roleName: string,
): Promise<void> {
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.name, roleName)));
  if (!role) throw new Error(`Organization ${organizationId} has no role '${roleName}'`);
  await db
    .insert(memberships)
    .values({ userId, organizationId, roleId: role.id })
    .onConflictDoUpdate({
      target: [memberships.userId, memberships.organizationId],
      set: { roleId: role.id },
    });
}
