import { and, count, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { memberships, users } from '../../../db/schema';
import { userRecoveryCodes, userSecondFactors } from '../../../db/schema-second-factor';
import { organizationSettings } from '../../../db/schema-shipments';

/**
 * Queries of the second factor. Factors and recovery codes are the account's
 * (keyed by user id, like the user row itself); organization settings are read
 * per organization.
 */

export async function findFactor(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(userSecondFactors)
    .where(eq(userSecondFactors.userId, userId));
  return rows[0];
}

/** Starts (or restarts) an enrolment: a new secret, not enabled. */
export async function putPendingFactor(db: Db, userId: string, secretEncrypted: string) {
  await db
    .insert(userSecondFactors)
    .values({ userId, secretEncrypted })
    .onConflictDoUpdate({
      target: userSecondFactors.userId,
      set: { secretEncrypted, created: new Date(), enabledAt: null, lastUsedStep: null },
    });
}

/**
 * Records `step` as the last one used, only if it is later than the last one
 * (one statement, so two requests with the same code cannot both pass);
 * answers whether it did. `enable` also enables a pending factor.
 */
export async function useStep(
  db: Db,
  userId: string,
  step: number,
  at: Date,
  enable = false,
): Promise<boolean> {
  const rows = await db
    .update(userSecondFactors)
    .set({ lastUsedStep: step, lastUsedAt: at, ...(enable ? { enabledAt: at } : {}) })
    .where(
      and(
        eq(userSecondFactors.userId, userId),
        or(isNull(userSecondFactors.lastUsedStep), lt(userSecondFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: userSecondFactors.userId });
  return rows.length === 1;
}

export async function deleteFactor(db: Db, userId: string): Promise<void> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.delete(userSecondFactors).where(eq(userSecondFactors.userId, userId));
}

/** Replaces the user's recovery codes by these hashes. */
export async function replaceRecoveryCodes(db: Db, userId: string, hashes: readonly string[]) {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses up an unused recovery code (one statement: a code works once); answers whether it did. */
export async function useRecoveryCode(
  db: Db,
  userId: string,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, codeHash),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return rows.length > 0;
}

export async function unusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return rows[0]?.n ?? 0;
}

export interface FactorSettings {
  forSigners: boolean;
  forAdministrators: boolean;
}

/** The organization's second-factor settings (off until set). */
export async function factorSettings(db: Db, organizationId: string): Promise<FactorSettings> {
  const rows = await db
    .select({
      forSigners: organizationSettings.secondFactorForSigners,
      forAdministrators: organizationSettings.secondFactorForAdministrators,
    })
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId));
  return rows[0] ?? { forSigners: false, forAdministrators: false };
}

/** The organizations of the user (where their factor's enrolment and removal are audited). */
export async function organizationsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  return rows.map((r) => r.id);
}

/** Of these organizations, those that require a second factor at their administrators' sign-in. */
export async function requiringForAdministrators(
  db: Db,
  organizationIds: readonly string[],
): Promise<string[]> {
  if (organizationIds.length === 0) return [];
  const rows = await db
    .select({ id: organizationSettings.organizationId })
    .from(organizationSettings)
    .where(
      and(
        inArray(organizationSettings.organizationId, [...organizationIds]),
        eq(organizationSettings.secondFactorForAdministrators, true),
      ),
    );
  return rows.map((r) => r.id);
}

/** The user's name, to say whose factor a server administrator removed (undefined: no such user). */
export async function findUsername(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return row?.username;
}
