import {
  computedStatus,
  detectExcursions,
  detectTrip,
  effectiveInterval,
  evaluationWindow,
  pointTime,
  reconcileAlarms,
  recordStatus,
  temperatureSummary,
  wholeSeries,
  type AlarmThresholds,
  type DetectedAlarm,
  type GeoFenceSettings,
  type Series,
  type SeriesValue,
  type StoredAlarmLike,
} from '@coldtrace/domain';
import {
  ALARM_CLOSE_CAUSE_LABELS,
  type TAlarmCloseCause,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import type { Db } from '../../db/client';
import type { AlarmRow, RecordRow, TripInputs } from '../../db/schema-shipments';
import { AppError } from '../../http/errors';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/audit';
import {
  publishAlarmsRaised,
  publishTripChange,
  type AlarmEventSender,
} from '../../jobs/catalogue';
import { assembleSeries } from '../series/series-store';
import * as repo from './repository';
import { WriteBatch } from './write-batch';

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

/** Geo-fence defaults of an organization without settings (the table's defaults). */
export const DEFAULT_GEO_FENCE: TripInputs['geo_fence'] = {
  arrival_radius_meters: 1000,
  departure_radius_meters: 1000,
  num_points_to_arrive: 2,
  num_points_to_depart: 2,
};

const toDate = (seconds: number | null): Date | null =>
  seconds === null ? null : new Date(Math.round(seconds * 1000));
const toSeconds = (date: Date | null): number | null =>
  date === null ? null : date.getTime() / 1000;
/** Times as the database keeps them (milliseconds). */
const asStoredTime = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** The interval between points of a record: the calculated one when present, else the nominal one. */
export function recordInterval(record: RecordRow): number {
  return (
    effectiveInterval({
      measurement_interval: record.measurementInterval,
      calculated_measurement_interval: record.calculatedMeasurementInterval,
    }) ?? record.measurementInterval
  );
}

/** The series of a record as the domain functions take it (start 0 while not started). */
export function seriesOf(record: RecordRow, temps: readonly SeriesValue[]): Series {
  return {
    startTimeSeconds: record.startTimeSeconds ?? 0,
    startDelay: record.startDelay,
    intervalSeconds: recordInterval(record),
    temps,
  };
}

/** The alarm settings of a record, as the domain names them. */
export function thresholdsOf(record: RecordRow): AlarmThresholds {
  return {
    high_threshold: record.highThreshold,
    low_threshold: record.lowThreshold,
    num_consecutive_excursions: record.numConsecutiveExcursions,
    cumulative_high_threshold: record.cumulativeHighThreshold,
    cumulative_low_threshold: record.cumulativeLowThreshold,
    cumulative_duration_high: record.cumulativeDurationHigh,
    cumulative_duration_low: record.cumulativeDurationLow,
  };
}

type StoredAlarm = StoredAlarmLike & { readonly row: AlarmRow };

function storedAlarm(row: AlarmRow, series: Series, started: boolean): StoredAlarm {
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

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  return a === b;
}

/** The fields of `next` whose value differs from `current`. */
export function changedFields<T extends object>(current: T, next: Partial<T>): Partial<T> {
  const patch: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (!sameValue(current[key], next[key])) patch[key] = next[key];
  }
  return patch;
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
  signature: { printedName: string; meaning: TSignatureMeaning; clientType: string } | null;
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

/** The trip detection inputs kept with a record still name its current origin and destination. */
function tripInputsCurrent(record: RecordRow): record is RecordRow & { tripInputs: TripInputs } {
  const inputs = record.tripInputs;
  return (
    inputs != null &&
    (inputs.origin?.id ?? null) === record.shipperLocationId &&
    (inputs.destination?.id ?? null) === record.receiverLocationId
  );
}

export interface RecomputeOptions {
  /** A person's change caused this evaluation (see {@link AlarmChange}); absent: an upload or the system. */
  change?: AlarmChange;
  /** The request's id, written with the audit entries of raised and closed alarms. */
  requestId?: string | null;
  /** The series gained points in this transaction (temps_last_updated moves). */
  seriesChanged?: boolean;
  now?: Date;
  /**
   * The record's state as the caller knows it (read in this transaction,
   * with what the caller has queued in `batch` added): nothing is read. The
   * chunks must be all of the record's.
   */
  state?: repo.RecordState;
  /**
   * Writes the caller queued (series chunks, scan, action, location sample):
   * they go to the database with the recomputation's own writes, in one
   * statement. They must not change the records table (the tag's state is
   * derived from it in that statement).
   */
  batch?: WriteBatch;
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
 * module comment. Round trips: one read of the record's state (none when the
 * caller passes it), one for the trip's locations when the record has an
 * origin or destination, one statement for every write (the caller's queued
 * ones included), and the jobs announcing new alarms or trip events.
 */
export async function recomputeRecord(
  db: Db,
  record: RecordRow,
  options: RecomputeOptions,
): Promise<RecomputeResult> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? new WriteBatch();
  let state = options.state;
  if (state === undefined) {
    // What the caller queued must be stored before the record's state is read.
    await batch.flush(db);
    state = await repo.loadRecordState(db, record.id);
  }
  const temps = assembleSeries(state.chunks);
  const series = seriesOf(record, temps);
  const started = record.startTimeSeconds !== null;

  // Temperature summary over the whole series.
  const summary = temperatureSummary(series, wholeSeries(series));
  let latestTemp: number | null = null;
  for (let i = temps.length - 1; i >= 0; i--) {
    const t = temps[i];
    if (t != null) {
      latestTemp = t;
      break;
    }
  }

  // Trip: a manual edit stays; otherwise geo-fence detection over the location samples.
  let trip = {
    begin: toSeconds(record.tripBeginTime),
    end: toSeconds(record.tripEndTime),
    status: record.tripStatus,
  };
  const samples = state.samples;
  let tripInputs: TripInputs | null = record.tripInputs;
  if (!record.tripManual) {
    if (!tripInputsCurrent(record)) {
      // First evaluation, or another origin / destination: the inputs as the settings are now.
      const ids = [record.shipperLocationId, record.receiverLocationId].filter(
        (id): id is number => id !== null,
      );
      const inputs =
        ids.length > 0
          ? await repo.findTripInputs(db, record.organizationId, ids)
          : { locations: [], settings: undefined };
      const byId = new Map(inputs.locations.map((l) => [l.id, l]));
      const place = (id: number | null) => {
        const l = id === null ? undefined : byId.get(id);
        return l ? { id: l.id, latitude: l.latitude, longitude: l.longitude } : null;
      };
      const settings = inputs.settings;
      tripInputs = {
        origin: place(record.shipperLocationId),
        destination: place(record.receiverLocationId),
        // Radii are stored in metres (the unit column is only how they are shown).
        geo_fence: settings
          ? {
              arrival_radius_meters: settings.arrivalRadiusMeters,
              departure_radius_meters: settings.departureRadiusMeters,
              num_points_to_arrive: settings.numPointsToArrive,
              num_points_to_depart: settings.numPointsToDepart,
            }
          : DEFAULT_GEO_FENCE,
      };
    }
    const { origin, destination } = tripInputs!;
    // Without an origin or a destination nothing can be detected: the geo-fence does not matter.
    const geoFence: GeoFenceSettings = {
      ...(origin || destination ? tripInputs!.geo_fence : DEFAULT_GEO_FENCE),
      arrival_radius_units: 'm',
      departure_radius_units: 'm',
    };
    const detected = detectTrip(
      samples.map((s) => ({
        latitude: s.latitude,
        longitude: s.longitude,
        timestamp: s.timestamp.getTime() / 1000,
      })),
      {
        origin: origin ? { latitude: origin.latitude, longitude: origin.longitude } : null,
        destination: destination
          ? { latitude: destination.latitude, longitude: destination.longitude }
          : null,
      },
      geoFence,
    );
    trip = { begin: detected.begin_time, end: detected.end_time, status: detected.trip_status };
  }

  // Alarms over the evaluation window (the trip window when the trip began).
  const window =
    started && series.temps.length > 0
      ? evaluationWindow(series, { begin_time: trip.begin, end_time: trip.end })
      : wholeSeries(series);
  const detected = detectExcursions(series, thresholdsOf(record), window).map((alarm) => ({
    ...alarm,
    start_time: asStoredTime(alarm.start_time),
    end_time: asStoredTime(alarm.end_time),
  }));
  const existing = state.alarms.map((row) => storedAlarm(row, series, started));
  const plan = reconcileAlarms(existing, detected);
  for (const update of plan.update) {
    const next = update.next as unknown as DetectedAlarm;
    batch.add(repo.updateAlarmSql(db, update.existing.row.id, alarmColumns(next, started)));
  }
  // Alarms that stopped holding close for good: by the person whose signed change did it, else by the system.
  const change = options.change;
  const closing = plan.resolved.map((alarm) => alarm.row);
  if (closing.length > 0 && change !== undefined && change.signature === null) {
    const n = closing.length;
    const message = `This change closes ${n} alarm${n === 1 ? '' : 's'}: sign it with your password and its meaning`;
    throw new AppError('SIGNATURE_REQUIRED', message, { password: message });
  }
  const tripMoved =
    toSeconds(record.tripBeginTime) !== trip.begin || toSeconds(record.tripEndTime) !== trip.end;
  const cause: TAlarmCloseCause = change?.cause ?? (tripMoved ? 'TRIP_WINDOW' : 'DATA_CHANGE');
  const closeReason = change?.reason ?? systemReason(cause, toDate(trip.begin), toDate(trip.end));
  const closed = repo.closeAlarmsSql(
    db,
    closing.map((row) => row.id),
    {
      closedAt: now,
      closedByUserId: change?.actor.userId ?? null,
      closeCause: cause,
      closeReason,
    },
  );
  if (closed) batch.add(closed);
  const holding = [
    ...plan.unchanged.map((a) => ({ dismissed: a.row.dismissed })),
    ...plan.update.map((u) => ({ dismissed: u.existing.row.dismissed })),
    ...plan.insert.map(() => ({ dismissed: false })),
  ];

  // Latest scan, action and position (never the unknown sentinels: samples hold known positions only).
  const lastSample = samples.at(-1);
  const lastPoint = started ? toDate(summary.last_point) : null;
  const candidates = [state.lastActionAt, state.lastScan?.timestamp ?? null, lastPoint];
  const lastActionTaken = candidates.reduce<Date | null>(
    (latest, d) => (d !== null && (latest === null || d > latest) ? d : latest),
    null,
  );

  const tagStatus =
    !record.active || record.stopTime !== null
      ? 'XT1_IDLE'
      : started
        ? 'XT1_ACTIVE'
        : 'XT1_PENDING';

  const next: Partial<RecordRow> = {
    highestRecordedTemperature: summary.highest_recorded_temperature,
    lowestRecordedTemperature: summary.lowest_recorded_temperature,
    meanKineticTemp: summary.mean_kinetic_temp,
    firstPoint: started ? toDate(summary.first_point) : null,
    lastPoint,
    numberOfPoints: summary.number_of_points,
    seriesLength: temps.length,
    recordDuration: summary.record_duration,
    latestTemp,
    tripBeginTime: toDate(trip.begin),
    tripEndTime: toDate(trip.end),
    tripStatus: trip.status,
    tripInputs,
    status: recordStatus(holding),
    computedStatus: computedStatus(holding),
    lastScanned: state.lastScan?.timestamp ?? null,
    lastScannedUserId: state.lastScan?.userId ?? null,
    lastActionTaken,
    lastLatitude: lastSample?.latitude ?? null,
    lastLongitude: lastSample?.longitude ?? null,
    tagStatus,
  };
  if (options.seriesChanged) next.tempsLastUpdated = now;
  const patch = changedFields(record, next);
  const alarmsChanged =
    plan.insert.length > 0 || plan.update.length > 0 || plan.resolved.length > 0;
  let updated = record;
  if (Object.keys(patch).length > 0 || alarmsChanged) {
    // The row as the update leaves it (only columns of plain values change).
    updated = { ...record, ...patch, lastModified: now };
    batch.add(repo.updateRecordSql(db, record.id, { ...patch, lastModified: now }));
  }
  batch.add(repo.refreshTagStateSql(record.tagId));
  // Every write in one statement; the new alarms' ids come back from it.
  const inserts = repo.insertAlarmsSql(
    db,
    plan.insert.map((alarm) => ({
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
  const rows = await batch.run<{ id: string | number }>(db, inserts);
  const raised = inserts ? rows.map((r) => Number(r.id)) : [];
  await auditAlarms(db, record, {
    raised,
    closed: closing,
    cause,
    closeReason,
    change,
    requestId: change?.requestId ?? options.requestId ?? null,
    at: now,
  });
  if (raised.length > 0 && options.jobs !== null) {
    await publishAlarmsRaised(options.jobs, db, {
      organizationId: record.organizationId,
      recordId: record.id,
      alarmIds: raised,
    });
  }
  // Departed or arrived: the Departure / Arrival e-mails (`trip.event`, sent in this transaction).
  if (options.jobs !== null) await publishTripChange(options.jobs, db, record, updated, now);
  return {
    record: updated,
    alarmsInserted: plan.insert.length,
    alarmsUpdated: plan.update.length,
    alarmsResolved: plan.resolved.length,
    closedAlarmIds: closing.map((row) => row.id),
  };
}

/**
 * The audit entries of raised and closed alarms (`alarm.raise`, `alarm.close`),
 * and the CLOSE signatures of a signed change. One statement each, only when
 * something was raised or closed.
 */
async function auditAlarms(
  db: Db,
  record: RecordRow,
  what: {
    raised: readonly number[];
    closed: readonly AlarmRow[];
    cause: TAlarmCloseCause;
    closeReason: string;
    change: AlarmChange | undefined;
    requestId: string | null;
    at: Date;
  },
): Promise<void> {
  const base = { entityType: 'alarm', recordId: record.id, field: 'state' } as const;
  const context = (actor: AuditActor) => ({
    organizationId: record.organizationId,
    actor,
    requestId: what.requestId,
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
    what.closed.map((alarm) => ({
      ...base,
      action: 'alarm.close',
      entityId: alarm.id,
      oldValue: 'OPEN',
      newValue: 'CLOSED',
      reason,
    })),
  );
  const change = what.change;
  if (change?.signature && what.closed.length > 0) {
    const signature = change.signature;
    await repo.insertCloseSignatures(
      db,
      what.closed.map((alarm) => ({
        organizationId: record.organizationId,
        alarmId: alarm.id,
        recordId: record.id,
        userId: change.actor.userId,
        printedName: signature.printedName,
        signedAt: what.at,
        meaning: signature.meaning,
        comment: what.closeReason,
        clientType: signature.clientType,
      })),
    );
  }
}
