import { desc, sql } from 'drizzle-orm';
import { mailOutbox } from '../src/db/schema-mail';
import type { TestApp } from './helpers';

/** The newest mail of the outbox addressed to this e-mail (undefined when none). */
export async function lastMailTo(t: TestApp, email: string) {
  const [row] = await t.db
    .select()
    .from(mailOutbox)
    .where(sql`${email} = ANY(${mailOutbox.to})`)
    .orderBy(desc(mailOutbox.created))
    .limit(1);
  return row;
}
