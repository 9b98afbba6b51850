import { ALARM_CLOSE_CAUSE_LABELS } from '@coldtrace/contract';
import type { AlarmReconciliation, StoredAlarmLike } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { AlarmRow, RecordRow } from '../../db/schema-shipments';
import { recordAudit } from '../../kernel/audit';
import { clearForAlarms } from '../notifications';
import * as repo from './lifecycle-repository';

/**
 * Alarms a grown run absorbed (issue 35 item 4, docs/decisions/alarm-lifecycle.md,
 * "Merged"): a late upload joins two runs into one; the alarm of the run that went
 * into the other closes with cause MERGED and `superseded_by` the alarm holding the
 * run now, its bell items go, and acknowledging the survivor covers it
 * (`service.ts`). A step of the lifecycle (`lifecycle.ts`).
 */

/**
 * An alarm a grown run absorbed (docs/decisions/alarm-lifecycle.md, "Merged"):
 * closed with cause MERGED and `superseded_by` the alarm that holds the run now,
 * an open alarm (its id) or one this evaluation raises (its place in `insert`).
 */
export interface SupersededAlarm {
  row: AlarmRow;
  survivor: { id: number } | { insert: number };
}

/** The reason of an alarm merged into a longer one. */
const mergedReason = (survivorId: number) =>
  `A late upload joined this excursion to a longer one: it continues as alarm ${survivorId}.`;

interface Run {
  kind: string;
  direction: string;
  first: number;
  last: number;
}

/**
 * The alarms among `closing` that a detected run now holds whole (same kind and
 * direction, its points inside the run): a late packet merged them into it.
 * Excursions only (a cumulative alarm is not a run).
 */
export function absorbedAlarms(
  closing: readonly AlarmRow[],
  survivors: readonly (Run & { survivor: SupersededAlarm['survivor'] })[],
): SupersededAlarm[] {
  const out: SupersededAlarm[] = [];
  for (const row of closing) {
    if (row.kind !== 'excursion') continue;
    const by = survivors.find(
      (s) =>
        s.kind === row.kind &&
        s.direction === row.aboveOrBelow &&
        s.first <= row.firstPointIdx &&
        row.lastPointIdx <= s.last,
    );
    if (by) out.push({ row, survivor: by.survivor });
  }
  return out;
}

/** The runs that hold after this evaluation, each with the alarm that will carry it. */
export function survivingRuns(
  plan: AlarmReconciliation<StoredAlarmLike & { readonly row: AlarmRow }>,
): (Run & { survivor: SupersededAlarm['survivor'] })[] {
  const held = [...plan.update.map((u) => u.next), ...plan.unchanged].map((a) => ({
    kind: a.kind,
    direction: a.above_or_below,
    first: a.first_point_idx,
    last: a.last_point_idx ?? a.first_point_idx,
    survivor: { id: a.row.id },
  }));
  const raised = plan.insert.map((a, index) => ({
    kind: a.kind,
    direction: a.above_or_below,
    first: a.first_point_idx,
    last: a.last_point_idx,
    survivor: { insert: index },
  }));
  return [...held, ...raised];
}

/** Close alarms merged into one survivor (cause MERGED, `superseded_by`), as a statement; null: none. */
export function closeSupersededSql(db: Db, ids: readonly number[], survivorId: number, at: Date) {
  return repo.closeAlarmsSql(db, ids, {
    closedAt: at,
    closedByUserId: null,
    closeCause: 'MERGED',
    closeReason: mergedReason(survivorId),
    supersededBy: survivorId,
  });
}

/** The superseded alarms grouped by the id of their survivor (`raised`: the ids of `insert`). */
export function bySurvivor(
  superseded: readonly SupersededAlarm[],
  raised: readonly number[] | null,
): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const { row, survivor } of superseded) {
    const id = 'id' in survivor ? survivor.id : raised?.[survivor.insert];
    if (id === undefined) continue;
    groups.set(id, [...(groups.get(id) ?? []), row.id]);
  }
  return groups;
}

/**
 * The superseded alarms' part of the audit step: those whose survivor was raised
 * now are closed (its id is known once the insert ran; same transaction), each is
 * audited `alarm.close` (System, cause MERGED, naming its survivor), and every
 * user's bell item of them is dismissed (the rows stay): the survivor's carries on.
 */
export async function closeSuperseded(
  db: Db,
  record: RecordRow,
  superseded: readonly SupersededAlarm[],
  raised: readonly number[],
  at: Date,
  context: Parameters<typeof recordAudit>[1],
): Promise<void> {
  if (superseded.length === 0) return;
  const pending = superseded.filter((s) => 'insert' in s.survivor);
  for (const [survivorId, ids] of bySurvivor(pending, raised)) {
    await db.execute(closeSupersededSql(db, ids, survivorId, at)!);
  }
  const groups = bySurvivor(superseded, raised);
  await recordAudit(
    db,
    context,
    [...groups].flatMap(([survivorId, ids]) =>
      ids.map((id) => ({
        entityType: 'alarm',
        recordId: record.id,
        field: 'state',
        action: 'alarm.close',
        entityId: id,
        oldValue: 'OPEN',
        newValue: 'CLOSED',
        reason: `${ALARM_CLOSE_CAUSE_LABELS.MERGED}: ${mergedReason(survivorId)}`,
      })),
    ),
  );
  await clearForAlarms(
    db,
    record.organizationId,
    superseded.map((s) => s.row.id),
    at,
  );
}
