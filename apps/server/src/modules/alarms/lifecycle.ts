import {
  pointTime,
  reconcileAlarms,
  type AlarmKeyFields,
  type DetectedAlarm,
  type Series,
  type StoredAlarmLike,
} from '@coldtrace/domain';
import {
  ALARM_CLOSE_CAUSE_LABELS,
  type TAlarmCloseCause,
  type TSecondFactorKind,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AlarmRow, RecordRow } from '../../db/schema-shipments';
import { AppError } from '../../kernel/errors';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../kernel/audit';
import { asStoredTime, toDate, toSeconds } from '../../kernel/series-times';
import * as repo from './lifecycle-repository';
import {
  absorbedAlarms,
  bySurvivor,
  closeSuperseded,
  closeSupersededSql,
  survivingRuns,
  type SupersededAlarm,
} from './merged';

export type { SupersededAlarm } from './merged';

/**
 * The lifecycle of an alarm (docs/decisions/alarm-lifecycle.md), the one home
 * of raising, updating and closing: the excursions a recomputation of a record
 * found (ingest's `recomputeRecord`, which calls these steps) reconciled with
 * the open alarms (updated in place, new ones inserted, ones that stopped
 * holding closed for good with cause, reason, who and when; never deleted,
 * never reopened; acknowledgement and dismissal never touched), and the audit
 * entries and signatures of raising and closing. The alarms table's writes
 * are `lifecycle-repository.ts` (acknowledging and dismissing: `repository.ts`).
 */

/**
 * Where the lifecycle queues its writes: the recomputation's unit of work
 * (ingest's `UploadWrites`), sent with the record's other writes in one statement.
 */
export interface QueuedWrites {
  addDerived(statement: SQL): void;
}

/** The trip window the excursions were evaluated over (seconds; null: not begun / in transit). */
export interface TripWindow {
  begin: number | null;
  end: number | null;
}

/**
 * A person's change that re-evaluates a record (thresholds, product, trip
 * times, geo-fence, a travel location): it names the cause and carries the
 * reason for change; alarms it closes are closed by that person, with that
 * reason, and only when the change is signed (else SIGNATURE_REQUIRED and the
 * transaction rolls back: nothing is stored).
 */
export interface AlarmChange {
  cause: TAlarmCloseCause;
  actor: AuditActor & { userId: string };
  reason: string | null;
  requestId?: string | null;
  /** The change's signature (password verified by the caller); null: not signed. */
  signature: {
    printedName: string;
    meaning: TSignatureMeaning;
    clientType: string;
    /** The second factor given with the password (issue 37 item 7); null or absent: none. */
    secondFactor?: TSecondFactorKind | null;
  } | null;
}

type StoredAlarm = StoredAlarmLike & { readonly row: AlarmRow };
/** An excursion or cumulative alarm (not no_data, not budget): what re-evaluation reconciles. */
type ExcursionRow = AlarmRow & { kind: 'excursion' | 'cumulative' };
const isExcursion = (row: AlarmRow): row is ExcursionRow =>
  row.kind === 'excursion' || row.kind === 'cumulative';

function storedAlarm(row: ExcursionRow, series: Series, started: boolean): StoredAlarm {
  const time = (value: Date | null, index: number) =>
    value !== null
      ? value.getTime() / 1000
      : started
        ? null
        : asStoredTime(pointTime(series, index));
  return {
    row,
    kind: row.kind,
    above_or_below: row.aboveOrBelow,
    first_point_idx: row.firstPointIdx,
    last_point_idx: row.lastPointIdx,
    start_time: time(row.startTime, row.firstPointIdx) ?? undefined,
    end_time: time(row.endTime, row.lastPointIdx) ?? undefined,
    duration: row.duration,
    degree_minutes: row.degreeMinutes,
    highest_recorded_temperature: row.highestRecordedTemperature ?? undefined,
    lowest_recorded_temperature: row.lowestRecordedTemperature ?? undefined,
    high_threshold: row.highThreshold,
    low_threshold: row.lowThreshold,
    threshold: (row.aboveOrBelow === 'ABOVE' ? row.highThreshold : row.lowThreshold) ?? undefined,
    number_of_points: row.numberOfPoints,
    resolved: row.state === 'CLOSED',
  };
}

/** The evaluated columns of an alarm row. */
function alarmColumns(alarm: DetectedAlarm, started: boolean) {
  return {
    lastPointIdx: alarm.last_point_idx,
    degreeMinutes: alarm.degree_minutes,
    startTime: started ? toDate(alarm.start_time) : null,
    endTime: started ? toDate(alarm.end_time) : null,
    duration: alarm.duration,
    highThreshold: alarm.high_threshold,
    lowThreshold: alarm.low_threshold,
    highestRecordedTemperature: alarm.highest_recorded_temperature,
    lowestRecordedTemperature: alarm.lowest_recorded_temperature,
    numberOfPoints: alarm.number_of_points,
  };
}

const utcMinute = (date: Date | null) =>
  date === null ? null : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The system's explanation of an alarm it closed (no person's change). */
function systemReason(cause: TAlarmCloseCause, begin: Date | null, end: Date | null): string {
  if (cause === 'TRIP_WINDOW') {
    const window =
      begin === null
        ? 'the trip has not begun'
        : `the trip window is ${utcMinute(begin)} to ${utcMinute(end) ?? 'now (in transit)'}`;
    return `The excursion lies outside the trip window: ${window}.`;
  }
  return 'The uploaded data no longer shows this excursion.';
}

/** What {@link evaluateAlarms} decided. */
export interface EvaluatedAlarms {
  /** New alarms, inserted by {@link insertAlarmsSql} as the last statement of the writes. */
  insert: DetectedAlarm[];
  updated: number;
  /** The open alarms that stopped holding, closed (queued), superseded ones included. */
  closing: AlarmRow[];
  /**
   * Those of `closing` a grown run absorbed (an upload, cause MERGED): closed with
   * `superseded_by` their survivor; those whose survivor is raised now are closed
   * by {@link auditAlarms}, once its id is known.
   */
  superseded: SupersededAlarm[];
  cause: TAlarmCloseCause;
  closeReason: string;
  /** The alarms that hold (open), for the record's status. */
  holding: { dismissed: boolean }[];
  /** Open no_data alarms closed because data arrived again (cause DATA_RESUMED; queued). */
  resumed: AlarmRow[];
  /** Open budget alarms whose band is no longer used up, each with its reason (queued). */
  budgetClosed: { row: AlarmRow; reason: string }[];
}

/** The reason of a no_data alarm closed by new data (docs/decisions/no-data-alarm.md). */
const DATA_RESUMED_REASON = 'Data arrived again; the gap stays in the series.';

/** What {@link evaluateAlarms} reconciles. */
export interface AlarmEvaluation {
  /** The series' times (its start, delay and interval). */
  series: Series;
  started: boolean;
  trip: TripWindow;
  /** The alarms found (step "series"). */
  detected: readonly DetectedAlarm[];
  openAlarms: readonly AlarmRow[];
  /** The open alarms `detected` is reconciled with; the others hold as stored. */
  inScope: (alarm: AlarmKeyFields) => boolean;
  change: AlarmChange | undefined;
  now: Date;
  /** The series gained points in this evaluation: open no_data alarms close (DATA_RESUMED). */
  dataArrived?: boolean;
  /** Stability budget alarms to raise and to close (the budget module's step "budget"). */
  budget?: {
    raise: readonly DetectedAlarm[];
    closing: readonly { row: AlarmRow; reason: string }[];
  };
}

/** A detected alarm with its times as stored. */
const withStoredTimes = (alarm: DetectedAlarm): DetectedAlarm => ({
  ...alarm,
  start_time: asStoredTime(alarm.start_time),
  end_time: asStoredTime(alarm.end_time),
});

/**
 * The open alarms by what happens to them: excursions in scope (reconciled), those
 * out of scope (final, they hold), no-data alarms closed by new data (resumed) or
 * held (silent), and the budget alarms the budget step closes, holds or raises.
 */
function sortOpenAlarms(input: AlarmEvaluation) {
  const existing: StoredAlarm[] = [];
  const final: AlarmRow[] = [];
  // No-data alarms are not excursions: never reconciled, closed only by new data.
  const noData = input.openAlarms.filter((row) => row.kind === 'no_data');
  const resumed = input.dataArrived ? noData : [];
  const silent = input.dataArrived ? [] : noData;
  for (const row of input.openAlarms.filter(isExcursion)) {
    const alarm = storedAlarm(row, input.series, input.started);
    if (input.inScope(alarm)) existing.push(alarm);
    else final.push(row);
  }
  // Budget alarms are not excursions either: raised and closed by the budget step only.
  const budgetClosed = [...(input.budget?.closing ?? [])];
  const closingBudget = new Set(budgetClosed.map((c) => c.row.id));
  const budgetHeld = input.openAlarms.filter(
    (row) => row.kind === 'budget' && !closingBudget.has(row.id),
  );
  const budgetRaised = (input.budget?.raise ?? []).map(withStoredTimes);
  return { existing, final, resumed, silent, budgetClosed, budgetHeld, budgetRaised };
}

/** Closing alarms needs the signature of the person whose change closes them: 400 otherwise. */
function requireCloseSignature(closing: number, change: AlarmChange | undefined): void {
  if (closing > 0 && change !== undefined && change.signature === null) {
    const message = `This change closes ${closing} alarm${closing === 1 ? '' : 's'}: sign it with your password and its meaning`;
    throw new AppError('SIGNATURE_REQUIRED', message, { password: message });
  }
}

/** The closings, queued: absorbed runs with their survivor, the others with the cause and reason. */
function queueClosings(
  db: Db,
  writes: QueuedWrites,
  input: AlarmEvaluation,
  closed: Pick<EvaluatedAlarms, 'closing' | 'superseded' | 'cause' | 'closeReason' | 'resumed'> &
    Pick<EvaluatedAlarms, 'budgetClosed'>,
): void {
  const { change, now } = input;
  const { closing, superseded, cause, closeReason, resumed, budgetClosed } = closed;
  const absorbed = new Set(superseded.map((s) => s.row.id));
  for (const [survivorId, ids] of bySurvivor(superseded, null)) {
    writes.addDerived(closeSupersededSql(db, ids, survivorId, now)!);
  }
  const statements = [
    repo.closeAlarmsSql(
      db,
      closing.filter((row) => !absorbed.has(row.id)).map((row) => row.id),
      {
        closedAt: now,
        closedByUserId: change?.actor.userId ?? null,
        closeCause: cause,
        closeReason,
      },
    ),
    repo.closeAlarmsSql(
      db,
      resumed.map((row) => row.id),
      {
        closedAt: now,
        closedByUserId: null,
        closeCause: 'DATA_RESUMED',
        closeReason: DATA_RESUMED_REASON,
      },
    ),
    ...budgetClosed.map(({ row, reason }) =>
      repo.closeAlarmsSql(db, [row.id], {
        closedAt: now,
        closedByUserId: change?.actor.userId ?? null,
        closeCause: change?.cause ?? 'BUDGET_CHANGE',
        closeReason: change?.reason ?? reason,
      }),
    ),
  ];
  for (const statement of statements) if (statement) writes.addDerived(statement);
}

/**
 * Step "alarms" of the recomputation: the excursions found over the
 * evaluation window (the trip window when the trip began; ingest's step "series",
 * ingest/aggregates.ts) reconciled with the open alarms in scope (all of them after
 * a full recompute; after an append, those the new points can change: the
 * others are final and hold as stored). Updates and closings are queued in `writes`; the new alarms are
 * answered (their insert goes last: {@link insertAlarmsSql}). Alarms that
 * stopped holding close for good: by the person whose signed change did it
 * (unsigned: 400 SIGNATURE_REQUIRED, nothing stored), else by the system.
 */
export function evaluateAlarms(
  db: Db,
  writes: QueuedWrites,
  record: RecordRow,
  input: AlarmEvaluation,
): EvaluatedAlarms {
  const { started, trip, change } = input;
  const detected = input.detected.map(withStoredTimes);
  const open = sortOpenAlarms(input);
  const { final, resumed, silent, budgetClosed, budgetHeld, budgetRaised } = open;
  const plan = reconcileAlarms(open.existing, detected);
  for (const update of plan.update) {
    const next = update.next as unknown as DetectedAlarm;
    writes.addDerived(repo.updateAlarmSql(db, update.existing.row.id, alarmColumns(next, started)));
  }
  const closing = plan.resolved.map((alarm) => alarm.row);
  requireCloseSignature(closing.length + budgetClosed.length, change);
  const tripMoved =
    toSeconds(record.tripBeginTime) !== trip.begin || toSeconds(record.tripEndTime) !== trip.end;
  const cause: TAlarmCloseCause = change?.cause ?? (tripMoved ? 'TRIP_WINDOW' : 'DATA_CHANGE');
  const closeReason = change?.reason ?? systemReason(cause, toDate(trip.begin), toDate(trip.end));
  // Only the data's own change merges runs: a person's change or a moved trip window closes as before.
  const superseded = cause === 'DATA_CHANGE' ? absorbedAlarms(closing, survivingRuns(plan)) : [];
  queueClosings(db, writes, input, {
    closing,
    superseded,
    cause,
    closeReason,
    resumed,
    budgetClosed,
  });
  const holding = [
    ...budgetHeld.map((row) => ({ dismissed: row.dismissed })),
    ...budgetRaised.map(() => ({ dismissed: false })),
    ...final.map((row) => ({ dismissed: row.dismissed })),
    ...silent.map((row) => ({ dismissed: row.dismissed })),
    ...plan.unchanged.map((a) => ({ dismissed: a.row.dismissed })),
    ...plan.update.map((u) => ({ dismissed: u.existing.row.dismissed })),
    ...plan.insert.map(() => ({ dismissed: false })),
  ];
  return {
    insert: [...plan.insert, ...budgetRaised],
    updated: plan.update.length,
    closing,
    superseded,
    cause,
    closeReason,
    holding,
    resumed,
    budgetClosed,
  };
}

/** The insert of the new alarms (answering their ids); null: none. */
export function insertAlarmsSql(
  db: Db,
  record: RecordRow,
  alarms: readonly DetectedAlarm[],
  started: boolean,
  now: Date,
) {
  return repo.insertAlarmsSql(
    db,
    alarms.map((alarm) => ({
      organizationId: record.organizationId,
      recordId: record.id,
      tagId: record.tagId,
      tagSerialNumber: record.tagSerialNumber,
      kind: alarm.kind,
      aboveOrBelow: alarm.above_or_below,
      firstPointIdx: alarm.first_point_idx,
      ...alarmColumns(alarm, started),
      created: now,
    })),
  );
}

/** What {@link auditAlarms} audits. */
export interface AlarmAudit {
  raised: readonly number[];
  closed: readonly AlarmRow[];
  /** No-data alarms closed by new data (audited by the system, cause DATA_RESUMED). */
  resumed?: readonly AlarmRow[];
  /** Budget alarms whose band is no longer used up: a person's change closes them like `closed`. */
  budgetClosed?: readonly { row: AlarmRow; reason: string }[];
  /** Those of `closed` a grown run absorbed ({@link EvaluatedAlarms.superseded}). */
  superseded?: readonly SupersededAlarm[];
  cause: TAlarmCloseCause;
  closeReason: string;
  change: AlarmChange | undefined;
  requestId: string | null;
  at: Date;
}

/** The CLOSE signatures of a signed change, one per alarm it closed. */
async function signClosings(
  db: Db,
  record: RecordRow,
  closedAlarms: readonly AlarmRow[],
  what: AlarmAudit,
): Promise<void> {
  const change = what.change;
  if (!change?.signature || closedAlarms.length === 0) return;
  const signature = change.signature;
  await repo.insertCloseSignatures(
    db,
    closedAlarms.map((alarm) => ({
      organizationId: record.organizationId,
      alarmId: alarm.id,
      recordId: record.id,
      userId: change.actor.userId,
      printedName: signature.printedName,
      signedAt: what.at,
      meaning: signature.meaning,
      comment: what.closeReason,
      clientType: signature.clientType,
      secondFactor: signature.secondFactor ?? null,
    })),
  );
}

/**
 * The audit entries of raised and closed alarms (`alarm.raise`, `alarm.close`),
 * and the CLOSE signatures of a signed change. One statement each, only when
 * something was raised or closed.
 */
export async function auditAlarms(db: Db, record: RecordRow, what: AlarmAudit): Promise<void> {
  const base = { entityType: 'alarm', recordId: record.id, field: 'state' } as const;
  const budgetClosed = what.budgetClosed ?? [];
  const superseded = what.superseded ?? [];
  const absorbed = new Set(superseded.map((s) => s.row.id));
  const closedAlone = what.closed.filter((row) => !absorbed.has(row.id));
  // Closed by a person's change: audited and signed as that change; else by the system, with the band's reason.
  const closedAlarms = what.change
    ? [...closedAlone, ...budgetClosed.map((c) => c.row)]
    : closedAlone;
  const context = (actor: AuditActor) => ({
    organizationId: record.organizationId,
    actor,
    requestId: what.requestId,
  });
  const close = (id: number, reason: string) => ({
    ...base,
    action: 'alarm.close',
    entityId: id,
    oldValue: 'OPEN',
    newValue: 'CLOSED',
    reason,
  });
  await recordAudit(
    db,
    context(SYSTEM_ACTOR),
    what.raised.map((id) => ({ ...base, action: 'alarm.raise', entityId: id, newValue: 'OPEN' })),
  );
  const reason = `${ALARM_CLOSE_CAUSE_LABELS[what.cause]}: ${what.closeReason}`;
  await recordAudit(
    db,
    context(what.change?.actor ?? SYSTEM_ACTOR),
    closedAlarms.map((alarm) => close(alarm.id, reason)),
  );
  await recordAudit(
    db,
    context(SYSTEM_ACTOR),
    (what.change ? [] : budgetClosed).map(({ row, reason: why }) =>
      close(row.id, `${ALARM_CLOSE_CAUSE_LABELS.BUDGET_CHANGE}: ${why}`),
    ),
  );
  await recordAudit(
    db,
    context(SYSTEM_ACTOR),
    (what.resumed ?? []).map((alarm) =>
      close(alarm.id, `${ALARM_CLOSE_CAUSE_LABELS.DATA_RESUMED}: ${DATA_RESUMED_REASON}`),
    ),
  );
  await closeSuperseded(db, record, superseded, what.raised, what.at, context(SYSTEM_ACTOR));
  await signClosings(db, record, closedAlarms, what);
}
