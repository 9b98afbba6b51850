import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';
import { timestamptz } from './columns';

/**
 * Mail and password tokens (issue 5): the outbox every e-mail goes through
 * (its row is the worker's "done" mark, so a re-run job never sends twice)
 * and the one-time password reset / welcome tokens (only their hash is kept).
 */

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The file, base64. */
  content: string;
}

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    to: text('to')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cc: text('cc')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    bcc: text('bcc')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** Files attached (a summary's PDFs, issue 15): name, type and base64 content; null: none. */
    attachments: jsonb('attachments').$type<MailAttachment[]>(),
    /** queued → sent; logged: no SMTP_URL, printed to the log; failed: retries exhausted. */
    status: text('status', { enum: ['queued', 'sent', 'logged', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    dedupeKey: text('dedupe_key'),
    created: timestamptz('created').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_key').on(t.dedupeKey),
    index('mail_outbox_status_idx').on(t.status, t.created),
  ],
);

export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 (hex) of the token in the link; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose', { enum: ['reset', 'welcome'] }).notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('password_tokens_hash_key').on(t.tokenHash),
    index('password_tokens_user_idx').on(t.userId),
  ],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
export type PasswordTokenRow = typeof passwordTokens.$inferSelect;
