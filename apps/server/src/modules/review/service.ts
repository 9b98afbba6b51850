import {
  DISPOSITION_DECISION_LABELS,
  SIGNATURE_MEANING_LABELS,
  type TDispositionUpload,
  type TRecord,
  type TRecordDisposition,
  type TSignatureMeaning,
  unacknowledgedReleaseMessage,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import type { RecordDispositionRow } from '../../db/schema-review';
import { publishWebhookEvent } from '../../jobs/catalogue';
import { actorOf, printedName, recordAudit } from '../../kernel/audit';
import type { RequestContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import { organizationOf } from '../../kernel/principal';
import * as notifications from '../notifications';
import { createRecordsService, findRecordRow, lockRecordsForRecompute } from '../records';
import * as repo from './repository';

/**
 * Release decisions (issue 14 item 2, docs/decisions/disposition.md): a
 * signed RELEASED, QUARANTINED or REJECTED per record, appended to
 * record_dispositions (never edited: a later one supersedes it), audited.
 */

/** Where a decision comes from (for the signature's throttling and the audit trail). */
export interface DecisionContext extends RequestContext {
  clientIp: string;
  deviceCookie?: string | undefined;
}

export function presentDisposition(row: RecordDispositionRow): TRecordDisposition {
  return {
    id: String(row.id),
    decision: row.decision,
    comment: row.comment,
    meaning: row.meaning as TSignatureMeaning,
    signed_by: row.printedName,
    signed_at: row.signedAt.toISOString(),
  };
}

export function createReviewService(app: FastifyInstance) {
  const db = app.db;
  const recordsService = createRecordsService(db);

  async function recordIdOf(organizationId: string, text: string): Promise<number> {
    const id = parseRowId(text);
    const row = id === undefined ? undefined : await findRecordRow(db, organizationId, id);
    if (!row) throw notFound(`Record '${text}'`, 'record_id');
    return row.id;
  }

  return {
    async history(ctx: RequestContext, recordIdText: string): Promise<TRecordDisposition[]> {
      const organizationId = organizationOf(ctx.principal);
      const recordId = await recordIdOf(organizationId, recordIdText);
      return (await repo.history(db, organizationId, recordId)).map(presentDisposition);
    },

    /**
     * Checks the record and, for RELEASED, that no alarm awaits
     * acknowledgement; verifies the re-entered password (throttled); then,
     * with the record's row locked (so no alarm is raised and no other
     * decision is signed in between), checks again, appends the decision,
     * audits it with the previous one as old value and publishes the
     * `record.disposition` webhook event.
     */
    async decide(ctx: DecisionContext, body: TDispositionUpload): Promise<TRecord> {
      const { principal } = ctx;
      const organizationId = organizationOf(principal);
      const recordId = await recordIdOf(organizationId, body.record_id);
      const refuseWhileUnacknowledged = async (n: number) => {
        if (body.decision === 'RELEASED' && n > 0) {
          const message = unacknowledgedReleaseMessage(n);
          throw new AppError('CONFLICT', message, { decision: message });
        }
      };
      await refuseWhileUnacknowledged(await repo.countUnacknowledged(db, organizationId, recordId));
      await notifications.verifySignaturePassword(
        app,
        principal,
        body.password,
        ctx.clientIp,
        ctx.deviceCookie,
      );
      const at = new Date();
      const clientType = body.client_type ?? 'WEB';
      await db.transaction(async (tx) => {
        await lockRecordsForRecompute(tx, organizationId, [recordId]);
        await refuseWhileUnacknowledged(
          await repo.countUnacknowledged(tx, organizationId, recordId),
        );
        const [previous] = await repo.history(tx, organizationId, recordId);
        const row = await repo.insert(tx, {
          organizationId,
          recordId,
          decision: body.decision,
          comment: body.comment,
          meaning: body.meaning,
          userId: principal.user.id,
          printedName: printedName(principal.user),
          signedAt: at,
          clientType,
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
              reason: `${SIGNATURE_MEANING_LABELS[body.meaning]}: ${DISPOSITION_DECISION_LABELS[body.decision]}: ${body.comment}`,
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
      return recordsService.record(principal, body.record_id);
    },
  };
}
