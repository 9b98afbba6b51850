import {
  DISPOSITION_DECISION_LABELS,
  DISPOSITION_MEANINGS,
  inTransitReleaseMessage,
  SIGNATURE_MEANING_LABELS,
  tripHasEnded,
  type TDispositionUpload,
  type TRecord,
  type TRecordDisposition,
  type TSignatureMeaning,
  unacknowledgedReleaseMessage,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '../../db/client';
import type { RecordDispositionRow } from '../../db/schema-review';
import type { RecordRow } from '../../db/schema-shipments';
import { publishWebhookEvent } from '../../jobs/catalogue';
import { actorOf, printedName, recordAudit } from '../../kernel/audit';
import type { OrganizationRequest } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import * as signatures from '../signatures';
import { createRecordsService, findRecordRow, lockRecordsForRecompute } from '../records';
import * as repo from './repository';

/**
 * Release decisions (issue 14 item 2, docs/decisions/disposition.md): a
 * signed RELEASED, QUARANTINED or REJECTED per record, appended to
 * record_dispositions (never edited: a later one supersedes it), audited.
 */

export function presentDisposition(row: RecordDispositionRow): TRecordDisposition {
  return {
    id: String(row.id),
    decision: row.decision,
    comment: row.comment,
    meaning: row.meaning as TSignatureMeaning,
    transit_reason: row.transitReason,
    signed_by: row.printedName,
    signed_at: row.signedAt.toISOString(),
    second_factor: row.secondFactor ?? null,
  };
}

/**
 * What refuses a release (nothing refuses a quarantine or a rejection):
 * alarms awaiting acknowledgement, then a trip that has not ended unless
 * the organization allows it and a reason is given. Answers the transit
 * reason to store (null: the trip had ended, or not a release).
 */
async function checkRelease(
  tx: Db,
  organizationId: string,
  body: TDispositionUpload,
  row: RecordRow,
): Promise<string | null> {
  const recordId = row.id;
  if (body.decision !== 'RELEASED') return null;
  const n = await repo.countUnacknowledged(tx, organizationId, recordId);
  if (n > 0) {
    const message = unacknowledgedReleaseMessage(n);
    throw new AppError('CONFLICT', message, { decision: message });
  }
  if (tripHasEnded(row.tripStatus, !row.active || row.stopTime !== null)) return null;
  if (!(await repo.allowsReleaseInTransit(tx, organizationId))) {
    const message = inTransitReleaseMessage(false);
    throw new AppError('CONFLICT', message, { decision: message });
  }
  if (!body.transit_reason) {
    const message = inTransitReleaseMessage(true);
    throw new AppError('VALIDATION_ERROR', message, { transit_reason: message });
  }
  return body.transit_reason;
}

async function recordOf(db: Database, organizationId: string, text: string): Promise<RecordRow> {
  const id = parseRowId(text);
  const row = id === undefined ? undefined : await findRecordRow(db, organizationId, id);
  if (!row) throw notFound(`Record '${text}'`, 'record_id');
  return row;
}

async function history(
  db: Database,
  organizationId: string,
  recordIdText: string,
): Promise<TRecordDisposition[]> {
  const recordId = (await recordOf(db, organizationId, recordIdText)).id;
  return (await repo.history(db, organizationId, recordId)).map(presentDisposition);
}

/**
 * Checks the record and, for RELEASED, that no alarm awaits
 * acknowledgement and that the trip has ended (or the organization allows
 * release in transit and a reason is given); signs with the meaning that
 * follows from the decision; verifies the re-entered password (throttled); then,
 * with the record's row locked (so no alarm is raised and no other
 * decision is signed in between), checks again, appends the decision,
 * audits it with the previous one as old value and publishes the
 * `record.disposition` webhook event.
 */
async function decide(
  app: FastifyInstance,
  db: Database,
  recordsService: ReturnType<typeof createRecordsService>,
  ctx: OrganizationRequest,
  body: TDispositionUpload,
): Promise<TRecord> {
  const { principal, organizationId } = ctx;
  const found = await recordOf(db, organizationId, body.record_id);
  const recordId = found.id;
  const meaning = DISPOSITION_MEANINGS[body.decision];
  await checkRelease(db, organizationId, body, found);
  const secondFactor = await signatures.verifySignaturePassword(
    app,
    principal,
    body.password,
    ctx.clientIp,
    ctx.deviceCookie,
    { code: body.second_factor_code, requestId: ctx.requestId },
  );
  const at = new Date();
  const clientType = body.client_type ?? 'WEB';
  await db.transaction(async (tx) => {
    const [locked] = await lockRecordsForRecompute(tx, organizationId, [recordId]);
    const transitReason = await checkRelease(tx, organizationId, body, locked ?? found);
    const [previous] = await repo.history(tx, organizationId, recordId);
    const row = await repo.insert(tx, {
      organizationId,
      recordId,
      decision: body.decision,
      comment: body.comment,
      meaning,
      transitReason,
      userId: principal.user.id,
      printedName: printedName(principal.user),
      signedAt: at,
      clientType,
      secondFactor,
    });
    await recordAudit(
      tx,
      { organizationId, actor: actorOf(principal, clientType), requestId: ctx.requestId },
      [
        {
          action: 'record.disposition',
          entityType: 'record',
          entityId: recordId,
          recordId,
          field: 'disposition',
          oldValue: previous?.decision ?? null,
          newValue: row.decision,
          reason:
            `${SIGNATURE_MEANING_LABELS[meaning]}: ${DISPOSITION_DECISION_LABELS[body.decision]}: ${body.comment}` +
            (transitReason === null ? '' : ` (released in transit: ${transitReason})`) +
            signatures.secondFactorNote(secondFactor),
        },
      ],
    );
    await publishWebhookEvent(app.jobs, tx, {
      organizationId,
      event: 'record.disposition',
      recordId,
      occurredAt: at.toISOString(),
    });
  });
  return recordsService.record(organizationId, body.record_id);
}

export function createReviewService(app: FastifyInstance) {
  const db = app.db;
  const recordsService = createRecordsService(db);

  return {
    history: (organizationId: string, recordIdText: string) =>
      history(db, organizationId, recordIdText),
    decide: (ctx: OrganizationRequest, body: TDispositionUpload) =>
      decide(app, db, recordsService, ctx, body),
  };
}
