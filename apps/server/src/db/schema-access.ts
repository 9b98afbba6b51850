import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';
import { timestamptz } from './columns';

/**
 * API keys (issue 5). A key is `ct_<prefix>_<secret>`: the prefix (shown in
 * lists, used to revoke) and 32 random bytes. Only the SHA-256 (hex) of the
 * whole key is stored; verifying is one hash and a constant-time compare.
 * The key holds the permissions fixed at its creation, in its organization.
 */

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The user who generated the key; the key acts as this user (audit) and dies with their access. */
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull().unique(),
    /** SHA-256 (hex) of the full key. */
    keyHash: text('key_hash').notNull(),
    permissionNames: text('permission_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created: timestamptz('created').notNull().defaultNow(),
    /** A read-only key makes only the calls the contract marks `apiKey: 'read'` (issue 15). */
    readOnly: boolean('read_only').notNull().default(false),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [index('api_keys_organization_idx').on(t.organizationId)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

// ---------------------------------------------------------------- device tokens

/**
 * User tokens ("Session token: token, created, expiry"): `Authorization: Token <token>`
 * for the phone app and for rt / nanotag gateways. Only a SHA-256 of the token is stored.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: text('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    created: timestamptz('created').notNull().defaultNow(),
    expiry: timestamptz('expiry'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [index('user_tokens_user_idx').on(t.userId)],
);

export type UserTokenRow = typeof userTokens.$inferSelect;
