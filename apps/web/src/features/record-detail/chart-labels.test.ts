import { describe, expect, it } from 'vitest';
import { READOUT_GAP, readoutPlacement, timeAxisLabels } from './chart-labels';

const at = (iso: string) => Date.parse(iso) / 1000;
const HOUR = 3600;
/** Ticks every `step` seconds from `from` (inclusive) while before `to`. */
const ticksBetween = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => from + k * step);
const span = (ticks: number[]) => ({ min: ticks[0]!, max: ticks[ticks.length - 1]! });
const DATE = /\d{2}\/\d{2}/;

describe('timeAxisLabels [FEAT-CHART, SPEC-9.2]', () => {
  it('shows times only for a span within one day', () => {
    const ticks = ticksBetween(at('2026-03-05T06:00:00Z'), at('2026-03-05T18:00:00Z'), 3 * HOUR);
    const labels = timeAxisLabels(ticks, 'UTC', span(ticks));
    expect(labels).toEqual(['06:00', '09:00', '12:00', '15:00', '18:00']);
    expect(labels.some((label) => DATE.test(label))).toBe(false);
  });

  it('shows seconds when the ticks are under a minute apart', () => {
    const ticks = ticksBetween(at('2026-03-05T06:00:00Z'), at('2026-03-05T06:01:00Z'), 20);
    expect(timeAxisLabels(ticks, 'UTC', span(ticks))).toEqual([
      '06:00:00',
      '06:00:20',
      '06:00:40',
      '06:01:00',
    ]);
  });

  it('puts the day under the first tick and under the first tick of each new day', () => {
    const ticks = ticksBetween(at('2026-03-05T12:00:00Z'), at('2026-03-07T12:00:00Z'), 6 * HOUR);
    expect(timeAxisLabels(ticks, 'UTC', span(ticks))).toEqual([
      '12:00\n03/05',
      '18:00',
      '00:00\n03/06',
      '06:00',
      '12:00',
      '18:00',
      '00:00\n03/07',
      '06:00',
      '12:00',
    ]);
  });

  it('reads the day in the user’s zone, not in UTC', () => {
    // 16:00 to 23:00 UTC on March 5 is 01:00 to 08:00 on March 6 in Tokyo (UTC+9): one day there.
    const ticks = ticksBetween(at('2026-03-05T16:00:00Z'), at('2026-03-05T23:00:00Z'), HOUR);
    const tokyo = timeAxisLabels(ticks, 'Asia/Tokyo', span(ticks));
    expect(tokyo.some((label) => DATE.test(label))).toBe(false);
    expect(tokyo[0]).toBe('01:00');
    // In Kolkata (UTC+5:30) the same instants cross midnight.
    const kolkata = timeAxisLabels(ticks, 'Asia/Kolkata', span(ticks));
    expect(kolkata[0]).toBe('21:30\n03/05');
    expect(kolkata.find((label) => label.startsWith('00:30'))).toBe('00:30\n03/06');
  });

  it('a span crossing midnight with its only tick on one day still carries the date', () => {
    const ticks = [at('2026-03-05T23:00:00Z')];
    const labels = timeAxisLabels(ticks, 'UTC', {
      min: at('2026-03-05T22:30:00Z'),
      max: at('2026-03-06T00:30:00Z'),
    });
    expect(labels).toEqual(['23:00\n03/05']);
  });

  it('shows days, with the year under the first and each new year, for ticks a day apart', () => {
    const ticks = ticksBetween(at('2026-12-30T00:00:00Z'), at('2027-01-02T00:00:00Z'), 24 * HOUR);
    expect(timeAxisLabels(ticks, 'UTC', span(ticks))).toEqual([
      '12/30\n2026',
      '12/31',
      '01/01\n2027',
      '01/02',
    ]);
  });

  it('keeps the labels in time order across the end of daylight saving time', () => {
    // Europe/Berlin, 2026-10-25: 02:00-03:00 CEST is followed by 02:00-03:00 CET (GMT+1 in en-US).
    const ticks = ticksBetween(at('2026-10-24T22:00:00Z'), at('2026-10-25T03:00:00Z'), HOUR);
    const labels = timeAxisLabels(ticks, 'Europe/Berlin', span(ticks));
    expect(labels).toEqual(['00:00', '01:00', '02:00', '02:00\nGMT+1', '03:00', '04:00']);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('keeps the days in order across daylight saving time changes', () => {
    // Midnights in New York around March 8, 2026 (a 23-hour day) and November 1 (25 hours).
    const spring = [
      at('2026-03-07T05:00:00Z'),
      at('2026-03-08T05:00:00Z'),
      at('2026-03-09T04:00:00Z'),
      at('2026-03-10T04:00:00Z'),
    ];
    expect(timeAxisLabels(spring, 'America/New_York', span(spring))).toEqual([
      '03/07\n2026',
      '03/08',
      '03/09',
      '03/10',
    ]);
    const autumn = ticksBetween(at('2026-10-31T16:00:00Z'), at('2026-11-01T16:00:00Z'), 6 * HOUR);
    const labels = timeAxisLabels(autumn, 'America/New_York', span(autumn));
    expect(labels).toEqual(['12:00\n10/31', '18:00', '00:00\n11/01', '05:00\nEST', '11:00']);
  });
});

describe('readoutPlacement [FEAT-CHART, SPEC-9.2]', () => {
  const plot = { width: 1000, height: 300 };
  const readout = { width: 180, height: 50 };

  it('sits below and right of the cursor when there is room', () => {
    expect(readoutPlacement({ left: 100, top: 40 }, readout, plot)).toEqual({
      left: 100 + READOUT_GAP,
      top: 40 + READOUT_GAP,
    });
  });

  it('flips to the left and above near the right and bottom edges', () => {
    expect(readoutPlacement({ left: 950, top: 280 }, readout, plot)).toEqual({
      left: 950 - READOUT_GAP - 180,
      top: 280 - READOUT_GAP - 50,
    });
  });

  it('stays inside the plot, even when it is nearly as large as the plot', () => {
    const wide = { width: 990, height: 295 };
    for (const cursor of [
      { left: 0, top: 0 },
      { left: 500, top: 150 },
      { left: 1000, top: 300 },
    ]) {
      const { left, top } = readoutPlacement(cursor, wide, plot);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(left + wide.width).toBeLessThanOrEqual(plot.width);
      expect(top + wide.height).toBeLessThanOrEqual(plot.height);
    }
  });
});
