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
/**
 * Administrators only: the user administration permission. Every webhook call
 * also takes an API key that is not read-only (`apiKey: 'write'`) whose role
 * holds it, so an integration can manage its own webhooks (issue 36); a
 * read-only key answers 403.
 */
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
  apiKey: 'write',
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
  apiKey: 'write',
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
  apiKey: 'write',
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
  apiKey: 'write',
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
  apiKey: 'write',
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
  apiKey: 'write',
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

// ------------------------------------------------------------------ the messages

/*
 * What Coldtrace POSTs to a webhook (docs/api.md, "The message"): the schemas
 * the server builds the bodies with (apps/server/src/jobs/catalogue.ts checks a
 * webhook event's record and alarms against them when it is published), and
 * the OpenAPI document's `webhooks` (apps/server/src/http/openapi.ts).
 */

/** A record as a webhook body carries it (`data.record`). */
export const ZWebhookRecord = z
  .object({
    id: z.string().describe('Id of the record'),
    tag_id: z.string().describe('Id of the tag'),
    tag_serial_number: z.string(),
    primary_reference: z.string(),
    secondary_reference: z.string(),
    shipping_reference: z.string(),
    carrier: z.string(),
    status: z.string().describe('The record status (`OK`, `Alarm`, ...)'),
    trip_status: z.string().describe('`NOT_DEPARTED`, `IN_TRANSIT` or `ARRIVED`'),
    trip_begin_time: z.iso.datetime().nullable(),
    trip_end_time: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'WebhookRecord',
    description: 'The record, as the change that made the event left it',
  });
export type TWebhookRecord = z.infer<typeof ZWebhookRecord>;

/** An alarm as a webhook body carries it (`data.alarm`). */
export const ZWebhookAlarm = z
  .object({
    id: z.string().describe('Id of the alarm'),
    record_id: z.string(),
    kind: z.string().describe('`excursion`, `cumulative`, `no_data` or `budget`'),
    above_or_below: z.string().nullable().describe('`ABOVE` or `BELOW`'),
    state: z.string().describe('`OPEN` or `CLOSED`'),
    start_time: z.iso.datetime().nullable(),
    end_time: z.iso.datetime().nullable(),
    duration: z.number().nullable().describe('Seconds, for every kind of alarm'),
    degree_minutes: z.number().nullable(),
    acknowledged: z.boolean(),
    acknowledged_at: z.iso.datetime().nullable(),
    dismissed: z.boolean(),
    closed_at: z.iso.datetime().nullable(),
    close_cause: z.string().nullable(),
  })
  .meta({
    id: 'WebhookAlarm',
    description: 'The alarm the event is about (one message per alarm)',
  });
export type TWebhookAlarm = z.infer<typeof ZWebhookAlarm>;

/** The release decision of a `record.disposition` message (`data.disposition`). */
export const ZWebhookDisposition = z
  .object({
    id: z.string().describe('Id of the decision'),
    decision: z.string().describe('`RELEASED`, `QUARANTINED` or `REJECTED`'),
    comment: z.string(),
    meaning: z.string().describe('The meaning it was signed with (`APPROVED`, ...)'),
    signed_by: z.string().describe('The printed name of the signer'),
    signed_at: z.iso.datetime(),
  })
  .meta({
    id: 'WebhookDisposition',
    description: "The record's latest decision signed at or before the event",
  });
export type TWebhookDisposition = z.infer<typeof ZWebhookDisposition>;

/** The events whose message is about an alarm (`data.alarm` and `data.record`). */
export const WEBHOOK_ALARM_EVENTS = [
  'alarm.raised',
  'alarm.acknowledged',
  'alarm.closed',
  'alarm.no_data',
] as const satisfies readonly TWebhookEvent[];

const envelope = {
  id: z.string().describe('The delivery id (= `X-Coldtrace-Delivery`): the same on every retry'),
  occurred_at: z.iso.datetime().describe('When the event happened; order messages by it'),
  organization_id: z.string(),
};

/** The message of an `alarm.*` event: one per alarm. */
export const ZWebhookAlarmMessage = z
  .object({
    ...envelope,
    event: z.enum(WEBHOOK_ALARM_EVENTS),
    data: z.object({ alarm: ZWebhookAlarm, record: ZWebhookRecord }),
  })
  .meta({ id: 'WebhookAlarmMessage' });

/** The message of `record.departed` and `record.arrived`. */
export const ZWebhookRecordMessage = z
  .object({
    ...envelope,
    event: z.enum(['record.departed', 'record.arrived']),
    data: z.object({ record: ZWebhookRecord }),
  })
  .meta({ id: 'WebhookRecordMessage' });

/** The message of `record.disposition`. */
export const ZWebhookDispositionMessage = z
  .object({
    ...envelope,
    event: z.literal('record.disposition'),
    data: z.object({ record: ZWebhookRecord, disposition: ZWebhookDisposition.nullable() }),
  })
  .meta({ id: 'WebhookDispositionMessage' });

/** The body schema of each event's message. */
export const WEBHOOK_MESSAGES: Readonly<
  Record<
    TWebhookEvent,
    typeof ZWebhookAlarmMessage | typeof ZWebhookRecordMessage | typeof ZWebhookDispositionMessage
  >
> = {
  'alarm.raised': ZWebhookAlarmMessage,
  'alarm.acknowledged': ZWebhookAlarmMessage,
  'alarm.closed': ZWebhookAlarmMessage,
  'alarm.no_data': ZWebhookAlarmMessage,
  'record.departed': ZWebhookRecordMessage,
  'record.arrived': ZWebhookRecordMessage,
  'record.disposition': ZWebhookDispositionMessage,
};

/** When each event is sent (docs/api.md, "Events"). */
export const WEBHOOK_EVENT_TEXT: Readonly<Record<TWebhookEvent, string>> = {
  'alarm.raised': 'An alarm was raised on a record (one message per alarm).',
  'alarm.acknowledged': 'An alarm was acknowledged with an electronic signature.',
  'alarm.closed': 'An alarm was closed: the data or the trip changed so that it no longer holds.',
  'record.departed': "The record's trip began (detected from its positions).",
  'record.arrived': "The record's trip ended (detected from its positions).",
  'record.disposition':
    'A release decision was signed (`data.disposition`; null if it can no longer be read).',
  'alarm.no_data':
    'A running rt or nanotag record sent nothing for too long: a no-data alarm was raised ' +
    '(sent with `alarm.raised`).',
};

/** The headers of every webhook request (apps/server/src/modules/integrations/send.ts). */
export const WEBHOOK_HEADERS = {
  'X-Coldtrace-Event': "The event (`alarm.raised`, ...), as the body's `event`.",
  'X-Coldtrace-Delivery':
    "The delivery id, as the body's `id`: the same on every retry and redelivery. " +
    'Delivery is at least once: deduplicate by it.',
  'X-Coldtrace-Signature':
    '`sha256=` and the lowercase hex HMAC-SHA256 of the raw body. The key is the ' +
    "webhook's secret as text: its 64 hex digits themselves (UTF-8), not the bytes they " +
    'encode. The secret is shown once, when the webhook is created or its secret rotated.',
  'X-Coldtrace-Timestamp': 'When this attempt was sent: Unix time in seconds.',
  'X-Coldtrace-Timestamp-Signature':
    '`sha256=` and the hex HMAC-SHA256 of `<X-Coldtrace-Timestamp>.<raw body>` with the ' +
    'same secret: check it and refuse old timestamps (e.g. more than 5 minutes away) to refuse replays.',
} as const;
