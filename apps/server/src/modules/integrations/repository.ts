import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhooks,
  type WebhookDeliveryAttemptRow,
  type WebhookDeliveryRow,
  type WebhookRow,
} from '../../db/schema-integrations';
import { recordDispositions } from '../../db/schema-review';
import { alarms, records } from '../../db/schema-shipments';

/** Every query names the organization as well as the id. */

const live = (organizationId: string) =>
  and(eq(webhooks.organizationId, organizationId), isNull(webhooks.deletedAt));

export async function listWebhooks(db: Db, organizationId: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(live(organizationId))
    .orderBy(asc(webhooks.created), asc(webhooks.id));
}

export async function findWebhook(
  db: Db,
  organizationId: string,
  id: string,
  options: { lock?: boolean; deletedToo?: boolean } = {},
): Promise<WebhookRow | undefined> {
  const scope = options.deletedToo
    ? eq(webhooks.organizationId, organizationId)
    : live(organizationId);
  const query = db
    .select()
    .from(webhooks)
    .where(and(scope, eq(webhooks.id, id)));
  const rows = options.lock ? await query.for('update') : await query;
  return rows[0];
}

export async function insertWebhook(
  db: Db,
  values: typeof webhooks.$inferInsert,
): Promise<WebhookRow> {
  const rows = await db.insert(webhooks).values(values).returning();
  return rows[0]!;
}

export async function updateWebhook(
  db: Db,
  organizationId: string,
  id: string,
  patch: Partial<typeof webhooks.$inferInsert>,
): Promise<WebhookRow | undefined> {
  const rows = await db
    .update(webhooks)
    .set(patch)
    .where(and(live(organizationId), eq(webhooks.id, id)))
    .returning();
  return rows[0];
}

/** The active webhooks of an organization that want the event. */
export async function subscribers(
  db: Db,
  organizationId: string,
  event: string,
): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(
      and(live(organizationId), eq(webhooks.active, true), sql`${event} = ANY(${webhooks.events})`),
    );
}

/** New deliveries; one already made for the same webhook and event key is left as it is. */
export async function insertDeliveries(
  db: Db,
  rows: (typeof webhookDeliveries.$inferInsert)[],
): Promise<{ id: string }[]> {
  if (rows.length === 0) return [];
  return db
    .insert(webhookDeliveries)
    .values(rows)
    .onConflictDoNothing({ target: [webhookDeliveries.webhookId, webhookDeliveries.eventKey] })
    .returning({ id: webhookDeliveries.id });
}

/** A delivery with its webhook (deleted ones too), its row locked. */
export async function lockDelivery(
  db: Db,
  deliveryId: string,
): Promise<{ delivery: WebhookDeliveryRow; webhook: WebhookRow } | undefined> {
  const rows = await db
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(
      webhooks,
      and(
        eq(webhooks.id, webhookDeliveries.webhookId),
        eq(webhooks.organizationId, webhookDeliveries.organizationId),
      ),
    )
    .where(eq(webhookDeliveries.id, deliveryId))
    .for('update', { of: webhookDeliveries });
  return rows[0];
}

export async function findDelivery(
  db: Db,
  organizationId: string,
  deliveryId: string,
  options: { lock?: boolean } = {},
): Promise<WebhookDeliveryRow | undefined> {
  const query = db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    );
  const rows = options.lock ? await query.for('update') : await query;
  return rows[0];
}

export async function recordAttempt(
  db: Db,
  delivery: WebhookDeliveryRow,
  attempt: {
    at: Date;
    success: boolean;
    responseCode: number | null;
    durationMs: number;
    error: string | null;
    status: WebhookDeliveryRow['status'];
  },
): Promise<void> {
  await db.insert(webhookDeliveryAttempts).values({
    organizationId: delivery.organizationId,
    deliveryId: delivery.id,
    attemptedAt: attempt.at,
    success: attempt.success,
    responseCode: attempt.responseCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
  });
  await db
    .update(webhookDeliveries)
    .set({
      status: attempt.status,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastAttemptAt: attempt.at,
      lastResponseCode: attempt.responseCode,
      lastError: attempt.error,
      ...(attempt.success ? { deliveredAt: attempt.at } : {}),
    })
    .where(
      and(
        eq(webhookDeliveries.organizationId, delivery.organizationId),
        eq(webhookDeliveries.id, delivery.id),
      ),
    );
}

export async function setDeliveryStatus(
  db: Db,
  organizationId: string,
  deliveryId: string,
  status: WebhookDeliveryRow['status'],
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status })
    .where(
      and(
        eq(webhookDeliveries.organizationId, organizationId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    );
}

export async function listDeliveries(
  db: Db,
  organizationId: string,
  webhookId: string,
  page: { size: number; offset: number },
): Promise<{ total: number; rows: WebhookDeliveryRow[] }> {
  const where = and(
    eq(webhookDeliveries.organizationId, organizationId),
    eq(webhookDeliveries.webhookId, webhookId),
  );
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.created), desc(webhookDeliveries.id))
      .limit(page.size)
      .offset(page.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { total: totals[0]?.n ?? 0, rows };
}

export async function attemptsOf(
  db: Db,
  organizationId: string,
  deliveryIds: readonly string[],
): Promise<WebhookDeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveryAttempts)
    .where(
      and(
        eq(webhookDeliveryAttempts.organizationId, organizationId),
        inArray(webhookDeliveryAttempts.deliveryId, [...deliveryIds]),
      ),
    )
    .orderBy(desc(webhookDeliveryAttempts.attemptedAt), desc(webhookDeliveryAttempts.id));
}

/** The record and alarms an event names (its organization's only), for the payload. */
export async function eventSubjects(
  db: Db,
  organizationId: string,
  recordId: number,
  alarmIds: readonly number[],
) {
  const [record] = await db
    .select({
      id: records.id,
      tagId: records.tagId,
      tagSerialNumber: records.tagSerialNumber,
      primaryReference: records.primaryReference,
      secondaryReference: records.secondaryReference,
      shippingReference: records.shippingReference,
      carrier: records.carrier,
      status: records.status,
      tripStatus: records.tripStatus,
      tripBeginTime: records.tripBeginTime,
      tripEndTime: records.tripEndTime,
    })
    .from(records)
    .where(and(eq(records.organizationId, organizationId), eq(records.id, recordId)));
  const alarmRows =
    alarmIds.length === 0
      ? []
      : await db
          .select()
          .from(alarms)
          .where(and(eq(alarms.organizationId, organizationId), inArray(alarms.id, [...alarmIds])))
          .orderBy(asc(alarms.id));
  return { record, alarms: alarmRows };
}

/**
 * The release decision a `record.disposition` event announces: the record's
 * latest decision signed at or before the event (a later one is its own event).
 * Read here, like the event's record and alarms (docs/decisions/webhooks.md).
 */
export async function dispositionAt(db: Db, organizationId: string, recordId: number, at: Date) {
  const [row] = await db
    .select({
      id: recordDispositions.id,
      decision: recordDispositions.decision,
      comment: recordDispositions.comment,
      meaning: recordDispositions.meaning,
      signedBy: recordDispositions.printedName,
      signedAt: recordDispositions.signedAt,
    })
    .from(recordDispositions)
    .where(
      and(
        eq(recordDispositions.organizationId, organizationId),
        eq(recordDispositions.recordId, recordId),
        sql`${recordDispositions.signedAt} <= ${at.toISOString()}`,
      ),
    )
    .orderBy(desc(recordDispositions.id))
    .limit(1);
  return row;
}
