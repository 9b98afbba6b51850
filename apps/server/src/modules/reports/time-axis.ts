import { formatUtcOffset, type ZonedTimeFormat } from '@coldtrace/domain';

/**
 * The time axis of the report chart (issue 35 item 2). Ticks are instants,
 * placed by instant, so the axis runs forward through the hour repeated in
 * autumn and the hour skipped in spring; they fall on round local times
 * (every 30 minutes, 6 hours, day, month: the step that gives at most
 * `maxTicks` ticks), found in the zone's wall clock and turned back into
 * every instant that shows that time (none in the skipped hour, two in the
 * repeated one). Each label is the local time (seconds when the step is under
 * a minute); the first label and every label whose offset differs from the
 * one before carry the offset (`02:00 UTC+01:00`), and the first and every
 * label of another day than the one before carry the date, so a chart of
 * several days has its dates and no two labels read alike.
 */

export interface TimeTick {
  /** The instant, epoch ms. */
  ms: number;
  /** The label, line by line. */
  lines: string[];
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Fixed steps in wall-clock milliseconds; longer spans step by months (`MONTH_STEPS`). */
const STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
];
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120, 240, 600];
/** Weeks start on Monday: 1970-01-01 was a Thursday, so Mondays are 4 days after a multiple of 7. */
const MONDAY_SHIFT = 4 * DAY;

type Step = { ms: number } | { months: number };

/** Round wall-clock times from `fromWall` to `toWall` (inclusive), each `step` apart. */
function wallTimes(fromWall: number, toWall: number, step: Step): number[] {
  const out: number[] = [];
  if ('months' in step) {
    const d = new Date(fromWall);
    const first = d.getUTCFullYear() * 12 + d.getUTCMonth();
    let month = Math.ceil(first / step.months) * step.months;
    for (;;) {
      const wall = Date.UTC(Math.floor(month / 12), month % 12, 1);
      if (wall > toWall) break;
      if (wall >= fromWall) out.push(wall);
      month += step.months;
    }
    return out;
  }
  const shift = step.ms === 7 * DAY || step.ms === 14 * DAY ? MONDAY_SHIFT : 0;
  for (
    let wall = Math.ceil((fromWall - shift) / step.ms) * step.ms + shift;
    wall <= toWall;
    wall += step.ms
  ) {
    out.push(wall);
  }
  return out;
}

/** Every instant whose local time in the zone is `wall`: none (skipped), one, or two (repeated). */
function instantsOf(wall: number, format: ZonedTimeFormat): number[] {
  const offsets = new Set(
    [wall - 14 * HOUR, wall, wall + 14 * HOUR].map((at) => format.offsetSeconds(at)),
  );
  const out = [...offsets]
    .map((offset) => wall - offset * SECOND)
    .filter((ms) => format.wallMs(ms) === wall);
  return [...new Set(out)].sort((a, b) => a - b);
}

function ticksFor(startMs: number, endMs: number, format: ZonedTimeFormat, step: Step): number[] {
  // The local times the span shows: within the offsets at its ends (a span of a day holds at
  // most one change), give or take three hours on a longer span (a change near either end).
  const offsets = [format.offsetSeconds(startMs), format.offsetSeconds(endMs)];
  const pad = endMs - startMs > DAY ? 3 * HOUR : 0;
  const walls = wallTimes(
    startMs + Math.min(...offsets) * SECOND - pad,
    endMs + Math.max(...offsets) * SECOND + pad,
    step,
  );
  return walls
    .flatMap((wall) => instantsOf(wall, format))
    .filter((ms) => ms >= startMs && ms <= endMs)
    .sort((a, b) => a - b);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The labels of instants in order: clock, offset where it changes, date where it changes. */
export function tickLabels(
  instants: readonly number[],
  format: ZonedTimeFormat,
  options: { seconds: boolean; dateOnly: boolean },
): TimeTick[] {
  let lastDate = '';
  let lastOffset: number | null = null;
  return instants.map((ms) => {
    const d = new Date(format.wallMs(ms));
    const date = `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${d.getUTCFullYear()}`;
    const offset = format.offsetSeconds(ms);
    const zone = offset === lastOffset ? '' : `UTC${formatUtcOffset(offset)}`;
    const showDate = date !== lastDate;
    lastDate = date;
    lastOffset = offset;
    if (options.dateOnly) return { ms, lines: [date, zone].filter(Boolean) };
    const clock =
      `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}` +
      (options.seconds ? `:${pad2(d.getUTCSeconds())}` : '');
    return { ms, lines: [zone ? `${clock} ${zone}` : clock, ...(showDate ? [date] : [])] };
  });
}

/**
 * The ticks of a chart from `startMs` to `endMs`: at most `maxTicks`, none
 * closer than `minGap` of the span (a fraction, 0 to 1) to the one before,
 * and none but the first within `endGuard` of the span from its end (where a
 * centred label would not fit).
 */
export function timeAxisTicks(
  startMs: number,
  endMs: number,
  format: ZonedTimeFormat,
  options: { maxTicks: number; minGap: number; endGuard?: number },
): TimeTick[] {
  const span = endMs - startMs;
  if (!(span > 0)) return tickLabels([startMs], format, { seconds: true, dateOnly: false });
  const last = endMs - (options.endGuard ?? 0) * span;
  const steps: Step[] = [
    ...STEPS.map((ms) => ({ ms })),
    ...MONTH_STEPS.map((months) => ({ months })),
  ];
  for (const step of steps) {
    // A step shorter than the gap would leave ticks out unevenly: the next one.
    const shortest = 'ms' in step ? step.ms : step.months * 28 * DAY;
    if (shortest < options.minGap * span) continue;
    const nominal = 'ms' in step ? step.ms : step.months * 30 * DAY;
    const all = ticksFor(startMs, endMs, format, step).filter((ms, i) => i === 0 || ms <= last);
    if (all.length > options.maxTicks) continue;
    const kept: number[] = [];
    for (const ms of all) {
      const previous = kept[kept.length - 1];
      if (previous === undefined || (ms - previous) / span >= options.minGap) kept.push(ms);
    }
    if (kept.length === 0) break;
    return tickLabels(kept, format, {
      seconds: nominal < MINUTE,
      dateOnly: nominal >= DAY,
    });
  }
  // A span that holds no round time (under a second): its start.
  return tickLabels([startMs], format, { seconds: true, dateOnly: false });
}
