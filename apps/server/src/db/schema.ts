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

/**
 * A membership its organization's administrator suspended (issue 34). It is moved here
 * out of `memberships`, so nothing that reads memberships (sessions, user tokens, API
 * keys, notifications, e-mail, lists of members) can let it act; reactivating moves it
 * back with the same id and role. Manage Users lists both.
 */
export const membershipSuspensions = pgTable(
  'membership_suspensions',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The suspended membership's id, which it gets back when reactivated. */
    membershipId: uuid('membership_id').notNull(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    /** When the membership began. */
    memberSince: timestamptz('member_since').notNull(),
    suspendedAt: timestamptz('suspended_at').notNull().defaultNow(),
    suspendedByUserId: uuid('suspended_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

/**
 * An invitation to join an organization (issue 34): joining needs the person's consent.
 * The link carries 256 random bits; only their sha256 is stored. An invitation ends
 * accepted, declined, revoked (by its organization, or replaced by a newer one to the
 * same address) or expired; the row stays (who invited whom, and what came of it).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').notNull().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** What the administrator typed: the invited person may choose another username. */
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    invitedByUserId: uuid('invited_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** Printed name of the inviter at the time. */
    invitedByName: text('invited_by_name').notNull(),
    /** sha256 (hex) of the token in the link. */
    tokenHash: text('token_hash').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** How it ended, and when; null while pending. */
    outcome: text('outcome', { enum: ['accepted', 'declined', 'revoked'] }),
    endedAt: timestamptz('ended_at'),
    /** The account that accepted it. */
    acceptedUserId: uuid('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    uniqueIndex('invitations_id_key').on(t.id),
    // At most one pending invitation per address and organization.
    uniqueIndex('invitations_pending_email_key')
      .on(t.organizationId, sql`lower(${t.email})`)
      .where(sql`${t.outcome} is null`),
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
    /**
     * account, address and device (sign-in throttling); reset-account and reset-address
     * (reset mails); second-factor (wrong authenticator or recovery codes, per account).
     */
    kind: text('kind', {
      enum: ['account', 'address', 'device', 'reset-account', 'reset-address', 'second-factor'],
    }).notNull(),
    failedAt: timestamptz('failed_at').notNull().defaultNow(),
  },
  (t) => [index('login_attempts_lookup_idx').on(t.kind, t.key, t.failedAt)],
);

export type OrganizationRow = typeof organizations.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
