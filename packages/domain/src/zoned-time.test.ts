import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { supportedTimeZones } from './timezones';
import {
  formatIsoDateTimeWithOffset,
  formatUtcOffset,
  formatZonedDateTime,
  parseZonedDateTime,
  zonedTimeFormat,
  zoneOffsets,
} from './zoned-time';

const OFFSET_NAMES = new Map<string, Intl.DateTimeFormat>();

/** The offset in seconds as Intl names it (`GMT+05:30`, `GMT`): an oracle apart from the code. */
function intlOffsetSeconds(timeZone: string, epochMs: number): number {
  let names = OFFSET_NAMES.get(timeZone);
  if (names === undefined) {
    names = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    OFFSET_NAMES.set(timeZone, names);
  }
  const name = names.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')!.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
  if (m === null) throw new Error(`unexpected offset name ${name}`);
  if (m[1] === undefined) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -seconds : seconds;
}

/** Every instant of 2026 at which the zone's offset changes (to the second), found with Intl alone. */
function transitions2026(timeZone: string): number[] {
  const out: number[] = [];
  const start = Date.UTC(2026, 0, 1);
  const end = Date.UTC(2027, 0, 1);
  const day = 86_400_000;
  for (let t = start; t < end; t += day) {
    if (intlOffsetSeconds(timeZone, t) === intlOffsetSeconds(timeZone, t + day)) continue;
    let lo = t;
    let hi = t + day;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (intlOffsetSeconds(timeZone, mid) === intlOffsetSeconds(timeZone, lo)) lo = mid;
      else hi = mid;
    }
    out.push(hi);
  }
  return out;
}

/** Zones with summer time, half- and quarter-hour offsets, a 30-minute shift, and UTC. */
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
  'Europe/London',
  'Australia/Adelaide',
  'Asia/Katmandu',
  'UTC',
];
const TRANSITIONS = ZONES.flatMap((zone) => transitions2026(zone).map((at) => ({ zone, at })));

const BERLIN = zonedTimeFormat('Europe/Berlin');
const NEW_YORK = zonedTimeFormat('America/New_York');

describe('times that carry their zone [RULE-REPORT-3]', () => {
  it('the hour repeated at the end of summer time reads apart', () => {
    // 00:30 and 01:30 UTC on 2026-10-25 are both 02:30 in Berlin.
    const first = Date.UTC(2026, 9, 25, 0, 30);
    const second = Date.UTC(2026, 9, 25, 1, 30);
    expect(BERLIN.text(first)).toBe('10/25/2026, 02:30:00 UTC+02:00');
    expect(BERLIN.text(second)).toBe('10/25/2026, 02:30:00 UTC+01:00');
    expect(BERLIN.iso(first)).toBe('2026-10-25T02:30:00+02:00');
    expect(BERLIN.iso(second)).toBe('2026-10-25T02:30:00+01:00');
    // The wall clock alone is the same twice: only for a column of a fixed zone, such as UTC.
    expect(BERLIN.plain(first)).toBe(BERLIN.plain(second));
    expect(zonedTimeFormat('UTC').plain(second)).toBe('2026-10-25 01:30:00');
    // New York: 05:30 and 06:30 UTC on 2026-11-01 are both 01:30.
    expect(NEW_YORK.iso(Date.UTC(2026, 10, 1, 5, 30))).toBe('2026-11-01T01:30:00-04:00');
    expect(NEW_YORK.iso(Date.UTC(2026, 10, 1, 6, 30))).toBe('2026-11-01T01:30:00-05:00');
  });

  it('the hour skipped at the start of summer time is skipped', () => {
    // 00:30 UTC on 2026-03-29 is 01:30 in Berlin, 01:00 UTC is 03:00.
    expect(BERLIN.iso(Date.UTC(2026, 2, 29, 0, 30))).toBe('2026-03-29T01:30:00+01:00');
    expect(BERLIN.iso(Date.UTC(2026, 2, 29, 1, 0))).toBe('2026-03-29T03:00:00+02:00');
    expect(BERLIN.iso(Date.UTC(2026, 2, 29, 0, 59, 59))).toBe('2026-03-29T01:59:59+01:00');
    expect(NEW_YORK.text(Date.UTC(2026, 2, 8, 7))).toBe('03/08/2026, 03:00:00 UTC-04:00');
    expect(NEW_YORK.text(Date.UTC(2026, 2, 8, 6, 59, 59))).toBe('03/08/2026, 01:59:59 UTC-05:00');
  });

  it('offsets of half and quarter hours, UTC, and seconds when an offset has them', () => {
    expect(zonedTimeFormat('Asia/Calcutta').iso(Date.UTC(2026, 0, 1))).toBe(
      '2026-01-01T05:30:00+05:30',
    );
    expect(zonedTimeFormat('America/St_Johns').text(Date.UTC(2026, 0, 1))).toBe(
      '12/31/2025, 20:30:00 UTC-03:30',
    );
    expect(zonedTimeFormat('Asia/Katmandu').iso(Date.UTC(2026, 0, 1))).toBe(
      '2026-01-01T05:45:00+05:45',
    );
    expect(zonedTimeFormat('UTC').text(Date.UTC(2026, 0, 1))).toBe(
      '01/01/2026, 00:00:00 UTC+00:00',
    );
    expect(formatUtcOffset(-2670)).toBe('-00:44:30');
    expect(formatUtcOffset(0)).toBe('+00:00');
    expect(formatUtcOffset(-12_600)).toBe('-03:30');
  });

  it('one-off formatting: Dates, ISO strings, epoch ms; `—` for what is not an instant; an unknown zone is UTC', () => {
    expect(formatZonedDateTime('2026-10-25T00:30:00Z', 'Europe/Berlin')).toBe(
      '10/25/2026, 02:30:00 UTC+02:00',
    );
    expect(formatIsoDateTimeWithOffset(new Date(Date.UTC(2026, 6, 1, 12)), 'Not/A_Zone')).toBe(
      '2026-07-01T12:00:00+00:00',
    );
    // An alias reads as its canonical zone.
    expect(formatIsoDateTimeWithOffset(Date.UTC(2026, 0, 1), 'Asia/Kolkata')).toBe(
      '2026-01-01T05:30:00+05:30',
    );
    expect(formatZonedDateTime(null, 'UTC')).toBe('—');
    expect(formatIsoDateTimeWithOffset('nonsense', 'UTC')).toBe('—');
  });

  it('reads back only times with their offset', () => {
    expect(parseZonedDateTime('10/25/2026, 02:30:00 UTC+01:00')?.toISOString()).toBe(
      '2026-10-25T01:30:00.000Z',
    );
    expect(parseZonedDateTime('2026-10-25T02:30:00+02:00')?.toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(parseZonedDateTime('1970-01-01T00:00:00-00:44:30')?.toISOString()).toBe(
      '1970-01-01T00:44:30.000Z',
    );
    for (const text of [
      '10/25/2026, 02:30:00',
      '2026-10-25T02:30:00',
      '2026-02-30T02:30:00+01:00',
      '13/01/2026, 02:30:00 UTC+01:00',
      '2026-10-25T24:00:00+01:00',
      '2026-10-25T02:30:00+01:60',
      '',
    ]) {
      expect(parseZonedDateTime(text), text).toBeNull();
    }
  });

  it('finds the 2026 changes of Berlin and New York where they are', () => {
    expect(transitions2026('Europe/Berlin').map((t) => new Date(t).toISOString())).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
    ]);
    expect(transitions2026('America/New_York').map((t) => new Date(t).toISOString())).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-11-01T06:00:00.000Z',
    ]);
  });

  it('format then parse gives the instant back, to the second, around every 2026 change', () => {
    expect(TRANSITIONS.length).toBeGreaterThan(10);
    fc.assert(
      fc.property(
        fc.constantFrom(...TRANSITIONS),
        fc.integer({ min: -2 * 3_600_000, max: 2 * 3_600_000 }),
        ({ zone, at }, delta) => {
          const instant = at + delta;
          const format = zonedTimeFormat(zone);
          const second = Math.floor(instant / 1000) * 1000;
          expect(parseZonedDateTime(format.text(instant))?.getTime()).toBe(second);
          expect(parseZonedDateTime(format.iso(instant))?.getTime()).toBe(second);
          expect(format.offsetSeconds(instant)).toBe(intlOffsetSeconds(zone, instant));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a memoised formatter agrees with a fresh one instant by instant across a change', () => {
    // One formatter over a walk that crosses each change, so cached quarter hours are reused.
    for (const { zone, at } of TRANSITIONS) {
      const offsets = zoneOffsets(zone);
      for (let t = at - 3_600_000; t <= at + 3_600_000; t += 7_000) {
        expect(offsets(t), `${zone} ${new Date(t).toISOString()}`).toBe(intlOffsetSeconds(zone, t));
      }
    }
  });

  it('a change off the quarter hour (Monrovia, 1972-01-07 00:44:30 UTC) is exact to the second', () => {
    const change = Date.UTC(1972, 0, 7, 0, 44, 30);
    const format = zonedTimeFormat('Africa/Monrovia');
    for (let t = change - 20 * 60_000; t <= change + 20 * 60_000; t += 1000) {
      expect(format.offsetSeconds(t), new Date(t).toISOString()).toBe(
        intlOffsetSeconds('Africa/Monrovia', t),
      );
    }
    expect(format.iso(change - 1000)).toBe('1972-01-06T23:59:59-00:44:30');
    expect(format.iso(change)).toBe('1972-01-07T00:44:30+00:00');
    expect(parseZonedDateTime(format.text(change - 1000))?.getTime()).toBe(change - 1000);
  });

  it('format then parse gives the instant back in any supported zone, 1970 to 2100', () => {
    const zones = supportedTimeZones();
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
        (zone, instant) => {
          const format = zonedTimeFormat(zone);
          const second = Math.floor(instant / 1000) * 1000;
          expect(parseZonedDateTime(format.text(instant))?.getTime()).toBe(second);
          expect(parseZonedDateTime(format.iso(instant))?.getTime()).toBe(second);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('times in order print in order: parsed back they never go backwards', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRANSITIONS),
        fc.array(fc.integer({ min: -2 * 3_600_000, max: 2 * 3_600_000 }), {
          minLength: 2,
          maxLength: 40,
        }),
        ({ zone, at }, deltas) => {
          const format = zonedTimeFormat(zone);
          const seconds = [...new Set(deltas.map((d) => Math.floor((at + d) / 1000)))].sort(
            (a, b) => a - b,
          );
          const back = seconds.map((s) => parseZonedDateTime(format.text(s * 1000))!.getTime());
          for (let i = 1; i < back.length; i++) expect(back[i]!).toBeGreaterThan(back[i - 1]!);
        },
      ),
    );
  });
});
