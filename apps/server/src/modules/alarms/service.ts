import {
  ALARM_ACTION_PERMISSIONS,
  SIGNATURE_MEANING_LABELS,
  type TAlarmAcknowledgeUpload,
  type TAlarmDismissUpload,
  type TExcursionAlarm,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import type { OrganizationRequest } from '../../kernel/context';
import { publishWebhookEvent } from '../../jobs/catalogue';
import { AppError, notFound } from '../../kernel/errors';
import { actorOf, printedName, recordAudit } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import { metrics } from '../../observability/metrics';
import * as notifications from '../notifications';
import * as signatures from '../signatures';
import { presentAlarm } from '../records';
import * as repo from './repository';

/**
 * Acknowledging and dismissing alarms (docs/decisions/alarm-actions.md).
 * Everything works in the route's organization (`OrganizationRequest.organizationId`):
 * an id of another organization answers 404 naming the list it came in, never data.
 */

function missingIds(field: 'record_ids' | 'alarm_ids', missing: readonly string[]): AppError {
  const what = field === 'record_ids' ? 'Record' : 'Alarm';
  const names = missing.map((id) => `'${id}'`).join(', ');
  return notFound(missing.length === 1 ? `${what} ${names}` : `${what}s ${names}`, field);
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

interface Resolved {
  scope: repo.AlarmScope;
  /** The records whose alarms the call may change. */
  recordIds: number[];
}

/**
 * What a call covers: the named alarms (which must belong to the named
 * records, when both are given), else the holding alarms of the records.
 */
async function resolveScope(
  db: Database,
  organizationId: string,
  body: { record_ids?: string[] | undefined; alarm_ids?: string[] | undefined },
): Promise<Resolved> {
  let recordIds: number[] | undefined;
  if (body.record_ids !== undefined) {
    const texts = unique(body.record_ids);
    const found = await repo.findRecords(db, organizationId, texts.map(Number));
    const known = new Set(found.map((r) => r.id));
    const missing = texts.filter((t) => !known.has(Number(t)));
    if (missing.length > 0) throw missingIds('record_ids', missing);
    recordIds = texts.map(Number);
  }
  if (body.alarm_ids === undefined) {
    return { scope: { kind: 'records', recordIds: recordIds! }, recordIds: recordIds! };
  }
  const texts = unique(body.alarm_ids);
  const found = await repo.findAlarms(db, organizationId, texts.map(Number));
  const recordOf = new Map(found.map((a) => [a.id, a.recordId]));
  const inScope = (t: string) => {
    const record = recordOf.get(Number(t));
    return record !== undefined && (recordIds === undefined || recordIds.includes(record));
  };
  const missing = texts.filter((t) => !inScope(t));
  if (missing.length > 0) throw missingIds('alarm_ids', missing);
  return {
    scope: { kind: 'alarms', alarmIds: texts.map(Number) },
    recordIds: [...new Set(found.map((a) => a.recordId))],
  };
}

/**
 * Recomputes a record after a dismissal (its computed_status leaves dismissed
 * alarms out): ingest's `recomputeRecord`, handed to this module by app.ts when
 * it wires the modules. Ingest calls the alarm lifecycle (`lifecycle.ts`), so
 * this module must not import ingest: that would be a loop.
 */
export type RecomputeRecord = (
  tx: Db,
  record: RecordRow,
  options: { now: Date; jobs: FastifyInstance['jobs']; requestId: string },
) => Promise<unknown>;

const permitsAlarmActions = (principal: Principal) =>
  ALARM_ACTION_PERMISSIONS.some((p) => principal.permissions.includes(p));

/** Webhooks (`alarm.acknowledged`): one event per record, in the acknowledging transaction. */
async function publishAcknowledged(
  app: FastifyInstance,
  tx: Db,
  organizationId: string,
  acknowledged: readonly { id: number; recordId: number }[],
  at: Date,
): Promise<void> {
  const byRecord = new Map<number, { id: number }[]>();
  for (const a of acknowledged) byRecord.set(a.recordId, [...(byRecord.get(a.recordId) ?? []), a]);
  for (const [recordId, alarms] of byRecord) {
    await publishWebhookEvent(app.jobs, tx, {
      organizationId,
      event: 'alarm.acknowledged',
      recordId,
      alarmIds: alarms.map((a) => a.id),
      occurredAt: at.toISOString(),
    });
  }
}

/**
 * Acknowledges the covered alarms that are not acknowledged yet with an
 * electronic signature: the re-entered password is verified (throttled),
 * then, in one transaction, who, when (server time), comment and client
 * type go into the alarm, the signature (printed name, meaning) into
 * alarm_signatures and one audit entry per alarm into the audit trail.
 */
async function acknowledge(
  app: FastifyInstance,
  db: Database,
  ctx: OrganizationRequest,
  body: TAlarmAcknowledgeUpload,
): Promise<TExcursionAlarm[]> {
  const { principal, organizationId } = ctx;
  const { scope } = await resolveScope(db, organizationId, body);
  const secondFactor = await signatures.verifySignaturePassword(
    app,
    principal,
    body.password,
    ctx.clientIp,
    ctx.deviceCookie,
    { code: body.second_factor_code, requestId: ctx.requestId },
  );
  const at = new Date();
  const name = printedName(principal.user);
  // The alarms they absorbed come with them: one signature covers a merged excursion.
  let coveredIds: number[] = [];
  const acknowledgedCount = await db.transaction(async (tx) => {
    const named = await repo.coveredIds(tx, organizationId, scope);
    coveredIds = await repo.withSuperseded(tx, organizationId, named);
    const covered = { kind: 'alarms', alarmIds: coveredIds } as const;
    const acknowledged = await repo.acknowledge(tx, organizationId, covered, {
      userId: principal.user.id,
      at,
      comment: body.comment,
      clientType: body.client_type,
    });
    await repo.insertSignatures(
      tx,
      acknowledged.map((a) => ({
        organizationId,
        alarmId: a.id,
        recordId: a.recordId,
        userId: principal.user.id,
        printedName: name,
        signedAt: at,
        meaning: body.meaning,
        comment: body.comment,
        clientType: body.client_type,
        secondFactor,
      })),
    );
    const reason =
      `${SIGNATURE_MEANING_LABELS[body.meaning]}: ${body.comment}` +
      signatures.secondFactorNote(secondFactor);
    await recordAudit(
      tx,
      { organizationId, actor: actorOf(principal, body.client_type), requestId: ctx.requestId },
      acknowledged.map((a) => ({
        action: 'alarm.acknowledge',
        entityType: 'alarm',
        entityId: a.id,
        recordId: a.recordId,
        field: 'acknowledged',
        oldValue: false,
        newValue: true,
        reason:
          a.supersededBy === null
            ? reason
            : `${reason} (with alarm ${a.supersededBy}, which absorbed it)`,
      })),
    );
    await publishAcknowledged(app, tx, organizationId, acknowledged, at);
    // Acknowledged: the alarm leaves every user's bell (docs/decisions/notifications.md).
    await notifications.clearForAlarms(tx, organizationId, coveredIds, at);
    return acknowledged.length;
  });
  metrics.alarmsAcknowledged(acknowledgedCount);
  const rows = await repo.listCovered(db, organizationId, {
    kind: 'alarms',
    alarmIds: coveredIds,
  });
  return rows.map(presentAlarm);
}

/**
 * Scope ORGANIZATION (default): dismisses the covered alarms for the
 * organization, audits it, dismisses the caller's own notifications of
 * them, then recomputes their records (computed_status leaves dismissed
 * alarms out), in one transaction with the records locked as an upload
 * locks them. Scope NOTIFICATIONS: only the caller's notifications.
 */
async function dismiss(
  app: FastifyInstance,
  db: Database,
  recomputeRecord: RecomputeRecord,
  ctx: OrganizationRequest,
  body: TAlarmDismissUpload,
): Promise<TExcursionAlarm[]> {
  const { principal, organizationId } = ctx;
  const forOrganization = body.scope !== 'NOTIFICATIONS';
  if (forOrganization && !permitsAlarmActions(principal)) {
    throw new AppError(
      'FORBIDDEN',
      `Dismissing alarms for the organization needs ${ALARM_ACTION_PERMISSIONS.join(' or ')}.`,
    );
  }
  const { scope, recordIds } = await resolveScope(db, organizationId, body);
  const now = new Date();
  if (!forOrganization) {
    const dismissed = await notifications.dismissForUser(
      db,
      organizationId,
      principal.user.id,
      scope.kind === 'alarms' ? { alarmIds: scope.alarmIds } : { recordIds: scope.recordIds },
      now,
    );
    if (dismissed.length === 0) return [];
    const rows = await repo.listCovered(db, organizationId, {
      kind: 'alarms',
      alarmIds: dismissed,
    });
    return rows.map(presentAlarm);
  }
  await db.transaction(async (tx) => {
    const locked = await repo.lockRecords(tx, organizationId, recordIds);
    // The contract requires the reason with scope ORGANIZATION.
    const reason = body.reason ?? '';
    const changed = await repo.dismiss(tx, organizationId, scope, {
      userId: principal.user.id,
      at: now,
      reason,
    });
    await notifications.dismissForUser(
      tx,
      organizationId,
      principal.user.id,
      { alarmIds: await repo.coveredIds(tx, organizationId, scope) },
      now,
    );
    if (changed.length === 0) return;
    await recordAudit(
      tx,
      {
        organizationId,
        actor: actorOf(principal, body.client_type),
        requestId: ctx.requestId,
      },
      changed.map((a) => ({
        action: 'alarm.dismiss',
        entityType: 'alarm',
        entityId: a.id,
        recordId: a.recordId,
        field: 'dismissed',
        oldValue: false,
        newValue: true,
        reason,
      })),
    );
    for (const record of locked) {
      await recomputeRecord(tx, record, { now, jobs: app.jobs, requestId: ctx.requestId });
    }
  });
  const rows = await repo.listCovered(db, organizationId, scope);
  return rows.map(presentAlarm);
}

export function createAlarmsService(app: FastifyInstance, recomputeRecord: RecomputeRecord) {
  const db = app.db;
  return {
    acknowledge: (ctx: OrganizationRequest, body: TAlarmAcknowledgeUpload) =>
      acknowledge(app, db, ctx, body),
    dismiss: (ctx: OrganizationRequest, body: TAlarmDismissUpload) =>
      dismiss(app, db, recomputeRecord, ctx, body),
  };
}
