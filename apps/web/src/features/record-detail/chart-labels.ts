import { formatDateTime, timeZoneAbbreviation } from '@coldtrace/domain';

/**
 * The chart's time axis labels and the place of its hover readout (issue 35,
 * item 6). Pure: uPlot hands the ticks, the chart draws what these answer.
 */

const DAY_SECONDS = 86_400;
/** A day's step, allowing the 23-hour day of a change to daylight saving time. */
const DAILY_STEP = DAY_SECONDS - 3600;

interface WallTime {
  /** `11/22/2026`: the calendar day in the zone. */
  date: string;
  /** `14:05:09`. */
  clock: string;
  /** `GMT+1`, `EST`, `UTC`: marks a change of offset between ticks. */
  zone: string;
}

function wallTime(seconds: number, timeZone: string): WallTime {
  // `11/22/2026, 14:05:09` (en-US, 24-hour: spec section 9), split at its comma.
  const [date = '', clock = ''] = formatDateTime(seconds * 1000, timeZone).split(', ');
  return { date, clock, zone: timeZoneAbbreviation(timeZone, seconds * 1000) };
}

/** The smallest distance between neighbouring ticks (the whole span for one tick). */
function tickStep(ticks: readonly number[], span: { min: number; max: number }): number {
  let step = Infinity;
  for (let i = 1; i < ticks.length; i++) step = Math.min(step, ticks[i]! - ticks[i - 1]!);
  return Number.isFinite(step) ? step : span.max - span.min;
}

/**
 * The labels of the time axis's ticks (Unix seconds) for the span shown, in
 * `timeZone` (en-US, 24-hour, as the app writes dates):
 *
 * - a span within one day: times only (`14:00`, `14:00:30` for ticks under a
 *   minute apart);
 * - a span that crosses a day with ticks under a day apart: the time, and
 *   under it the day (`14:00\n11/23`) on the first tick and on the first tick
 *   of each new day;
 * - ticks a day or more apart: the day (`11/23`), with the year under the
 *   first tick and under the first tick of each new year.
 *
 * When the zone's offset changes between two ticks (daylight saving time) the
 * later tick also carries the zone (`02:00\nGMT+1` in Berlin), so the hour repeated in
 * autumn reads as the later one and the labels stay in time order.
 */
export function timeAxisLabels(
  ticks: readonly number[],
  timeZone: string,
  span: { min: number; max: number },
): string[] {
  const step = tickStep(ticks, span);
  const walls = ticks.map((tick) => wallTime(tick, timeZone));
  if (step >= DAILY_STEP) {
    return walls.map(({ date }, i) => {
      const [month = '', day = '', year = ''] = date.split('/');
      const newYear = i === 0 || walls[i - 1]!.date.slice(6) !== year;
      return newYear ? `${month}/${day}\n${year}` : `${month}/${day}`;
    });
  }
  const crossesDay = wallTime(span.min, timeZone).date !== wallTime(span.max, timeZone).date;
  const seconds = step < 60 || walls.some(({ clock }) => !clock.endsWith(':00'));
  return walls.map(({ date, clock, zone }, i) => {
    const time = seconds ? clock : clock.slice(0, 5);
    const previous = walls[i - 1];
    const under: string[] = [];
    if (crossesDay && (previous === undefined || previous.date !== date))
      under.push(date.slice(0, 5));
    if (previous !== undefined && previous.zone !== zone) under.push(zone);
    return under.length === 0 ? time : `${time}\n${under.join(' ')}`;
  });
}

/** A box's size, and a point or an area in the plot's own pixels. */
export interface Size {
  width: number;
  height: number;
}

/** How far the readout sits from the cursor (px). */
export const READOUT_GAP = 12;

/**
 * Where the hover readout goes (its top-left corner, plot pixels): below and
 * right of the cursor, flipped to the left or above when it would leave the
 * plot, and kept inside the plot whatever its size allows.
 */
export function readoutPlacement(
  cursor: { left: number; top: number },
  readout: Size,
  plot: Size,
): { left: number; top: number } {
  const place = (at: number, size: number, room: number) => {
    const after = at + READOUT_GAP;
    const start = after + size <= room ? after : at - READOUT_GAP - size;
    return Math.max(0, Math.min(start, room - size));
  };
  return {
    left: place(cursor.left, readout.width, plot.width),
    top: place(cursor.top, readout.height, plot.height),
  };
}
