import { computedStatus, recordStatus, summaryOf, type RunningAggregates } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import {
  publishAlarmsClosed,
  publishAlarmsRaised,
  publishTripChange,
  type AlarmEventSender,
} from '../../jobs/catalogue';
import {
  auditAlarms,
  evaluateAlarms,
  insertAlarmsSql,
  type AlarmChange,
  type EvaluatedAlarms,
} from '../alarms';
import { evaluateBudgetAlarms } from '../budget';
import { evaluateSeries } from './aggregates';
import { changedFields, seriesOf, toDate } from './record-series';
import { evaluateTrip, type EvaluatedTrip } from './reevaluate-trip';
import * as repo from './repository';
import { type RecordStateView, UploadWrites } from './upload-writes';

/**
 * Everything about a record that follows from its series, its uploads and its
 * settings, recomputed in one place (on every upload that changes something,
 * on threshold and trip edits): the temperature summary over the whole series,
 * the trip (geo-fence detection unless edited by hand, from the inputs kept
 * with the record), the alarms over the evaluation window (open ones updated
 * in place, new ones inserted, ones that stopped holding closed for good with
 * cause, reason, who and when; never deleted, never reopened; acknowledgement
 * and dismissal never touched; raising and closing audited), the
 * record status, the latest scan / action / position, the tag status and the
 * tag's running flag. Run it in the transaction that holds the record's lock.
 * It writes only what changed, so a replay changes nothing.
 */

export { changedFields, recordInterval, seriesOf, thresholdsOf } from './record-series';
export type { AlarmChange } from '../alarms';
export { DEFAULT_GEO_FENCE } from './reevaluate-trip';

export interface RecomputeOptions {
  /** A person's change caused this evaluation (see {@link AlarmChange}); absent: an upload or the system. */
  change?: AlarmChange;
  /** The request's id, written with the audit entries of raised and closed alarms. */
  requestId?: string | null;
  /** The series gained points in this transaction (temps_last_updated moves). */
  seriesChanged?: boolean;
  /**
   * Recompute over the whole series even where folding the new points into
   * the running aggregates would do (tests compare the two).
   */
  full?: boolean;
  now?: Date;
  /**
   * The upload's unit of work: the writes it queued (series chunks, scan,
   * action, location sample) and the record's state with them, read in this
   * transaction. The recomputation reads nothing else and sends its own
   * writes with the queued ones, in one statement. Absent: the state is read.
   */
  writes?: UploadWrites;
  /**
   * Where newly raised alarms are announced (the `alarm.raised` job, sent in
   * this transaction); null only where nobody is to be notified (the demo
   * records seeded at first start).
   */
  jobs: AlarmEventSender | null;
}

export interface RecomputeResult {
  record: RecordRow;
  alarmsInserted: number;
  alarmsUpdated: number;
  alarmsResolved: number;
  /** The alarms this evaluation closed. */
  closedAlarmIds: number[];
}

/**
 * Recompute the record (locked by the caller) and its tag's state; see the
 * module comment. The steps, in order: the record's state (read unless the
 * caller holds it), the temperature summary, the trip, the alarms, the
 * status and latest activity, then every write in one statement, the audit
 * entries, and the events. Round trips: one read of the record's state (none
 * when the caller passes it), one for the trip's locations when the record
 * has an origin or destination, one statement for every write (the caller's
 * queued ones included), and the jobs announcing new alarms or trip events.
 */
export async function recomputeRecord(
  db: Db,
  record: RecordRow,
  options: RecomputeOptions,
): Promise<RecomputeResult> {
  const now = options.now ?? new Date();
  // Step "state": the upload's unit of work holds it; otherwise it is read now
  // (no series chunks: a full recompute reads them when it needs them).
  const writes = options.writes ?? (await UploadWrites.open(db, record, false, 'none'));
  const state = writes.state;
  const started = record.startTimeSeconds !== null;

  const trip = await evaluateTrip(db, record, state.samples);
  // Step "series": the running aggregates, folded or recomputed (aggregates.ts).
  const evaluated = await evaluateSeries(writes, record, { trip, started, full: options.full });
  const summary = summaryColumns(evaluated.state.current, started);
  // Step "budget": the stability budget across the shipment's legs (one read when the record names a product).
  const budget = await evaluateBudgetAlarms(db, record, evaluated.state.current, state.alarms);
  const alarms = evaluateAlarms(db, writes, record, {
    series: seriesOf(record, []),
    started,
    trip,
    detected: evaluated.detected,
    openAlarms: state.alarms,
    inScope: evaluated.inScope,
    change: options.change,
    now,
    dataArrived: options.seriesChanged === true,
    budget,
  });
  const next: Partial<RecordRow> = {
    ...summary,
    ...tripColumns(trip),
    ...statusColumns(record, state, alarms, summary.lastPoint),
  };
  if (options.seriesChanged) next.tempsLastUpdated = now;

  const { updated, raised } = await writeAll(db, writes, record, next, alarms, started, now);
  const change = options.change;
  await auditAlarms(db, record, {
    raised,
    closed: alarms.closing,
    resumed: alarms.resumed,
    budgetClosed: alarms.budgetClosed,
    superseded: alarms.superseded,
    cause: alarms.cause,
    closeReason: alarms.closeReason,
    change,
    requestId: change?.requestId ?? options.requestId ?? null,
    at: now,
  });
  await publishEvents(db, options.jobs, record, updated, raised, now);
  const closedIds = [
    ...alarms.closing,
    ...alarms.resumed,
    ...alarms.budgetClosed.map((c) => c.row),
  ].map((row) => row.id);
  if (options.jobs) await publishAlarmsClosed(options.jobs, db, record, closedIds, now);
  return {
    record: updated,
    alarmsInserted: alarms.insert.length,
    alarmsUpdated: alarms.updated,
    alarmsResolved: closedIds.length,
    closedAlarmIds: closedIds,
  };
}

/** Step "summary": the temperature summary over the whole series, and the latest temperature. */
function summaryColumns(aggregates: RunningAggregates, started: boolean) {
  const summary = summaryOf(aggregates);
  return {
    highestRecordedTemperature: summary.highest_recorded_temperature,
    lowestRecordedTemperature: summary.lowest_recorded_temperature,
    meanKineticTemp: summary.mean_kinetic_temp,
    firstPoint: started ? toDate(summary.first_point) : null,
    lastPoint: started ? toDate(summary.last_point) : null,
    numberOfPoints: summary.number_of_points,
    seriesLength: aggregates.length,
    recordDuration: summary.record_duration,
    latestTemp: aggregates.latest,
  } satisfies Partial<RecordRow>;
}

/** The trip's columns (step "trip" is {@link evaluateTrip}). */
function tripColumns(trip: EvaluatedTrip) {
  return {
    tripBeginTime: toDate(trip.begin),
    tripEndTime: toDate(trip.end),
    tripStatus: trip.status,
    tripInputs: trip.inputs,
  } satisfies Partial<RecordRow>;
}

/**
 * Step "status and tag state": the record's status from the alarms that
 * hold, the latest scan, action and position (never the unknown sentinels:
 * samples hold known positions only), and the tag's status.
 */
function statusColumns(
  record: RecordRow,
  state: RecordStateView,
  alarms: EvaluatedAlarms,
  lastPoint: Date | null,
) {
  const lastSample = state.samples.at(-1);
  const candidates = [state.lastActionAt, state.lastScan?.timestamp ?? null, lastPoint];
  const lastActionTaken = candidates.reduce<Date | null>(
    (latest, d) => (d !== null && (latest === null || d > latest) ? d : latest),
    null,
  );
  const started = record.startTimeSeconds !== null;
  const tagStatus =
    !record.active || record.stopTime !== null
      ? 'XT1_IDLE'
      : started
        ? 'XT1_ACTIVE'
        : 'XT1_PENDING';
  return {
    status: recordStatus(alarms.holding),
    computedStatus: computedStatus(alarms.holding),
    lastScanned: state.lastScan?.timestamp ?? null,
    lastScannedUserId: state.lastScan?.userId ?? null,
    lastActionTaken,
    lastLatitude: lastSample?.latitude ?? null,
    lastLongitude: lastSample?.longitude ?? null,
    tagStatus,
  } satisfies Partial<RecordRow>;
}

/**
 * Step "writes": the record's changed fields (only when something changed),
 * the tag's running flag and latest record, and the new alarms, queued after
 * everything the caller and the alarm step queued, all sent as one statement;
 * the new alarms' ids come back from it.
 */
async function writeAll(
  db: Db,
  writes: UploadWrites,
  record: RecordRow,
  next: Partial<RecordRow>,
  alarms: EvaluatedAlarms,
  started: boolean,
  now: Date,
): Promise<{ updated: RecordRow; raised: number[] }> {
  const patch = changedFields(record, next);
  const alarmsChanged =
    alarms.insert.length > 0 ||
    alarms.updated > 0 ||
    alarms.closing.length > 0 ||
    alarms.resumed.length > 0 ||
    alarms.budgetClosed.length > 0;
  let updated = record;
  if (Object.keys(patch).length > 0 || alarmsChanged) {
    // The row as the update leaves it (only columns of plain values change).
    updated = { ...record, ...patch, lastModified: now };
    writes.addDerived(repo.updateRecordSql(db, record.id, { ...patch, lastModified: now }));
  }
  writes.addDerived(repo.refreshTagStateSql(record.tagId));
  const inserts = insertAlarmsSql(db, record, alarms.insert, started, now);
  const rows = await writes.run<{ id: string | number }>(inserts);
  const raised = inserts ? rows.map((r) => Number(r.id)) : [];
  return { updated, raised };
}

/**
 * Step "events", sent in this transaction: the alarms raised (`alarm.raised`:
 * the bell and the alarm e-mails), and a departure or arrival (`trip.event`:
 * the Departure / Arrival e-mails). None where nobody is to be notified.
 */
async function publishEvents(
  db: Db,
  jobs: AlarmEventSender | null,
  record: RecordRow,
  updated: RecordRow,
  raised: number[],
  now: Date,
): Promise<void> {
  if (jobs === null) return;
  if (raised.length > 0) {
    await publishAlarmsRaised(jobs, db, {
      organizationId: record.organizationId,
      recordId: record.id,
      alarmIds: raised,
    });
  }
  await publishTripChange(jobs, db, record, updated, now);
}
