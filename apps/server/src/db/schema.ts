import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The database schema. Every tenant table carries `organization_id` (the
 * scale-out path distributes by organization). Timestamps are UTC
 * (`timestamptz`). Change it, then run `npm run db:generate -w @coldtrace/server`
 * and commit the new migration in `apps/server/drizzle/`.
 */

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  created: timestamptz('created').notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    isLocked: boolean('is_locked').notNull().default(false),
    isServerAdmin: boolean('is_server_admin').notNull().default(false),
    dateJoined: timestamptz('date_joined').notNull().defaultNow(),
    lastSessionOrgId: uuid('last_session_org_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    permissionNames: text('permission_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The organization that created (owns) the role: `created_by_organization_id` in the contract. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [unique('roles_organization_name_key').on(t.organizationId, t.name)],
);

export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    created: timestamptz('created').notNull().defaultNow(),
  },
  (t) => [
    unique('memberships_user_organization_key').on(t.userId, t.organizationId),
    index('memberships_organization_idx').on(t.organizationId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 (hex) of the random token held in the `sessionid` cookie; the token itself is never stored. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organization the session works in; null when the user belongs to none. */
    organizationId: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    created: timestamptz('created').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  degreesUnit: text('degrees_unit', { enum: ['C', 'F'] })
    .notNull()
    .default('C'),
  timezone: text('timezone').notNull().default('UTC'),
});

export const userOrgSettings = pgTable(
  'user_org_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    alarmNotifyMyScans: boolean('alarm_notify_my_scans').notNull().default(false),
    alarmNotifyAnyScans: boolean('alarm_notify_any_scans').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organizationId] })],
);

export const termsOfService = pgTable('terms_of_service', {
  id: uuid('id').primaryKey().defaultRandom(),
  version: integer('version').notNull().unique(),
  content: text('content').notNull(),
  active: boolean('active').notNull().default(false),
  created: timestamptz('created').notNull().defaultNow(),
});

export const tosAgreements = pgTable(
  'tos_agreements',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tosId: uuid('tos_id')
      .notNull()
      .references(() => termsOfService.id, { onDelete: 'cascade' }),
    agreedAt: timestamptz('agreed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tosId] })],
);

export const privacyPolicies = pgTable('privacy_policies', {
  id: uuid('id').primaryKey().defaultRandom(),
  content: text('content').notNull(),
  active: boolean('active').notNull().default(false),
  created: timestamptz('created').notNull().defaultNow(),
});

/** Failed sign-ins, for throttling per account and per client address (kept in the database so every instance sees them). */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    /** account, address and device (sign-in throttling); reset-account and reset-address (reset mails). */
    kind: text('kind', {
      enum: ['account', 'address', 'device', 'reset-account', 'reset-address'],
    }).notNull(),
    failedAt: timestamptz('failed_at').notNull().defaultNow(),
  },
  (t) => [index('login_attempts_lookup_idx').on(t.kind, t.key, t.failedAt)],
);

export type OrganizationRow = typeof organizations.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
