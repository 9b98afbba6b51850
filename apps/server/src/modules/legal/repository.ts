import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { privacyPolicies, termsOfService, tosAgreements } from '../../db/schema';

/** The active terms of service (the highest active version), if any. */
export async function findActiveTerms(db: Db) {
  const rows = await db
    .select()
    .from(termsOfService)
    .where(eq(termsOfService.active, true))
    .orderBy(desc(termsOfService.version))
    .limit(1);
  return rows[0];
}

/** The active privacy policy (the newest active one), if any. */
export async function findActivePrivacyPolicy(db: Db) {
  const rows = await db
    .select()
    .from(privacyPolicies)
    .where(eq(privacyPolicies.active, true))
    .orderBy(desc(privacyPolicies.created))
    .limit(1);
  return rows[0];
}

export async function hasAgreedTo(db: Db, userId: string, tosId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: tosAgreements.userId })
    .from(tosAgreements)
    .where(and(eq(tosAgreements.userId, userId), eq(tosAgreements.tosId, tosId)))
    .limit(1);
  return rows.length > 0;
}

/** Agreed to the currently active terms (true when no terms are published: nothing to agree to). */
export async function hasAgreedToActiveTerms(db: Db, userId: string): Promise<boolean> {
  const terms = await findActiveTerms(db);
  return terms === undefined ? true : hasAgreedTo(db, userId, terms.id);
}
