import {
  SIGNATURE_MEANING_LABELS,
  type TDegreesUnit,
  type TExcursionAlarm,
  type TSecondFactorKind,
  type TRecord,
} from '@coldtrace/contract';
import {
  formatDuration,
  MISSING_VALUE,
  parseDurationString,
  resolveTimeZone,
  toDisplayUnit,
  zonedTimeFormat,
  type SeriesValue,
  type ZonedTimeFormat,
} from '@coldtrace/domain';
import type { EvidenceStamp } from '../evidence';

/**
 * What a report shows (domain rules section 8), gathered once and rendered as
 * PDF, CSV or XLSX. Pure: the benchmark builds one without a database.
 * Temperatures are °C here and converted for display with the domain's rules
 * (spec section 9); times are instants shown en-US, 24-hour, in `timeZone`,
 * each with its offset (`instantWriter`).
 */

/**
 * An e-signature (21 CFR Part 11) of an acknowledgement or of the change that
 * closed an alarm: printed name, time, meaning, comment (or reason for change).
 */
export interface ReportSignature {
  printedName: string;
  signedAt: Date | null;
  meaning: string;
  comment: string | null;
  /** The second factor given with the password (issue 37 item 7); null or absent: none. */
  secondFactor?: TSecondFactorKind | null;
}

/** An alarm as the report prints it: the contract's alarm with its signatures in our shape. */
export interface ReportAlarm extends Omit<TExcursionAlarm, 'signature' | 'close_signature'> {
  /** The acknowledgement's signature. */
  signature?: ReportSignature | null;
  /** The signature of the change that closed the alarm. */
  closeSignature?: ReportSignature | null;
}

/** `REVIEWED` as `Reviewed` (the contract's labels); other meanings as given. */
export function meaningText(meaning: string): string {
  return (SIGNATURE_MEANING_LABELS as Record<string, string>)[meaning] ?? meaning;
}

export interface ReportAuditLine {
  occurredAt: Date;
  actorName: string;
  action: string;
  /** What the entry is about (`alarm` and its id for an alarm's entries); absent in older callers. */
  entityType?: string;
  entityId?: string;
  field: string | null;
  oldValue: unknown;
  newValue: unknown;
  reason: string | null;
}

export interface ReportTiming {
  startTimeSeconds: number;
  startDelay: number;
  intervalSeconds: number;
}

export interface ReportData {
  organizationName: string;
  record: TRecord;
  alarms: ReportAlarm[];
  audit: ReportAuditLine[];
  /** The series, °C, null for a gap. */
  temps: readonly SeriesValue[];
  /** How an index becomes a time; null when the record has no start time. */
  timing: ReportTiming | null;
  unit: TDegreesUnit;
  timeZone: string;
  generatedAt: Date;
  generatedBy: string;
  /**
   * The data display rule of the requesting user (docs/decisions/data-display-rules.md):
   * decimals of summary temperatures and record fields not shown. Absent: one decimal, all shown.
   */
  display?: { decimals: number; hidden: ReadonlySet<string> };
  /** The record chain's last entry and the last signed anchor when the report was made. */
  evidence?: EvidenceStamp | null;
}

// ---------------------------------------------------------------- fast per-point formatting

/**
 * Wall-clock time in a zone (epoch ms of the same clock read in UTC), fast
 * enough for 100,000 points (`zonedTimeFormat` of the domain: the zone's
 * offset looked up once per quarter hour). Zone-less: a report prints a time
 * with its offset (`instantWriter`); the alarm e-mails and certificates use this.
 */
export function wallClock(timeZone: string): (epochMs: number) => number {
  return zoneFormat(timeZone).wallMs;
}

/**
 * How a report writes an instant (domain rules section 8: every printed time
 * carries its zone): `text`, en-US 24-hour with the offset
 * (`10/25/2026, 02:30:00 UTC+02:00`; the PDF and the XLSX's text cells), or
 * `iso`, ISO 8601 with the offset (`2026-10-25T02:30:00+02:00`; the CSV).
 */
export type TimeStyle = 'text' | 'iso';

const formats = new Map<string, ZonedTimeFormat>();

/** The zone's formatter, kept per zone (its offsets are looked up once per quarter hour). */
export function zoneFormat(timeZone: string): ZonedTimeFormat {
  const zone = resolveTimeZone(timeZone);
  let format = formats.get(zone);
  if (format === undefined) {
    format = zonedTimeFormat(zone);
    formats.set(zone, format);
  }
  return format;
}

/** A function writing instants (epoch ms) of one report in `style`. */
export function instantWriter(timeZone: string, style: TimeStyle = 'text'): (ms: number) => string {
  const format = zoneFormat(timeZone);
  return style === 'iso' ? format.iso : format.text;
}

/** `2026-10-25 00:30:00`: the instant in UTC, as spreadsheets read a date-time (no `T`, no `Z`). */
export function utcText(epochMs: number): string {
  return zoneFormat('UTC').plain(epochMs);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `11/22/2026, 14:05:09` of a wall-clock time (as `formatDateTime` writes it). */
export function formatWall(wallMs: number): string {
  const d = new Date(wallMs);
  return (
    `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${d.getUTCFullYear()}, ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  );
}

/** Celsius to the display unit (one decimal), memoised: a series repeats few distinct values. */
export function unitConverter(unit: TDegreesUnit): (celsius: number) => number {
  const cache = new Map<number, number>();
  return (celsius) => {
    let out = cache.get(celsius);
    if (out === undefined) {
      out = toDisplayUnit(celsius, unit);
      if (cache.size > 50_000) cache.clear();
      cache.set(celsius, out);
    }
    return out;
  };
}

/** Epoch milliseconds of point `index`, or null without timing. */
export function pointMs(timing: ReportTiming | null, index: number): number | null {
  if (timing === null) return null;
  return (timing.startTimeSeconds + timing.startDelay + index * timing.intervalSeconds) * 1000;
}

// ---------------------------------------------------------------- cell safety

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell that a spreadsheet would read as a formula (starts with `=`,
 * `+`, `-`, `@`, tab or carriage return) gets a leading `'` (OWASP CSV
 * injection). Numbers are never passed here: a negative temperature stays a number.
 */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * `Content-Disposition: attachment` with an ASCII fallback name (anything
 * outside printable ASCII, quotes, backslashes and separators become `_`) and
 * the exact name as RFC 5987 `filename*`.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\/;]/g, '_').replace(/^\.+/, '_') || 'report';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `record-123-TAG-SN.pdf` (a dossier: `…-dossier.zip`): record id and tag serial, unsafe characters replaced. */
export function reportFileName(
  record: { id?: string | undefined; tag_serial_number?: string | undefined },
  kind: string,
): string {
  const serial = (record.tag_serial_number ?? '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  const name = `record-${record.id ?? 'unknown'}${serial ? `-${serial}` : ''}`;
  return kind === 'dossier' ? `${name}-dossier.zip` : `${name}.${kind}`;
}

// ---------------------------------------------------------------- the summary

export type SummaryValue = string | number | Date | null;

export interface SummaryLine {
  label: string;
  value: SummaryValue;
  /** Decimals shown in text (temperatures: one, as everywhere in the product). */
  decimals?: number;
  /** An instant (or none yet): printed with its offset, which needs the room of a wide column. */
  time?: true;
}

/** A temperature in the unit (number), or null. */
function temperature(data: ReportData, celsius: number | null | undefined): number | null {
  return celsius == null || !Number.isFinite(celsius) ? null : toDisplayUnit(celsius, data.unit);
}

function instant(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const party = (p: TRecord['shipper_name_address']) => p?.name ?? '';

/** The header lines (who and what the record is about). */
export function headerLines(data: ReportData): SummaryLine[] {
  const r = data.record;
  const lines: (SummaryLine & { field?: keyof TRecord })[] = [
    { label: 'Organization', value: data.organizationName },
    { label: 'Record', value: r.id ?? '' },
    { label: 'Tag serial number', value: r.tag_serial_number ?? '' },
    { label: 'Tag type', value: r.tag_type ?? '' },
    { label: 'Primary reference', value: r.primary_reference ?? '', field: 'primary_reference' },
    {
      label: 'Secondary reference',
      value: r.secondary_reference ?? '',
      field: 'secondary_reference',
    },
    { label: 'Shipping reference', value: r.shipping_reference ?? '', field: 'shipping_reference' },
    { label: 'Program', value: r.program_name ?? '', field: 'program_name' },
    { label: 'PO number', value: r.po_number ?? '', field: 'po_number' },
    { label: 'Shipper', value: party(r.shipper_name_address), field: 'shipper_name_address' },
    { label: 'Receiver', value: party(r.receiver_name_address), field: 'receiver_name_address' },
    { label: 'Carrier', value: r.carrier ?? '', field: 'carrier' },
    { label: 'Product', value: r.product_designation ?? '', field: 'product_designation' },
  ];
  const hidden = data.display?.hidden;
  return lines
    .filter((l) => l.field === undefined || !hidden?.has(l.field))
    .map(({ label, value }) => ({ label, value }));
}

/** The summary lines: thresholds, highest, lowest, MKT, duration, points, status, trip. */
export function summaryLines(data: ReportData): SummaryLine[] {
  const r = data.record;
  const u = `°${data.unit}`;
  const decimals = data.display?.decimals ?? 1;
  return [
    { label: `High threshold (${u})`, value: temperature(data, r.high_threshold), decimals },
    { label: `Low threshold (${u})`, value: temperature(data, r.low_threshold), decimals },
    {
      label: `Cumulative high threshold (${u})`,
      value: temperature(data, r.cumulative_high_threshold),
      decimals,
    },
    { label: 'Cumulative duration high', value: durationStringText(r.cumulative_duration_high) },
    {
      label: `Cumulative low threshold (${u})`,
      value: temperature(data, r.cumulative_low_threshold),
      decimals,
    },
    { label: 'Cumulative duration low', value: durationStringText(r.cumulative_duration_low) },
    { label: 'Consecutive points for an excursion', value: r.num_consecutive_excursions ?? 1 },
    {
      label: `Highest (${u})`,
      value: temperature(data, r.highest_recorded_temperature),
      decimals,
    },
    {
      label: `Lowest (${u})`,
      value: temperature(data, r.lowest_recorded_temperature),
      decimals,
    },
    {
      label: `Mean kinetic temperature (${u})`,
      value: temperature(data, r.mean_kinetic_temp),
      decimals,
    },
    { label: 'First point', value: instant(r.first_point), time: true },
    { label: 'Last point', value: instant(r.last_point), time: true },
    {
      label: 'Duration',
      value: r.record_duration == null ? null : formatDuration(r.record_duration),
    },
    { label: 'Points', value: r.number_of_points ?? 0 },
    { label: 'Measurement interval', value: intervalText(r.measurement_interval) },
    { label: 'Status', value: r.status ?? '' },
    { label: 'Alarms', value: data.alarms.length },
    { label: 'Trip', value: tripStatusText(r.trip?.trip_status) },
    { label: 'Trip begin', value: instant(r.trip?.begin_time), time: true },
    { label: 'Trip end', value: instant(r.trip?.end_time), time: true },
    { label: 'Unit', value: u },
    { label: 'Time zone', value: resolveTimeZone(data.timeZone) },
    { label: 'Generated', value: data.generatedAt, time: true },
    { label: 'Generated by', value: data.generatedBy },
  ];
}

/** Digits of a SHA-256 printed: 64 bits, enough to check an entry against, short enough to copy. */
const PRINTED_HASH_DIGITS = 16;

/**
 * The evidence chain's stamp (docs/decisions/evidence-chain.md): the record
 * chain's last entry and the organization's last signed anchor, with the
 * first digits of their SHA-256.
 */
export function evidenceLines(stamp: EvidenceStamp | null | undefined): SummaryLine[] {
  if (!stamp) return [];
  return [
    {
      label: 'Evidence chain',
      value: `${stamp.chain}, entry ${stamp.seq}, SHA-256 ${stamp.hash.slice(0, PRINTED_HASH_DIGITS)}`,
    },
    {
      label: 'Evidence anchor',
      value: stamp.anchor
        ? `SHA-256 ${stamp.anchor.payloadSha256.slice(0, PRINTED_HASH_DIGITS)}`
        : 'none yet (signed hourly)',
    },
    { label: 'Evidence anchor signed', value: stamp.anchor?.anchoredAt ?? null, time: true },
  ];
}

/**
 * A stored `[DD ]HH:MM:SS` duration (cumulative limits) in days, hours and
 * minutes (`45m`, `1d 2h`); text that is not such a duration is shown as stored.
 */
export function durationStringText(value: string | null | undefined): string | null {
  if (value == null || value === '') return null;
  const seconds = parseDurationString(value);
  return seconds === null ? value : formatDuration(seconds);
}

/**
 * A measurement interval (seconds) in days, hours and minutes; the seconds
 * are added only when the interval is not whole minutes (`30s`, `1m 30s`), so
 * a short interval never reads `0m`.
 */
export function intervalText(seconds: number | null | undefined): string | null {
  if (seconds == null || !Number.isFinite(seconds)) return null;
  const rest = Math.round(seconds) % 60;
  if (rest === 0) return formatDuration(seconds);
  return seconds < 60 ? `${rest}s` : `${formatDuration(seconds)} ${rest}s`;
}

export function tripStatusText(status: string | null | undefined): string {
  switch (status) {
    case 'IN_TRANSIT':
      return 'In transit';
    case 'ARRIVED':
      return 'Arrived';
    case 'NOT_DEPARTED':
      return 'Not departed';
    default:
      return MISSING_VALUE;
  }
}

/**
 * A summary value as text (CSV and PDF): numbers with the line's decimals,
 * else one when fractional; dates local with their offset, in `style`.
 */
export function summaryText(
  value: SummaryValue,
  timeZone: string,
  decimals?: number,
  style: TimeStyle = 'text',
): string {
  if (value === null) return MISSING_VALUE;
  if (value instanceof Date) return instantWriter(timeZone, style)(value.getTime());
  if (typeof value === 'number' && decimals !== undefined) return value.toFixed(decimals);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(1);
  return value;
}

// ---------------------------------------------------------------- the verdict

/** True when the alarm carries an acknowledgement or an e-signature. */
export function isAcknowledged(alarm: ReportAlarm): boolean {
  return alarm.acknowledged === true || Boolean(alarm.signature);
}

/**
 * True when the alarm is CLOSED (it stopped holding; kept with the cause,
 * reason, who and when). A dismissal does not close an alarm.
 */
export function isClosed(alarm: ReportAlarm): boolean {
  return alarm.state === 'CLOSED';
}

const alarmsWord = (n: number) => (n === 1 ? 'alarm' : 'alarms');

/**
 * `3 alarms: 2 open, 1 closed.`, with the dismissed ones when there are any
 * (`3 alarms: 2 open, 1 closed; 1 dismissed.`); `No alarms were raised.`
 */
export function alarmCountSentence(alarms: readonly ReportAlarm[]): string {
  if (alarms.length === 0) return 'No alarms were raised.';
  const closed = alarms.filter(isClosed).length;
  const dismissed = alarms.filter((a) => a.dismissed === true).length;
  const counts = `${alarms.length} ${alarmsWord(alarms.length)}: ${alarms.length - closed} open, ${closed} closed`;
  return dismissed === 0 ? `${counts}.` : `${counts}; ${dismissed} dismissed.`;
}

/** `2 electronic signatures: 1 acknowledgement, 1 closing change.`; `No electronic signatures.` */
export function signatureCountSentence(alarms: readonly ReportAlarm[]): string {
  const acks = alarms.filter((a) => a.signature).length;
  const closes = alarms.filter((a) => a.closeSignature).length;
  const n = acks + closes;
  if (n === 0) return 'No electronic signatures.';
  const part = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return `${part(n, 'electronic signature', 'electronic signatures')}: ${part(acks, 'acknowledgement', 'acknowledgements')}, ${part(closes, 'closing change', 'closing changes')}.`;
}

/**
 * Whether every alarm is acknowledged, in one sentence: `All 2 alarms are
 * acknowledged.`, `The alarm is acknowledged.`, `1 of 2 alarms is not
 * acknowledged.`, `2 of 3 alarms are not acknowledged.`; with no alarms,
 * `There is no alarm to acknowledge.`
 */
export function acknowledgementSentence(alarms: readonly ReportAlarm[]): string {
  const n = alarms.length;
  if (n === 0) return 'There is no alarm to acknowledge.';
  const missing = alarms.filter((a) => !isAcknowledged(a)).length;
  if (n === 1)
    return missing === 0 ? 'The alarm is acknowledged.' : 'The alarm is not acknowledged.';
  if (missing === 0) return `All ${n} alarms are acknowledged.`;
  return `${missing} of ${n} alarms ${missing === 1 ? 'is' : 'are'} not acknowledged.`;
}
