import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanKineticTemperature } from './mean-kinetic-temperature';
import type { Series, SeriesValue } from './series';
import { temperatureSummary } from './temperature-summary';

// Points every 5 minutes from 1_700_000_060 (start 1_700_000_000, delay 60).
const series: Series = {
  startTimeSeconds: 1_700_000_000,
  startDelay: 60,
  intervalSeconds: 300,
  temps: [null, 4, 5.5, null, 8, null],
};

describe('temperatureSummary (worked example) [RULE-SUMMARY-1]', () => {
  it('summarises the recorded points, skipping gaps', () => {
    // Recorded points: index 1 (4 °C at 1_700_000_360), 2 (5.5 °C), 4 (8 °C at 1_700_001_260).
    // MKT of {4, 5.5, 8} by hand (50 digits, as in mean-kinetic-temperature.test.ts): 6.000491104003574.
    const summary = temperatureSummary(series);
    expect(summary).toEqual({
      highest_recorded_temperature: 8,
      lowest_recorded_temperature: 4,
      number_of_points: 3,
      first_point: 1_700_000_360,
      last_point: 1_700_001_260,
      record_duration: 900,
      mean_kinetic_temp: expect.closeTo(6.000491104003574, 9) as number,
    });
  });

  it('summarises a window only', () => {
    expect(temperatureSummary(series, { firstIdx: 2, lastIdx: 3 })).toEqual({
      highest_recorded_temperature: 5.5,
      lowest_recorded_temperature: 5.5,
      number_of_points: 1,
      first_point: 1_700_000_660,
      last_point: 1_700_000_660,
      record_duration: 0,
      mean_kinetic_temp: expect.closeTo(5.5, 9) as number,
    });
  });

  it('has no values without points', () => {
    const empty = {
      highest_recorded_temperature: null,
      lowest_recorded_temperature: null,
      number_of_points: 0,
      first_point: null,
      last_point: null,
      record_duration: null,
      mean_kinetic_temp: null,
    };
    expect(temperatureSummary({ ...series, temps: [] })).toEqual(empty);
    expect(temperatureSummary({ ...series, temps: [null, null] })).toEqual(empty);
    expect(temperatureSummary(series, null)).toEqual(empty);
    expect(temperatureSummary(series, { firstIdx: 5, lastIdx: 9 })).toEqual(empty);
  });
});

describe('temperatureSummary (properties) [RULE-SUMMARY-1]', () => {
  const value: fc.Arbitrary<SeriesValue> = fc.option(
    fc.integer({ min: -300, max: 500 }).map((t) => t / 10),
    { nil: null, freq: 4 },
  );
  const anySeries = fc.record({
    startTimeSeconds: fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }),
    startDelay: fc.integer({ min: 0, max: 3600 }),
    intervalSeconds: fc.integer({ min: 1, max: 3600 }),
    temps: fc.array(value, { maxLength: 60 }),
  });

  it('agrees with the recorded points', () => {
    fc.assert(
      fc.property(anySeries, (s) => {
        const summary = temperatureSummary(s);
        const recorded = s.temps.flatMap((t, i) => (t === null ? [] : [{ t, i }]));
        expect(summary.number_of_points).toBe(recorded.length);
        if (recorded.length === 0) {
          expect(summary.highest_recorded_temperature).toBeNull();
          return;
        }
        const values = recorded.map((p) => p.t);
        const first = recorded[0]?.i ?? Number.NaN;
        const last = recorded[recorded.length - 1]?.i ?? Number.NaN;
        expect(summary.highest_recorded_temperature).toBe(Math.max(...values));
        expect(summary.lowest_recorded_temperature).toBe(Math.min(...values));
        expect(summary.first_point).toBe(
          s.startTimeSeconds + s.startDelay + first * s.intervalSeconds,
        );
        expect(summary.last_point).toBe(
          s.startTimeSeconds + s.startDelay + last * s.intervalSeconds,
        );
        expect(summary.record_duration).toBe((last - first) * s.intervalSeconds);
        expect(summary.mean_kinetic_temp).toBe(meanKineticTemperature(values));
      }),
    );
  });
});
