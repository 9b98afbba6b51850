import {
  ALARM_CLOSE_CAUSE_LABELS,
  ALARM_STATE_LABELS,
  secondFactorSuffix,
  type TAlarmCloseCause,
  type TDegreesUnit,
} from '@coldtrace/contract';
import { degreeMinutesToUnit, formatDuration, toDisplayUnit } from '@coldtrace/domain';
import {
  instantWriter,
  isClosed,
  meaningText,
  type ReportAlarm,
  type ReportSignature,
  type TimeStyle,
} from './report-model';

/**
 * One alarm as every report format prints it (PDF, CSV, XLSX): the same
 * words, times in the reader's zone with their offset (en-US, 24-hour, spec
 * section 9, `10/25/2026, 02:30:00 UTC+02:00`; ISO 8601 in the CSV) and
 * temperatures in the reader's unit with one decimal. Empty text for what the
 * alarm does not carry (not acknowledged, not dismissed, still open).
 */
export interface AlarmDisplay {
  id: string;
  /** `Excursion` or `Cumulative`. */
  kind: string;
  /** `High` or `Low`. */
  direction: string;
  /** `Open` or `Closed`. */
  state: string;
  start: string;
  end: string;
  duration: string;
  /** Degree-minutes in the reader's unit, one decimal (null when unknown). */
  degreeMinutes: number | null;
  /** The highest (high alarm) or lowest (low alarm) temperature, reader's unit, one decimal. */
  peak: number | null;
  acknowledgedBy: string;
  acknowledgedAt: string;
  acknowledgeComment: string;
  signedBy: string;
  signatureMeaning: string;
  signedAt: string;
  signatureComment: string;
  dismissedBy: string;
  dismissedAt: string;
  dismissReason: string;
  closedAt: string;
  /** Who closed it; `System` when no person's change did. */
  closedBy: string;
  closeCause: string;
  closeReason: string;
  closeSignedBy: string;
  closeSignatureMeaning: string;
  closeSignedAt: string;
  /**
   * A no-data alarm as silence (issue 35 item 4): `Silent since …, expected
   * every 5m` while open, `Silent from … to …` once data came again; empty
   * for every other alarm.
   */
  silence: string;
  /** The no-data alarm's expected transmit interval (`5m`, `30 s`); empty otherwise. */
  expectedEvery: string;
}

/** Who closed an alarm when no person did. */
export const SYSTEM_ACTOR_NAME = 'System';

/** The columns of the alarm list in CSV and XLSX, in the order of `alarmCells`. */
export function alarmColumns(unit: TDegreesUnit, zone: string): string[] {
  return [
    'Alarm',
    'Kind',
    'Direction',
    'State',
    `Start (${zone})`,
    `End (${zone})`,
    'Duration',
    `Degree-minutes (°${unit}·min)`,
    `Peak (°${unit})`,
    'Acknowledged by',
    `Acknowledged at (${zone})`,
    'Acknowledgement comment',
    'Signed by',
    'Signature meaning',
    `Signed at (${zone})`,
    'Dismissed by',
    `Dismissed at (${zone})`,
    'Dismissal reason',
    `Closed at (${zone})`,
    'Closed by',
    'Close cause',
    'Close reason',
    'Closing signed by',
    'Closing signature meaning',
    `Closing signed at (${zone})`,
    'Expected every (no data)',
  ];
}

/** One alarm's cells in the order of `alarmColumns` (numbers stay numbers). */
export function alarmCells(d: AlarmDisplay): (string | number | null)[] {
  return [
    d.id,
    d.kind,
    d.direction,
    d.state,
    d.start,
    d.end,
    d.duration,
    d.degreeMinutes,
    d.peak,
    d.acknowledgedBy,
    d.acknowledgedAt,
    d.acknowledgeComment,
    d.signedBy,
    d.signatureMeaning,
    d.signedAt,
    d.dismissedBy,
    d.dismissedAt,
    d.dismissReason,
    d.closedAt,
    d.closedBy,
    d.closeCause,
    d.closeReason,
    d.closeSignedBy,
    d.closeSignatureMeaning,
    d.closeSignedAt,
    d.expectedEvery,
  ];
}

/** What a report prints when there is no alarm. */
export const NO_ALARMS = 'No alarms: every point stayed within the thresholds.';

/** A function that turns an alarm into display text for one report. */
export function alarmDisplayer(options: {
  unit: TDegreesUnit;
  timeZone: string;
  /** How times are written (`text` unless told). */
  style?: TimeStyle;
  /** When the report is made: how long an open no-data alarm has been silent. */
  now?: Date;
}): (a: ReportAlarm) => AlarmDisplay {
  const write = instantWriter(options.timeZone, options.style);
  const at = (value: string | Date | null | undefined): string => {
    if (value === null || value === undefined || value === '') return '';
    const ms = value instanceof Date ? value.getTime() : new Date(value).getTime();
    return Number.isNaN(ms) ? '' : write(ms);
  };
  const temperature = (c: number | null | undefined) =>
    c == null || !Number.isFinite(c) ? null : toDisplayUnit(c, options.unit);
  const signature = (s: ReportSignature | null | undefined) => ({
    by: s?.printedName ?? '',
    // "Reviewed · with authenticator code": the second factor goes with the meaning (issue 37 item 7).
    meaning: s ? meaningText(s.meaning) + secondFactorSuffix(s.secondFactor) : '',
    at: at(s?.signedAt ?? null),
    comment: s?.comment ?? '',
  });
  return (a) => {
    const closed = isClosed(a);
    const ack = signature(a.signature);
    const close = signature(a.closeSignature);
    const acknowledged = a.acknowledged === true;
    const display: AlarmDisplay = {
      id: a.id ?? '',
      kind:
        a.kind === 'cumulative'
          ? 'Cumulative'
          : a.kind === 'no_data'
            ? 'No data'
            : a.kind === 'budget'
              ? 'Stability budget'
              : 'Excursion',
      direction: a.kind === 'no_data' ? '' : a.above_or_below === 'BELOW' ? 'Low' : 'High',
      state: ALARM_STATE_LABELS[closed ? 'CLOSED' : 'OPEN'],
      start: at(a.start_time),
      end: at(a.end_time),
      duration: a.duration == null ? '' : formatDuration(a.duration),
      degreeMinutes:
        a.degree_minutes == null
          ? null
          : Number(degreeMinutesToUnit(a.degree_minutes, options.unit).toFixed(1)),
      peak: temperature(
        a.above_or_below === 'BELOW'
          ? a.lowest_recorded_temperature
          : a.highest_recorded_temperature,
      ),
      acknowledgedBy: acknowledged ? (a.acknowledged_by ?? 'unknown user') : '',
      acknowledgedAt: acknowledged ? at(a.acknowledged_at) : '',
      acknowledgeComment: acknowledged ? (a.acknowledge_comment ?? '') : '',
      signedBy: ack.by,
      signatureMeaning: ack.meaning,
      signedAt: ack.at,
      signatureComment: ack.comment,
      dismissedBy: a.dismissed ? (a.dismissed_by ?? 'unknown user') : '',
      dismissedAt: a.dismissed ? at(a.dismissed_at) : '',
      dismissReason: a.dismissed ? (a.dismiss_reason ?? '') : '',
      closedAt: closed ? at(a.closed_at) : '',
      closedBy: closed ? (a.closed_by ?? SYSTEM_ACTOR_NAME) : '',
      closeCause: closed ? closeCauseText(a.close_cause) : '',
      closeReason: closed ? (a.close_reason ?? '') : '',
      closeSignedBy: close.by,
      closeSignatureMeaning: close.meaning,
      closeSignedAt: close.at,
      silence: '',
      expectedEvery: '',
    };
    return a.kind === 'no_data' ? silenceDisplay(a, closed, at, options.now, display) : display;
  };
}

/** `30 s` under a minute, else `5m`, `1h 30m` (as the record page writes an interval). */
function intervalText(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return '';
  return seconds < 60 ? `${Number(seconds.toFixed(1))} s` : formatDuration(seconds);
}

/**
 * A no-data alarm: silence since the last data, until data came again (its
 * closing) or, open, until the report was made. No direction, peak or
 * degree-minutes: nothing was measured (docs/decisions/no-data-alarm.md).
 */
function silenceDisplay(
  a: ReportAlarm,
  closed: boolean,
  at: (value: string | Date | null | undefined) => string,
  now: Date | undefined,
  base: AlarmDisplay,
): AlarmDisplay {
  const since = at(a.start_time);
  const resumedAt = closed ? (a.closed_at ?? null) : null;
  const expectedEvery = intervalText(a.expected_interval);
  const expected = expectedEvery ? `, expected every ${expectedEvery}` : '';
  const silence =
    resumedAt === null
      ? `Silent since ${since || 'unknown'}${expected}`
      : `Silent from ${since || 'unknown'} to ${at(resumedAt)}${expected}`;
  const began = a.start_time ? Date.parse(a.start_time) : NaN;
  const until = resumedAt === null ? now?.getTime() : Date.parse(resumedAt);
  const seconds =
    Number.isFinite(began) && until !== undefined && Number.isFinite(until)
      ? Math.max(0, (until - began) / 1000)
      : a.duration;
  return {
    ...base,
    direction: '',
    end: resumedAt === null ? '' : at(resumedAt),
    duration: seconds == null ? '' : formatDuration(seconds),
    degreeMinutes: null,
    peak: null,
    silence,
    expectedEvery,
  };
}

function closeCauseText(cause: TAlarmCloseCause | null | undefined): string {
  return cause ? ALARM_CLOSE_CAUSE_LABELS[cause] : ALARM_CLOSE_CAUSE_LABELS.UNRECORDED;
}
