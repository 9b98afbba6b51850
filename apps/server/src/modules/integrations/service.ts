import { randomUUID } from 'node:crypto';
import type {
  TWebhook,
  TWebhookCreate,
  TWebhookDelivery,
  TWebhookDisposition,
  TWebhookEvent,
  TWebhookUpdate,
  TWebhookWithSecret,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '../../db/client';
import type {
  WebhookDeliveryAttemptRow,
  WebhookDeliveryRow,
  WebhookRow,
} from '../../db/schema-integrations';
import {
  WEBHOOK_DELIVER_JOB,
  WEBHOOK_RETRY_LIMIT,
  publish,
  webhookAlarmOf,
  webhookRecordOf,
  type JobData,
} from '../../jobs/catalogue';
import { actorOf, recordAudit } from '../../kernel/audit';
import type { OrganizationRequest } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import { pageOf, type PageQuery } from '../../kernel/paging';
import { metrics } from '../../observability/metrics';
import { checkWebhookUrl } from './addresses';
import * as repo from './repository';
import { decryptSecret, encryptSecret, newWebhookSecret } from './secrets';
import { sendDelivery, type SendResult } from './send';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function present(row: WebhookRow): TWebhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as TWebhookEvent[],
    active: row.active,
    description: row.description,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

function presentDelivery(
  row: WebhookDeliveryRow,
  attempts: readonly WebhookDeliveryAttemptRow[],
): TWebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event: row.event as TWebhookEvent,
    status: row.status,
    attempts: row.attempts,
    created: row.created.toISOString(),
    last_attempt_at: iso(row.lastAttemptAt),
    last_response_code: row.lastResponseCode,
    last_error: row.lastError,
    delivered_at: iso(row.deliveredAt),
    attempt_log: attempts.slice(0, 20).map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      success: a.success,
      response_code: a.responseCode,
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}

const webhookMissing = (id: string) => notFound(`Webhook '${id}'`, 'webhook_id');

const audit = (ctx: OrganizationRequest, tx: Db, action: string, id: string, newValue: unknown) =>
  recordAudit(
    tx,
    {
      organizationId: ctx.organizationId,
      actor: actorOf(ctx.principal, 'WEB'),
      requestId: ctx.requestId,
    },
    [{ action, entityType: 'webhook', entityId: id, newValue }],
  );

// Never the secret in the audit trail.
const audited = (row: WebhookRow) => ({
  url: row.url,
  events: row.events,
  active: row.active,
  description: row.description,
});

async function list(db: Database, ctx: OrganizationRequest): Promise<TWebhook[]> {
  return (await repo.listWebhooks(db, ctx.organizationId)).map(present);
}

async function create(
  app: FastifyInstance,
  db: Database,
  allowPrivate: () => boolean,
  ctx: OrganizationRequest,
  body: TWebhookCreate,
): Promise<TWebhookWithSecret> {
  const { organizationId } = ctx;
  await checkWebhookUrl(body.url, allowPrivate());
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    const row = await repo.insertWebhook(tx, {
      organizationId,
      url: body.url,
      events: [...new Set(body.events)],
      active: body.active ?? true,
      description: body.description ?? '',
      secretEncrypted: encryptSecret(app.config.secretKey, secret),
      createdByUserId: ctx.principal.user.id,
    });
    await audit(ctx, tx, 'webhook.create', row.id, audited(row));
    return row;
  });
  return { ...present(row), secret };
}

async function update(
  app: FastifyInstance,
  db: Database,
  allowPrivate: () => boolean,
  ctx: OrganizationRequest,
  id: string,
  body: TWebhookUpdate,
): Promise<TWebhook & { secret?: string }> {
  const { organizationId } = ctx;
  if (body.url !== undefined) await checkWebhookUrl(body.url, allowPrivate());
  const secret = body.rotate_secret ? newWebhookSecret() : undefined;
  const row = await db.transaction(async (tx) => {
    const row = await repo.updateWebhook(tx, organizationId, id, {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: [...new Set(body.events)] } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(secret ? { secretEncrypted: encryptSecret(app.config.secretKey, secret) } : {}),
      updated: new Date(),
    });
    if (!row) throw webhookMissing(id);
    await audit(ctx, tx, 'webhook.update', row.id, {
      ...audited(row),
      ...(secret ? { secret_rotated: true } : {}),
    });
    return row;
  });
  return { ...present(row), ...(secret ? { secret } : {}) };
}

/** Soft delete: nothing more is sent to it; its deliveries stay as evidence. */
async function remove(db: Database, ctx: OrganizationRequest, id: string): Promise<void> {
  const { organizationId } = ctx;
  await db.transaction(async (tx) => {
    const now = new Date();
    const row = await repo.updateWebhook(tx, organizationId, id, {
      deletedAt: now,
      active: false,
      updated: now,
    });
    if (!row) throw webhookMissing(id);
    await audit(ctx, tx, 'webhook.delete', row.id, null);
  });
}

async function deliveries(
  db: Database,
  ctx: OrganizationRequest,
  query: PageQuery & { webhook_id: string },
): Promise<{ total: number; items: TWebhookDelivery[] }> {
  const { organizationId } = ctx;
  // A deleted webhook's log stays readable (evidence), by its id.
  const hook = await repo.findWebhook(db, organizationId, query.webhook_id, {
    deletedToo: true,
  });
  if (!hook) throw webhookMissing(query.webhook_id);
  const { total, rows } = await repo.listDeliveries(
    db,
    organizationId,
    query.webhook_id,
    pageOf(query),
  );
  const attempts = await repo.attemptsOf(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return {
    total,
    items: rows.map((r) =>
      presentDelivery(
        r,
        attempts.filter((a) => a.deliveryId === r.id),
      ),
    ),
  };
}

/** The same body and delivery id, queued again (its webhook must still exist). */
async function redeliver(
  app: FastifyInstance,
  db: Database,
  ctx: OrganizationRequest,
  deliveryId: string,
): Promise<TWebhookDelivery> {
  const { organizationId } = ctx;
  const delivery = await db.transaction(async (tx) => {
    // Locked: an attempt in flight ends first, so `attempts` is the one the job will find.
    const delivery = await repo.findDelivery(tx, organizationId, deliveryId, { lock: true });
    if (!delivery || !(await repo.findWebhook(tx, organizationId, delivery.webhookId)))
      throw notFound(`Delivery '${deliveryId}'`, 'delivery_id');
    await repo.setDeliveryStatus(tx, organizationId, deliveryId, 'pending');
    await publish(
      app.jobs,
      WEBHOOK_DELIVER_JOB,
      { deliveryId, attempts: delivery.attempts },
      { tx },
    );
    await audit(ctx, tx, 'webhook.redeliver', delivery.webhookId, { delivery_id: deliveryId });
    return { ...delivery, status: 'pending' as const };
  });
  const attempts = await repo.attemptsOf(db, organizationId, [deliveryId]);
  return presentDelivery(delivery, attempts);
}

/** The calls of the Webhooks page (administrators of the organization). */
export function createIntegrationsService(app: FastifyInstance) {
  const db = app.db;
  const allowPrivate = () => app.config.webhooks.allowPrivate;

  return {
    list: (ctx: OrganizationRequest) => list(db, ctx),
    create: (ctx: OrganizationRequest, body: TWebhookCreate) =>
      create(app, db, allowPrivate, ctx, body),
    update: (ctx: OrganizationRequest, id: string, body: TWebhookUpdate) =>
      update(app, db, allowPrivate, ctx, id, body),
    remove: (ctx: OrganizationRequest, id: string) => remove(db, ctx, id),
    deliveries: (ctx: OrganizationRequest, query: PageQuery & { webhook_id: string }) =>
      deliveries(db, ctx, query),
    redeliver: (ctx: OrganizationRequest, deliveryId: string) =>
      redeliver(app, db, ctx, deliveryId),
  };
}

// ------------------------------------------------------------------ events

/** The decision a `record.disposition` event announces, as the record reply's `disposition`. */
async function dispositionData(
  tx: Db,
  event: JobData<'webhook.event'>,
  recordId: number,
): Promise<TWebhookDisposition | null> {
  const d = await repo.dispositionAt(
    tx,
    event.organizationId,
    recordId,
    new Date(event.occurredAt),
  );
  if (!d) return null;
  return {
    id: String(d.id),
    decision: d.decision,
    comment: d.comment,
    meaning: d.meaning,
    signed_by: d.signedBy,
    signed_at: d.signedAt.toISOString(),
  };
}

/**
 * The `webhook.event` job: one delivery per matching active webhook (and per
 * alarm of an `alarm.*` event), each with its body written once and its
 * `webhook.deliver` job, in one transaction. A re-run adds nothing: a
 * delivery is unique per webhook and event key. `data.record` is the state the
 * event's publisher captured in the change's transaction (`record.departed`,
 * `record.arrived`), else the record as this job finds it.
 */
export function webhookEventWorker(app: FastifyInstance) {
  return async (event: JobData<'webhook.event'>): Promise<void> => {
    await app.db.transaction(async (tx) => {
      const hooks = await repo.subscribers(tx, event.organizationId, event.event);
      if (hooks.length === 0) return;
      // The alarms are read only for a job that carries none (queued by an earlier release).
      const subjects = await repo.eventSubjects(
        tx,
        event.organizationId,
        event.recordId,
        event.alarms ? [] : event.alarmIds,
      );
      const record = subjects.record;
      if (!record) return;
      // The record and alarms as the event's transaction left them (a job queued by an
      // earlier release carries none: then as they are now).
      const recordData = event.record ?? webhookRecordOf(record);
      const alarmBodies = event.alarms ?? subjects.alarms.map(webhookAlarmOf);
      const items: { key: string; data: object }[] = event.event.startsWith('alarm.')
        ? alarmBodies.map((alarm) => ({
            key: `${event.event}:${alarm.id}`,
            data: { alarm, record: recordData },
          }))
        : [
            {
              key: `${event.event}:${record.id}:${event.occurredAt}`,
              data:
                event.event === 'record.disposition'
                  ? {
                      record: recordData,
                      disposition: await dispositionData(tx, event, record.id),
                    }
                  : { record: recordData },
            },
          ];
      const rows = hooks.flatMap((hook) =>
        items.map((item) => {
          const id = randomUUID();
          const payload = JSON.stringify({
            id,
            event: event.event,
            occurred_at: event.occurredAt,
            organization_id: event.organizationId,
            data: item.data,
          });
          return {
            id,
            organizationId: event.organizationId,
            webhookId: hook.id,
            event: event.event,
            eventKey: item.key,
            payload,
          };
        }),
      );
      const created = await repo.insertDeliveries(tx, rows);
      for (const { id } of created) {
        await publish(app.jobs, WEBHOOK_DELIVER_JOB, { deliveryId: id, attempts: 0 }, { tx });
      }
    });
  };
}

/** Seconds before the retry after `retry` failed attempts: base × 2^retry × a random 1 to 2. */
const retryDelaySeconds = (baseSeconds: number, retry: number) =>
  baseSeconds * 2 ** retry * (1 + Math.random());

/**
 * The `webhook.deliver` job: one attempt, logged, in one transaction that
 * holds the delivery's row (two runs never send one delivery at once). A 2xx
 * marks it delivered in that transaction, so a later run (a retry of a job
 * whose server died before it completed the job) sends nothing. A failure
 * queues the next attempt there too, after the back-off, until the last one,
 * which marks the delivery failed. A run that dies mid-attempt (a killed
 * server) commits nothing: the queue runs the job again once its lease
 * (`WEBHOOK_LEASE_SECONDS`) is over, and the receiver may see the delivery id
 * twice (it deduplicates by it). A job whose `attempts` no longer match the
 * delivery's is a stale copy (its attempt was recorded): it does nothing.
 */
export function webhookDeliverWorker(app: FastifyInstance) {
  return async (data: JobData<'webhook.deliver'>): Promise<void> => {
    await app.db.transaction(async (tx) => {
      const found = await repo.lockDelivery(tx, data.deliveryId);
      if (!found || found.delivery.status !== 'pending') return;
      const { delivery, webhook } = found;
      if (data.attempts !== undefined && data.attempts !== delivery.attempts) return;
      const at = new Date();
      if (webhook.deletedAt !== null) {
        await repo.recordAttempt(tx, delivery, {
          at,
          success: false,
          responseCode: null,
          durationMs: 0,
          error: 'webhook deleted',
          status: 'failed',
        });
        return;
      }
      const result = await attempt(app, webhook, delivery);
      const last = data.retry >= WEBHOOK_RETRY_LIMIT;
      const status = result.success ? 'delivered' : last ? 'failed' : 'pending';
      await repo.recordAttempt(tx, delivery, { at, ...result, status });
      if (!result.success) metrics.webhookFailed(last);
      if (status === 'pending') {
        const next = {
          deliveryId: delivery.id,
          retry: data.retry + 1,
          attempts: delivery.attempts + 1,
        };
        const delay = retryDelaySeconds(app.config.webhooks.retryDelaySeconds, data.retry);
        const startAfter = new Date(Date.now() + delay * 1000);
        await publish(app.jobs, WEBHOOK_DELIVER_JOB, next, { tx, startAfter });
      }
    });
  };
}

/** The POST of a delivery; a secret that cannot be read (SECRET_KEY changed) is a failed attempt. */
async function attempt(
  app: FastifyInstance,
  webhook: WebhookRow,
  delivery: WebhookDeliveryRow,
): Promise<SendResult> {
  let secret: string;
  try {
    secret = decryptSecret(app.config.secretKey, webhook.secretEncrypted);
  } catch {
    return {
      success: false,
      responseCode: null,
      durationMs: 0,
      error: "the webhook's secret cannot be read (SECRET_KEY changed?): rotate it",
    };
  }
  return sendDelivery({
    url: webhook.url,
    secret,
    event: delivery.event,
    deliveryId: delivery.id,
    body: delivery.payload,
    allowPrivate: app.config.webhooks.allowPrivate,
  });
}
