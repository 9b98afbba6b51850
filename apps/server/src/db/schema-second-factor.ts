import { bigint, bigserial, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';
import { timestamptz } from './columns';

/**
 * A signer's second factor (issue 37 item 7; docs/decisions/second-factor.md):
 * a TOTP authenticator and its recovery codes. They belong to the account, not
 * to a membership: a person proves who they are the same way in every
 * organization they belong to (the organization only decides whether it asks).
 */

/**
 * The user's TOTP secret, AES-256-GCM encrypted with a key derived from
 * SECRET_KEY (the webhook secrets' helper). A row whose `enabled_at` is null is
 * an enrolment awaiting its first code; it asks for nothing until confirmed.
 */
export const userSecondFactors = pgTable('user_second_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  created: timestamptz('created').notNull().defaultNow(),
  /** When the first code confirmed it; null: enrolment not finished. */
  enabledAt: timestamptz('enabled_at'),
  /** The TOTP time step of the last code accepted: a code of it or earlier is refused (replay). */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  lastUsedAt: timestamptz('last_used_at'),
});

/** One-time recovery codes: only their sha256 (hex) is stored; a used code keeps its row. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('user_recovery_codes_user_idx').on(t.userId, t.codeHash)],
);

export type UserSecondFactorRow = typeof userSecondFactors.$inferSelect;
