import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { sessions, users, type UserRow } from '../../../db/schema';
import { mailOutbox } from '../../../db/schema-mail';

/** Database access of the password module. */

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** Ends every session of the user except `keep` (the session making the change), if given. */
export async function endSessions(db: Db, userId: string, keep?: string | null): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId),
    );
}

export async function outboxHasKey(db: Db, dedupeKey: string): Promise<boolean> {
  const rows = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.dedupeKey, dedupeKey))
    .limit(1);
  return rows.length > 0;
}
