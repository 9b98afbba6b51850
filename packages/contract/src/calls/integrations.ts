import { z } from 'zod';
import { defineCall } from '../call';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE, zQueryInt } from './devices-query';

/**
 * Webhooks (issue 15, docs/decisions/webhooks.md, docs/api.md "Webhooks"):
 * an organization's administrators register HTTPS endpoints that receive a
 * signed JSON POST for each event they chose. An addition to the spec.
 */

export const WEBHOOK_EVENTS = [
  'alarm.raised',
  'alarm.acknowledged',
  'alarm.closed',
  'record.departed',
  'record.arrived',
  'record.disposition',
  'alarm.no_data',
] as const;
export const ZWebhookEvent = z.enum(WEBHOOK_EVENTS);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

const INTEGRATIONS = '/api/integrations/webhooks/';
/** Administrators only: the user administration permission. */
const WEBHOOK_PERMISSION = 'sysAdminUser';

const zUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .describe('https URL (http only when WEBHOOK_ALLOW_PRIVATE=true)');
const zEvents = z.array(ZWebhookEvent).min(1).max(WEBHOOK_EVENTS.length);
const zDescription = z.string().trim().max(500);

export const ZWebhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(ZWebhookEvent),
    active: z.boolean(),
    description: z.string(),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'Webhook' });
export type TWebhook = z.infer<typeof ZWebhook>;

/** A webhook with its signing secret: only in the reply that created it or rotated its secret. */
export const ZWebhookWithSecret = ZWebhook.extend({
  /** 32 random bytes, hex; shown once, never again. */
  secret: z.string(),
}).meta({ id: 'WebhookWithSecret' });
export type TWebhookWithSecret = z.infer<typeof ZWebhookWithSecret>;

export const ZWebhookCreate = z
  .object({
    url: zUrl,
    events: zEvents,
    active: z.boolean().default(true),
    description: zDescription.default(''),
  })
  .meta({ id: 'WebhookCreate' });
export type TWebhookCreate = z.input<typeof ZWebhookCreate>;

export const ZWebhookUpdate = z
  .object({
    url: zUrl.optional(),
    events: zEvents.optional(),
    active: z.boolean().optional(),
    description: zDescription.optional(),
    /** true: a new secret replaces the old one at once and is in this reply only. */
    rotate_secret: z.boolean().optional(),
  })
  .meta({ id: 'WebhookUpdate' });
export type TWebhookUpdate = z.input<typeof ZWebhookUpdate>;

export const ZWebhookIdQuery = z.object({
  webhook_id: z.uuid().describe('Id of the webhook'),
});

export const integrationsWebhooksList = defineCall({
  operationId: 'integrationsWebhooksList',
  method: 'GET',
  path: INTEGRATIONS,
  summary: "The organization's webhooks, oldest first (never their secrets)",
  tag: 'integrations',
  auth: 'session',
  scope: 'organization',
  permission: WEBHOOK_PERMISSION,
  reply: z.array(ZWebhook),
});

export const integrationsWebhooksCreate = defineCall({
  operationId: 'integrationsWebhooksCreate',
  method: 'POST',
  path: INTEGRATIONS,
  summary: 'Create a webhook; the reply holds its signing secret, shown this once (audited)',
  description:
    'A URL whose host resolves to a private, loopback, link-local, shared or multicast ' +
    'address answers 400 naming `url` (unless WEBHOOK_ALLOW_PRIVATE=true).',
  tag: 'integrations',
  auth: 'session',
  scope: 'organization',
  permission: WEBHOOK_PERMISSION,
  body: ZWebhookCreate,
  reply: ZWebhookWithSecret,
});

export const integrationsWebhooksUpdate = defineCall({
  operationId: 'integrationsWebhooksUpdate',
  method: 'PATCH',
  path: INTEGRATIONS,
  summary:
    'Edit a webhook (query webhook_id; audited); with rotate_secret the reply holds the new secret',
  tag: 'integrations',
  auth: 'session',
  scope: 'organization',
  permission: WEBHOOK_PERMISSION,
  query: ZWebhookIdQuery,
  body: ZWebhookUpdate,
  reply: ZWebhookWithSecret.extend({ secret: z.string().optional() }).meta({
    id: 'WebhookUpdated',
  }),
});

export const integrationsWebhooksDelete = defineCall({
  operationId: 'integrationsWebhooksDelete',
  method: 'DELETE',
  path: INTEGRATIONS,
  summary:
    'Delete a webhook (query webhook_id; audited); 204. Nothing more is sent to it; its delivery log is kept',
  tag: 'integrations',
  auth: 'session',
  scope: 'organization',
  permission: WEBHOOK_PERMISSION,
  query: ZWebhookIdQuery,
  reply: null,
});

export const ZWebhookAttempt = z
  .object({
    attempted_at: z.string(),
    success: z.boolean(),
    response_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

export const ZWebhookDelivery = z
  .object({
    /** The `X-Coldtrace-Delivery` header, the same on every attempt. */
    id: z.string(),
    webhook_id: z.string(),
    event: ZWebhookEvent,
    /** pending (queued or retrying), delivered (a 2xx answer), failed (retries exhausted). */
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    created: z.string(),
    last_attempt_at: z.string().nullable(),
    last_response_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    delivered_at: z.string().nullable(),
    /** The last attempts, newest first (at most 20). */
    attempt_log: z.array(ZWebhookAttempt),
  })
  .meta({ id: 'WebhookDelivery' });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveriesQuery = z.object({
  webhook_id: z.uuid().describe('Id of the webhook'),
  page_number: zQueryInt(1, MAX_PAGE_NUMBER)
    .optional()
    .meta({ description: '1-based page number (default 1)' }),
  page_size: zQueryInt(1, MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` }),
});

export const integrationsWebhookDeliveries = defineCall({
  operationId: 'integrationsWebhookDeliveries',
  method: 'GET',
  path: `${INTEGRATIONS}deliveries/`,
  summary: "A webhook's deliveries, newest first, with their attempts",
  description: 'Paged: page_number is 1-based; the total is in the x-total-count header.',
  tag: 'integrations',
  auth: 'session',
  scope: 'organization',
  permission: WEBHOOK_PERMISSION,
  query: ZWebhookDeliveriesQuery,
  reply: z.array(ZWebhookDelivery),
});

export const ZWebhookRedeliver = z
  .object({ delivery_id: z.uuid().describe('Id of the delivery to send again') })
  .meta({ id: 'WebhookRedeliver' });

export const integrationsWebhookRedeliver = defineCall({
  operationId: 'integrationsWebhookRedeliver',
  method: 'POST',
  path: `${INTEGRATIONS}redeliver/`,
  summary:
    'Send a delivery again: the same body and delivery id, signed with the current secret (audited)',
  tag: 'integrations',
  auth: 'session',
  scope: 'organization',
  permission: WEBHOOK_PERMISSION,
  body: ZWebhookRedeliver,
  reply: ZWebhookDelivery,
});

export const integrationsCalls = [
  integrationsWebhooksList,
  integrationsWebhooksCreate,
  integrationsWebhooksUpdate,
  integrationsWebhooksDelete,
  integrationsWebhookDeliveries,
  integrationsWebhookRedeliver,
] as const;
