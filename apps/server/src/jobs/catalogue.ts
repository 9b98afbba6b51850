import {
  WEBHOOK_EVENTS,
  ZWebhookAlarm,
  ZWebhookRecord,
  type TWebhookAlarm,
  type TWebhookRecord,
} from '@coldtrace/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { RuntimeConfig } from '../config';
import type { Db } from '../db/client';
import { alarms, records, type AlarmRow, type RecordRow } from '../db/schema-shipments';
import type { JobQueue, QueueSettings, SendJobOptions } from './queue';

/**
 * The job catalogue: every background job's name, the Zod schema of its
 * payload and its queue settings, in one place. Modules publish with
 * `publish(jobs, name, payload, { tx })`, typed by this catalogue and checked
 * against its schema; the worker of each job is registered at start from
 * `workers.ts` (one handler per name, the type checker sees none is missing).
 *
 * This file imports no module: a module that raises an event (ingest:
 * alarms raised, a trip departed or arrived) publishes it here and never
 * imports the modules that react to it (notifications, alarm-mail). It reads
 * the tables themselves only to capture a webhook event's record and alarms
 * in the publishing transaction (`publishWebhookEvent`).
 */

export const ALARM_RAISED_JOB = 'alarm.raised';
export const TRIP_EVENT_JOB = 'trip.event';
export const MAIL_SEND_JOB = 'mail.send';
export const REPORT_JOB = 'report.generate';
export const PASSWORD_RESET_JOB = 'password.reset-request';
export const PURGE_EXPIRED_TOKENS_JOB = 'tokens.purge-expired';
export const ALARM_ESCALATION_JOB = 'alarm.escalate';
export const WEBHOOK_EVENT_JOB = 'webhook.event';
export const WEBHOOK_DELIVER_JOB = 'webhook.deliver';
export const SUMMARY_JOB = 'notification.summaries';
export const NO_DATA_JOB = 'alarm.no-data';
export const FOLD_COUNTS_JOB = 'counts.fold';
export const EVIDENCE_ANCHOR_JOB = 'evidence.anchor';

/** The steps of an escalating notification setting (docs/decisions/escalation.md). */
export const ESCALATION_STEPS = ['reminder', 'escalation'] as const;
export type EscalationStep = (typeof ESCALATION_STEPS)[number];

/** Attempts after the first failure of an e-mail; with the back-off this spans about a day. */
export const MAIL_RETRY_LIMIT = 12;
/** Attempts after the first failure of a webhook delivery; with the jittered back-off (20 s × 2^k × 1-2) this spans one to two days. */
export const WEBHOOK_RETRY_LIMIT = 12;
/**
 * The lease of a `webhook.deliver` run: a run still active after it (its server died
 * mid-attempt) is run again. Twice an attempt's time limit (10 s); with the queue's
 * expiry sweep (`EXPIRY_SWEEP_SECONDS`, 5-10 s), the retry's 2-4 s and a poll, a
 * delivery in flight at a crash is sent again 22-36 s after its run started.
 */
export const WEBHOOK_LEASE_SECONDS = 20;
/** Attempts after the first failure before a report is marked failed. */
export const REPORT_RETRIES = 2;

const id = z.number().int().positive();

const tripEvent = z.object({
  organizationId: z.string(),
  recordId: id,
  notificationType: z.enum(['Departure', 'Arrival']),
  /** When the trip began (Departure) or ended (Arrival), ISO 8601. */
  occurredAt: z.iso.datetime(),
});

/** A record as a webhook body carries it (`data.record`, docs/api.md; schema in the contract). */
export type WebhookRecord = TWebhookRecord;

export type WebhookRecordFields = Pick<
  RecordRow,
  | 'id'
  | 'tagId'
  | 'tagSerialNumber'
  | 'primaryReference'
  | 'secondaryReference'
  | 'shippingReference'
  | 'carrier'
  | 'status'
  | 'tripStatus'
  | 'tripBeginTime'
  | 'tripEndTime'
>;

/** A record's `data.record` of a webhook body: at publish time, or (no snapshot) at fan-out. */
export function webhookRecordOf(record: WebhookRecordFields): WebhookRecord {
  return {
    id: String(record.id),
    tag_id: String(record.tagId),
    tag_serial_number: record.tagSerialNumber,
    primary_reference: record.primaryReference,
    secondary_reference: record.secondaryReference,
    shipping_reference: record.shippingReference,
    carrier: record.carrier,
    status: record.status,
    trip_status: record.tripStatus,
    trip_begin_time: record.tripBeginTime?.toISOString() ?? null,
    trip_end_time: record.tripEndTime?.toISOString() ?? null,
  };
}

/** An alarm as a webhook body carries it (`data.alarm`, docs/api.md; schema in the contract). */
export type WebhookAlarm = TWebhookAlarm;

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

/** An alarm's `data.alarm` of a webhook body, as the publishing transaction sees it. */
export function webhookAlarmOf(a: AlarmRow): WebhookAlarm {
  return {
    id: String(a.id),
    record_id: String(a.recordId),
    kind: a.kind,
    above_or_below: a.aboveOrBelow,
    state: a.state,
    start_time: isoOrNull(a.startTime),
    end_time: isoOrNull(a.endTime),
    duration: a.duration,
    degree_minutes: a.degreeMinutes,
    acknowledged: a.acknowledged,
    acknowledged_at: isoOrNull(a.acknowledgedAt),
    dismissed: a.dismissed,
    closed_at: isoOrNull(a.closedAt),
    close_cause: a.closeCause,
  };
}

/**
 * Something a webhook may be told of (docs/decisions/webhooks.md), published
 * in the transaction that made it happen: the job is the outbox, it exists
 * exactly when that transaction commits.
 */
const webhookEvent = z.object({
  organizationId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  recordId: id,
  /** The alarms of an `alarm.*` event (one delivery per alarm); empty for a record event. */
  alarmIds: z.array(id).default([]),
  occurredAt: z.iso.datetime(),
  /**
   * The record as the change left it, captured in its transaction (issue 35): the
   * body says what was true when the event happened, not when the fan-out ran (a
   * `record.departed` fanned out after the arrival would say ARRIVED). Without it
   * (an event whose publisher has no row at hand, a job queued by an earlier
   * release) the fan-out reads the record.
   */
  record: ZWebhookRecord.optional(),
  /** The event's alarms as its transaction left them (issue 35), in `alarmIds` order. */
  alarms: z.array(ZWebhookAlarm).optional(),
});
export type WebhookEvent = z.input<typeof webhookEvent>;

interface JobDefinition {
  /** What the job does, for a reader of this table. */
  does: string;
  payload: z.ZodType<object>;
  settings: (config: RuntimeConfig) => QueueSettings;
  /** A cron expression (UTC): the job is also sent on this schedule (pg-boss `schedule`). */
  cron?: string;
}

export const jobCatalogue = {
  [ALARM_RAISED_JOB]: {
    does: 'Alarms were raised on a record (ingest): the bell notifications, then the alarm e-mails',
    payload: z.object({ organizationId: z.string(), recordId: id, alarmIds: z.array(id) }),
    settings: () => ({}),
  },
  [TRIP_EVENT_JOB]: {
    does: 'A record departed or arrived (ingest): the Departure or Arrival e-mails',
    // `{ eventId }`: a job queued by an earlier release, its event already noted.
    payload: z.union([tripEvent, z.object({ eventId: id })]),
    settings: () => ({ retryLimit: 20, retryDelay: 5, retryBackoff: true }),
  },
  [MAIL_SEND_JOB]: {
    does: 'Delivers one row of the mail outbox',
    payload: z.object({ outboxId: z.string() }),
    settings: (config) => ({
      retryLimit: MAIL_RETRY_LIMIT,
      retryDelay: config.mail.retryDelaySeconds,
      retryBackoff: true,
      batchSize: 5,
    }),
  },
  [REPORT_JOB]: {
    does: 'Renders and stores one requested report (PDF, CSV or XLSX)',
    payload: z.object({ reportId: z.string() }),
    settings: () => ({ retryLimit: REPORT_RETRIES, retryDelay: 5, expireInSeconds: 600 }),
  },
  [PASSWORD_RESET_JOB]: {
    does: 'A password reset was asked for an address: mails a link if it is a known, unlocked user',
    payload: z.object({ email: z.string() }),
    settings: () => ({}),
  },
  [ALARM_ESCALATION_JOB]: {
    does: 'An alarm e-mailed under an escalating setting: at its time, reminds (or escalates) unless acknowledged or dismissed',
    payload: z.object({
      organizationId: z.string(),
      alarmId: id,
      settingId: id,
      step: z.enum(ESCALATION_STEPS),
    }),
    settings: () => ({ retryLimit: 20, retryDelay: 5, retryBackoff: true }),
  },
  [WEBHOOK_EVENT_JOB]: {
    does: "An event webhooks may want (ingest, alarms): one delivery per matching active webhook of the event's organization",
    payload: webhookEvent,
    settings: () => ({ retryLimit: 20, retryDelay: 5, retryBackoff: true }),
  },
  [WEBHOOK_DELIVER_JOB]: {
    does: 'POSTs one webhook delivery, signed; a failed attempt queues the next, with back-off, for about a day',
    payload: z.object({
      deliveryId: z.string(),
      /** Failed attempts before this one since the delivery was queued (or redelivered). */
      retry: z.number().int().min(0).default(0),
      /** The delivery's attempts when this job was queued: a copy run after they changed does nothing. */
      attempts: z.number().int().min(0).optional(),
    }),
    // The integrations module queues each retry itself (its back-off, in the attempt's
    // transaction); the queue's own retries are for a run that died (its lease ran out: a
    // killed server) or threw, soon after. One job at a time: a job's lease runs from its
    // fetch, so a batch would share one.
    settings: () => ({
      retryLimit: WEBHOOK_RETRY_LIMIT,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: WEBHOOK_LEASE_SECONDS,
      batchSize: 1,
    }),
  },
  [SUMMARY_JOB]: {
    does: "Hourly (:05 UTC): each Summary setting's daily or weekly summary, once per period, from 06:00 in its owner's time zone",
    payload: z.object({}),
    settings: () => ({ retryLimit: 3 }),
    cron: '5 * * * *',
  },
  [NO_DATA_JOB]: {
    does: 'Every minute: a no_data alarm for each running rt or nanotag record silent for longer than its transmit interval times the organization no_data_factor',
    payload: z.object({}),
    settings: () => ({ retryLimit: 1 }),
    cron: '* * * * *',
  },
  [PURGE_EXPIRED_TOKENS_JOB]: {
    does: 'Daily (03:17 UTC): deletes expired user tokens and expired password links, and clears the stored mail of password links that no longer work',
    payload: z.object({}),
    settings: () => ({ retryLimit: 3 }),
    cron: '17 3 * * *',
  },
  [FOLD_COUNTS_JOB]: {
    does: 'Every ten minutes: folds the count rows (whole and by hour) of organizations whose rows piled up since a read last folded them',
    payload: z.object({}),
    settings: () => ({ retryLimit: 1 }),
    cron: '*/10 * * * *',
  },
  [EVIDENCE_ANCHOR_JOB]: {
    does: "Hourly (:41 UTC): signs the heads of each organization's evidence chains that grew since its last anchor",
    payload: z.object({}),
    settings: () => ({ retryLimit: 3 }),
    cron: '41 * * * *',
  },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof jobCatalogue;
/** A job's payload as the worker receives it (parsed by its schema). */
export type JobData<N extends JobName> = z.output<(typeof jobCatalogue)[N]['payload']>;
/** A job's payload as it is published. */
export type JobPayload<N extends JobName> = z.input<(typeof jobCatalogue)[N]['payload']>;

export const jobNames = Object.keys(jobCatalogue) as JobName[];

/** What publishing needs of the queue (`app.jobs`). */
export type JobPublisher = Pick<JobQueue, 'send'>;
/** Where raised alarms and trip changes are published; null: nobody is to be notified (demo seed). */
export type AlarmEventSender = JobPublisher;

/**
 * Publishes a job of the catalogue, its payload checked against the job's
 * schema. With `tx`, the job exists exactly when that transaction commits.
 */
export async function publish<N extends JobName>(
  jobs: JobPublisher,
  name: N,
  payload: JobPayload<N>,
  options: SendJobOptions = {},
): Promise<string | null> {
  const data = jobCatalogue[name].payload.parse(payload) as object;
  return jobs.send(name, data, options);
}

export type AlarmRaisedEvent = JobPayload<typeof ALARM_RAISED_JOB>;

/** Ingest, in the transaction that inserted the alarms: they were raised. */
export async function publishAlarmsRaised(
  jobs: JobPublisher,
  tx: Db,
  event: AlarmRaisedEvent,
): Promise<void> {
  await publish(jobs, ALARM_RAISED_JOB, event, { tx });
  await publishWebhookEvent(jobs, tx, {
    organizationId: event.organizationId,
    event: 'alarm.raised',
    recordId: event.recordId,
    alarmIds: event.alarmIds,
    occurredAt: new Date().toISOString(),
  });
}

/**
 * An event for the webhooks (integrations module), in the caller's
 * transaction, with the record and the alarms as that transaction sees them
 * (issue 35): the fan-out may run after the record moved on (arrived,
 * released) or the alarm was acknowledged, and the body must say what was
 * true when the event happened. A record the transaction cannot see sends
 * nothing.
 */
export async function publishWebhookEvent(
  jobs: JobPublisher,
  tx: Db,
  event: WebhookEvent,
): Promise<void> {
  let record = event.record;
  if (!record) {
    const [row] = await tx
      .select()
      .from(records)
      .where(and(eq(records.organizationId, event.organizationId), eq(records.id, event.recordId)));
    if (!row) return;
    record = webhookRecordOf(row);
  }
  const alarmIds = event.alarmIds ?? [];
  const alarmRows =
    alarmIds.length === 0
      ? []
      : await tx
          .select()
          .from(alarms)
          .where(
            and(eq(alarms.organizationId, event.organizationId), inArray(alarms.id, [...alarmIds])),
          )
          .orderBy(asc(alarms.id));
  await publish(
    jobs,
    WEBHOOK_EVENT_JOB,
    { ...event, record, alarms: alarmRows.map(webhookAlarmOf) },
    { tx },
  );
}

/** Ingest's recompute, in its transaction: alarms were closed (for the webhooks). */
export async function publishAlarmsClosed(
  jobs: JobPublisher,
  tx: Db,
  record: RecordRow,
  alarmIds: readonly number[],
  now: Date,
): Promise<void> {
  if (alarmIds.length === 0) return;
  await publishWebhookEvent(jobs, tx, {
    organizationId: record.organizationId,
    event: 'alarm.closed',
    recordId: record.id,
    alarmIds: [...alarmIds],
    occurredAt: now.toISOString(),
  });
}

/**
 * Ingest's recompute, in its transaction, with the record before and after:
 * when the trip status moved forward (departed: NOT_DEPARTED to IN_TRANSIT or
 * ARRIVED; arrived: to ARRIVED) it publishes a Departure and / or Arrival
 * event. The alarm-mail worker notes each event once (keyed by the record and
 * the trip time), so the same departure detected again sends nothing new.
 */
export async function publishTripChange(
  jobs: JobPublisher,
  tx: Db,
  before: RecordRow,
  after: RecordRow,
  now: Date,
): Promise<void> {
  if (before.tripStatus === after.tripStatus) return;
  const base = { organizationId: after.organizationId, recordId: after.id };
  if (before.tripStatus === 'NOT_DEPARTED' && after.tripStatus !== 'NOT_DEPARTED') {
    const at = after.tripBeginTime ?? now;
    const event = { ...base, notificationType: 'Departure', occurredAt: at.toISOString() } as const;
    await publish(jobs, TRIP_EVENT_JOB, event, { tx });
    await publishWebhookEvent(jobs, tx, {
      ...base,
      event: 'record.departed',
      occurredAt: event.occurredAt,
      record: webhookRecordOf(after),
    });
  }
  if (after.tripStatus === 'ARRIVED') {
    const at = after.tripEndTime ?? now;
    const event = { ...base, notificationType: 'Arrival', occurredAt: at.toISOString() } as const;
    await publish(jobs, TRIP_EVENT_JOB, event, { tx });
    await publishWebhookEvent(jobs, tx, {
      ...base,
      event: 'record.arrived',
      occurredAt: event.occurredAt,
      record: webhookRecordOf(after),
    });
  }
}
