import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
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

export async function findTermsById(db: Db, id: string) {
  const rows = await db.select().from(termsOfService).where(eq(termsOfService.id, id)).limit(1);
  return rows[0];
}

/**
 * Publish new terms: the next version becomes the only active one, so every
 * user must agree again. Serialized by a transaction-level advisory lock.
 */
export async function publishTerms(db: Database, content: string) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('coldtrace.terms_of_service'))`);
    const [last] = await tx
      .select({ version: termsOfService.version })
      .from(termsOfService)
      .orderBy(desc(termsOfService.version))
      .limit(1);
    await tx.update(termsOfService).set({ active: false }).where(eq(termsOfService.active, true));
    const [row] = await tx
      .insert(termsOfService)
      .values({ content, version: (last?.version ?? 0) + 1, active: true })
      .returning();
    return row!;
  });
}

/** Publish a new privacy policy: it becomes the only active one. */
export async function publishPrivacyPolicy(db: Database, content: string) {
  return db.transaction(async (tx) => {
    await tx.update(privacyPolicies).set({ active: false }).where(eq(privacyPolicies.active, true));
    const [row] = await tx.insert(privacyPolicies).values({ content, active: true }).returning();
    return row!;
  });
}

export async function agreeToTerms(db: Db, userId: string, tosId: string): Promise<void> {
  await db.insert(tosAgreements).values({ userId, tosId }).onConflictDoNothing();
}
