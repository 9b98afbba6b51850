import type {
  TAlarmAcknowledgeUpload,
  TAlarmDismissUpload,
  TExcursionAlarm,
} from '@coldtrace/contract';
import type { Database } from '../../db/client';
import { AppError } from '../../http/errors';
import type { Principal } from '../auth/principal';
import { recomputeRecord } from '../ingest';
import { presentAlarm } from '../records/presenter';
import * as repo from './repository';

/**
 * Acknowledging and dismissing alarms (docs/decisions/alarm-actions.md).
 * Everything works in the principal's organization: an id of another
 * organization answers 404 naming the list it came in, never data.
 */

function organizationOf(principal: Principal): string {
  if (principal.organizationId === null) {
    throw new AppError('FORBIDDEN', 'You are not a member of any organization.');
  }
  return principal.organizationId;
}

function notFound(field: 'record_ids' | 'alarm_ids', missing: readonly string[]): AppError {
  const what = field === 'record_ids' ? 'Record' : 'Alarm';
  const names = missing.map((id) => `'${id}'`).join(', ');
  const message =
    missing.length === 1 ? `${what} ${names} not found` : `${what}s ${names} not found`;
  return new AppError('NOT_FOUND', message, { [field]: message });
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
    if (missing.length > 0) throw notFound('record_ids', missing);
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
  if (missing.length > 0) throw notFound('alarm_ids', missing);
  return {
    scope: { kind: 'alarms', alarmIds: texts.map(Number) },
    recordIds: [...new Set(found.map((a) => a.recordId))],
  };
}

export function createAlarmsService(db: Database) {
  return {
    /**
     * Acknowledges the covered alarms that are not acknowledged yet: who,
     * when (server time), comment (trimmed by the schema), client type.
     */
    async acknowledge(
      principal: Principal,
      body: TAlarmAcknowledgeUpload,
    ): Promise<TExcursionAlarm[]> {
      const organizationId = organizationOf(principal);
      const { scope } = await resolveScope(db, organizationId, body);
      await repo.acknowledge(db, organizationId, scope, {
        userId: principal.user.id,
        at: new Date(),
        comment: body.comment,
        clientType: body.client_type,
      });
      const rows = await repo.listCovered(db, organizationId, scope);
      return rows.map(presentAlarm);
    },

    /**
     * Dismisses the covered alarms for the organization, then recomputes
     * their records (computed_status leaves dismissed alarms out), in one
     * transaction with the records locked as an upload locks them.
     */
    async dismiss(principal: Principal, body: TAlarmDismissUpload): Promise<TExcursionAlarm[]> {
      const organizationId = organizationOf(principal);
      const { scope, recordIds } = await resolveScope(db, organizationId, body);
      const now = new Date();
      await db.transaction(async (tx) => {
        const locked = await repo.lockRecords(tx, organizationId, recordIds);
        const changed = await repo.dismiss(tx, organizationId, scope, {
          userId: principal.user.id,
          at: now,
        });
        if (changed === 0) return;
        for (const record of locked) await recomputeRecord(tx, record, { now });
      });
      const rows = await repo.listCovered(db, organizationId, scope);
      return rows.map(presentAlarm);
    },
  };
}
