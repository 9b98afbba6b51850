import { bigint, bigserial, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './schema';

/**
 * Column builders every schema file uses: UTC timestamps, 64-bit identities
 * and references (numbers in JavaScript, decimal strings in the contract), and
 * the owning organization (every tenant table carries it; its rows go with the
 * organization).
 */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const id64 = () => bigserial('id', { mode: 'number' }).primaryKey();
export const ref64 = (name: string) => bigint(name, { mode: 'number' });
export const orgRef = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
