import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, roles } from '../../db/schema';
import { dataDisplayRules, type DataDisplayRuleRow } from '../../db/schema-reports';

/** Data display rules, each with its role's name; every query scoped to the organization. */

export interface RuleView {
  rule: DataDisplayRuleRow;
  roleName: string | null;
}

function selectRules(db: Db) {
  return db
    .select({ rule: dataDisplayRules, roleName: roles.name })
    .from(dataDisplayRules)
    .leftJoin(roles, eq(roles.id, dataDisplayRules.roleId));
}

export async function listRules(db: Db, organizationId: string): Promise<RuleView[]> {
  return selectRules(db)
    .where(eq(dataDisplayRules.organizationId, organizationId))
    .orderBy(sql`${dataDisplayRules.roleId} is not null`, asc(roles.name));
}

export async function findRule(
  db: Db,
  organizationId: string,
  id: string,
): Promise<RuleView | undefined> {
  const [row] = await selectRules(db).where(
    and(eq(dataDisplayRules.organizationId, organizationId), eq(dataDisplayRules.id, id)),
  );
  return row;
}

export async function findRuleOfRole(db: Db, organizationId: string, roleId: string | null) {
  const [row] = await selectRules(db).where(
    and(
      eq(dataDisplayRules.organizationId, organizationId),
      roleId === null ? isNull(dataDisplayRules.roleId) : eq(dataDisplayRules.roleId, roleId),
    ),
  );
  return row;
}

/** A role the organization owns, or undefined. */
export async function findRole(db: Db, organizationId: string, roleId: string) {
  const [row] = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.id, roleId)));
  return row;
}

/** The role the user holds in the organization. */
export async function roleOfUser(db: Db, organizationId: string, userId: string) {
  const [row] = await db
    .select({ roleId: memberships.roleId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.roleId ?? null;
}

/** Inserts the rule; undefined when the role already has one (the unique key). */
export async function insertRule(db: Db, values: typeof dataDisplayRules.$inferInsert) {
  const [row] = await db
    .insert(dataDisplayRules)
    .values(values)
    .onConflictDoNothing({ target: [dataDisplayRules.organizationId, dataDisplayRules.roleId] })
    .returning();
  return row;
}

export async function updateRule(
  db: Db,
  organizationId: string,
  id: string,
  values: Partial<typeof dataDisplayRules.$inferInsert>,
) {
  await db
    .update(dataDisplayRules)
    .set({ ...values, lastModified: new Date() })
    .where(and(eq(dataDisplayRules.organizationId, organizationId), eq(dataDisplayRules.id, id)));
}
