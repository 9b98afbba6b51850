import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';
import { timestamptz } from './columns';

/**
 * Webhooks (issue 15, docs/decisions/webhooks.md): an organization's
 * endpoints, one delivery per event and webhook (its id is the
 * `X-Coldtrace-Delivery` header, the same on every attempt) and the log of
 * each attempt. A deleted webhook is kept (`deleted_at`) with its deliveries:
 * the log is evidence of what was sent where.
 */

export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    active: boolean('active').notNull().default(true),
    description: text('description').notNull().default(''),
    /** The signing secret, AES-256-GCM with a key derived from SECRET_KEY (`iv.tag.ciphertext`, base64url). */
    secretEncrypted: text('secret_encrypted').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    created: timestamptz('created').notNull().defaultNow(),
    updated: timestamptz('updated').notNull().defaultNow(),
    deletedAt: timestamptz('deleted_at'),
  },
  (t) => [index('webhooks_organization_idx').on(t.organizationId)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** `X-Coldtrace-Delivery` and the body's `id`. */
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** What happened, once per webhook: e.g. `alarm.raised:42` (a re-run fan-out adds nothing). */
    eventKey: text('event_key').notNull(),
    /** The exact body sent (signed as is), the same on every attempt and redelivery. */
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamptz('last_attempt_at'),
    lastResponseCode: integer('last_response_code'),
    lastError: text('last_error'),
    created: timestamptz('created').notNull().defaultNow(),
    deliveredAt: timestamptz('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_key').on(t.webhookId, t.eventKey),
    index('webhook_deliveries_webhook_idx').on(t.organizationId, t.webhookId, t.created),
  ],
);

export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamptz('attempted_at').notNull(),
    success: boolean('success').notNull(),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookDeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
