import { zonedTimeFormat } from '@coldtrace/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tickInstants } from './report-times.fixtures';
import { timeAxisTicks, type TimeTick } from './time-axis';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OPTIONS = { maxTicks: 7, minGap: 0.14, endGuard: 0.065 };

const labels = (ticks: TimeTick[]) => ticks.map((t) => t.lines.join(' | '));
/** Each label's words, as a reader reads them off the axis. */
const words = (ticks: TimeTick[]) => ticks.map((t) => t.lines.flatMap((l) => l.split(' ')));

function ticks(startIso: string, hours: number, zone: string): TimeTick[] {
  const start = Date.parse(startIso);
  return timeAxisTicks(start, start + hours * HOUR, zonedTimeFormat(zone), OPTIONS);
}

describe('the time axis of the report chart [RULE-REPORT-1, RULE-REPORT-3]', () => {
  it.each([
    [
      'Berlin, autumn: the repeated hour twice, the second with its new offset',
      '2026-10-24T22:02:00Z',
      'Europe/Berlin',
      ['01:00 UTC+02:00 | 10/25/2026', '02:00', '02:00 UTC+01:00', '03:00'],
    ],
    [
      'Berlin, spring: the skipped hour has no tick',
      '2026-03-28T22:02:00Z',
      'Europe/Berlin',
      ['00:00 UTC+01:00 | 03/29/2026', '01:00', '03:00 UTC+02:00', '04:00'],
    ],
    [
      'New York, autumn',
      '2026-11-01T03:02:00Z',
      'America/New_York',
      ['00:00 UTC-04:00 | 11/01/2026', '01:00', '01:00 UTC-05:00', '02:00'],
    ],
    [
      'New York, spring',
      '2026-03-08T04:02:00Z',
      'America/New_York',
      ['00:00 UTC-05:00 | 03/08/2026', '01:00', '03:00 UTC-04:00', '04:00'],
    ],
  ])('%s: five hours, a tick an hour, read back to their instants', (_, start, zone, expected) => {
    const t = ticks(start, 5, zone);
    expect(labels(t)).toEqual(expected);
    expect(tickInstants(words(t))).toEqual(t.map((x) => x.ms));
  });

  it('the ticks are placed by instant: an hour apart through either change', () => {
    const autumn = ticks('2026-10-24T22:02:00Z', 5, 'Europe/Berlin');
    expect(autumn.map((x) => new Date(x.ms).toISOString())).toEqual([
      '2026-10-24T23:00:00.000Z',
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
    const spring = ticks('2026-03-28T22:02:00Z', 5, 'Europe/Berlin');
    expect(spring.slice(1).map((x, i) => x.ms - spring[i]!.ms)).toEqual([HOUR, HOUR, HOUR]);
  });

  it('half-hour steps through the repeated hour; seconds on a span of minutes', () => {
    const t = ticks('2026-10-25T00:00:00Z', 1.5, 'Europe/Berlin');
    expect(labels(t)).toEqual([
      '02:00 UTC+02:00 | 10/25/2026',
      '02:15',
      '02:30',
      '02:45',
      '02:00 UTC+01:00',
      '02:15',
    ]);
    const short = ticks('2026-10-25T00:59:30Z', 1.5 / 60, 'Europe/Berlin');
    expect(labels(short)[0]).toBe('02:59:30 UTC+02:00 | 10/25/2026');
    expect(labels(short)).toContain('02:00:00 UTC+01:00');
  });

  it('a week: one tick a day with its date, the offset where it changes', () => {
    const t = ticks('2026-10-22T00:00:00Z', 7 * 24, 'Europe/Berlin');
    expect(labels(t)).toEqual([
      '10/23/2026 | UTC+02:00',
      '10/24/2026',
      '10/25/2026',
      '10/26/2026 | UTC+01:00',
      '10/27/2026',
      '10/28/2026',
    ]);
  });

  it('a record across both changes of the year: every other month, in order', () => {
    const t = ticks('2026-03-07T00:00:00Z', 240 * 24, 'America/New_York');
    expect(labels(t)).toEqual(['05/01/2026 | UTC-04:00', '07/01/2026', '09/01/2026']);
  });

  it('one point: one label at it', () => {
    const at = Date.parse('2026-10-25T01:30:00Z');
    expect(labels(timeAxisTicks(at, at, zonedTimeFormat('Europe/Berlin'), OPTIONS))).toEqual([
      '02:30:00 UTC+01:00 | 10/25/2026',
    ]);
  });

  it('any span near a change: ticks in order, inside, apart, and their labels read back to them', () => {
    const changes = [
      ['Europe/Berlin', '2026-03-29T01:00:00Z'],
      ['Europe/Berlin', '2026-10-25T01:00:00Z'],
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['America/New_York', '2026-11-01T06:00:00Z'],
      ['America/St_Johns', '2026-11-01T04:30:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
    ] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...changes),
        fc.integer({ min: -3 * DAY, max: 3 * HOUR }),
        fc.integer({ min: 60_000, max: 400 * DAY }),
        ([zone, change], before, span) => {
          const start = Date.parse(change) + before;
          const end = start + span;
          const t = timeAxisTicks(start, end, zonedTimeFormat(zone), OPTIONS);
          expect(t.length).toBeGreaterThan(0);
          expect(t.length).toBeLessThanOrEqual(OPTIONS.maxTicks);
          for (const [i, tick] of t.entries()) {
            expect(tick.ms).toBeGreaterThanOrEqual(start);
            expect(tick.ms).toBeLessThanOrEqual(end);
            if (i === 0) continue;
            expect(tick.ms - t[i - 1]!.ms).toBeGreaterThanOrEqual(OPTIONS.minGap * span);
            expect(tick.ms).toBeLessThanOrEqual(end - OPTIONS.endGuard * span);
          }
          // Read along the axis (each label with the date and offset last shown), back to the instants.
          expect(tickInstants(words(t))).toEqual(t.map((x) => x.ms));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
