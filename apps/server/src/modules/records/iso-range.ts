import { sql } from 'drizzle-orm';
import { planStableParam } from '../../db/named-query';

/**
 * A date or date-time as people type it, read as the span of time it names at
 * its own precision: `2025-03-01` is that whole day, `2025-03-01T08:30` that
 * minute, `2025-03-01T08:30:15` that second, `...15.250` that millisecond.
 * Without an offset the value is UTC; `Z`, `+02:00` or `+0200` give one.
 * Used by the date filter operators and by the statistics date range
 * (docs/decisions/record-queries.md).
 */
export interface InstantRange {
  /** First instant of the span. */
  from: Date;
  /** First instant after the span. */
  to: Date;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The span `text` names, or null when it is not an ISO 8601 date or date-time. */
export function parseInstantRange(text: string): InstantRange | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(Date.UTC(year, month - 1, day));
  // Reject 2025-02-30 and the like (Date.UTC rolls them over).
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  if (year < 1 || year > 9999) return null;
  let offsetMs = 0;
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    if (oh > 23 || om > 59) return null;
    offsetMs = sign * (oh * 60 + om) * MINUTE_MS;
  }
  const from = local - offsetMs;
  const span =
    h === undefined
      ? DAY_MS
      : s === undefined
        ? MINUTE_MS
        : frac === undefined
          ? 1000
          : // Microseconds are accepted; the span is the millisecond they fall in.
            1;
  return { from: new Date(from), to: new Date(from + span) };
}

/**
 * An instant as PostgreSQL reads it: ISO 8601, except that the year after
 * 9999 (the end of a span on 9999-12-31) is written without the `+0` padding
 * JavaScript's expanded years carry.
 */
export function sqlTimestamp(d: Date): string {
  const text = d.toISOString();
  return text.startsWith('+') ? text.slice(1).replace(/^0+/, '') : text;
}

/** An instant as a bound `timestamptz` parameter of a statement. */
export const sqlInstant = (d: Date) => sql`${sqlTimestamp(d)}::timestamptz`;

/** The same, bound plan-stable (db/named-query.ts `planStableParam`). */
export const planStableInstant = (d: Date) => planStableParam(sqlTimestamp(d), 'timestamptz');

/**
 * The whole buckets of `ms` milliseconds (UTC hours, days) inside [from, to):
 * [first, end), or null when the range holds none.
 */
export function wholeBucketsOf(
  range: { from: Date; to: Date },
  ms: number,
): { first: Date; end: Date } | null {
  const first = Math.ceil(range.from.getTime() / ms) * ms;
  const end = Math.floor(range.to.getTime() / ms) * ms;
  return first < end ? { first: new Date(first), end: new Date(end) } : null;
}

/**
 * A range cut at its whole buckets (hours, days; `whole`, or null when it
 * holds none): `span`, the whole buckets, and `head` and `tail`, the parts at
 * its two ends whose records are counted one by one (the whole range in
 * `head` when it holds no whole bucket). Spans that do not exist are empty
 * (start = end), so a statement built from them has one text whatever the range.
 */
export function cutAtBuckets(
  range: { from: Date; to: Date },
  whole: { first: Date; end: Date } | null,
): { span: { first: Date; end: Date }; head: [Date, Date]; tail: [Date, Date] } {
  return whole
    ? { span: whole, head: [range.from, whole.first], tail: [whole.end, range.to] }
    : {
        span: { first: range.to, end: range.to },
        head: [range.from, range.to],
        tail: [range.to, range.to],
      };
}
