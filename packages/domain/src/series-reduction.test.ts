import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SeriesValue } from './series';
import { bucketSizeFor, isExcursionValue, reduceSeries } from './series-reduction';

const temperature = fc.integer({ min: -400, max: 600 }).map((tenths) => tenths / 10);
const value: fc.Arbitrary<SeriesValue> = fc.option(temperature, { nil: null, freq: 8 });
const threshold = fc.option(temperature, { nil: null, freq: 4 });
/** A series, a width that usually reduces it, and thresholds. */
const input = fc.record({
  temps: fc.array(value, { maxLength: 600 }),
  width: fc.integer({ min: 1, max: 60 }),
  high: threshold,
  low: threshold,
});

describe('reduceSeries [FEAT-COMPACT-SERIES]', () => {
  it('returns a series of at most 2 x width points unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 120 }),
        fc.integer({ min: 60, max: 200 }),
        (t, w) => {
          const out = reduceSeries(t, { width: w, high: 8, low: 2 });
          expect(out).toEqual({ reduced: false, bucketSize: 1, indices: null, values: t });
        },
      ),
    );
  });

  it('keeps indices ascending, each value the one at its index', () => {
    fc.assert(
      fc.property(input, ({ temps, width, high, low }) => {
        const out = reduceSeries(temps, { width, high, low });
        if (!out.reduced) return;
        expect(out.indices).toHaveLength(out.values.length);
        out.indices!.forEach((at, k) => {
          if (k > 0) expect(at).toBeGreaterThan(out.indices![k - 1]!);
          expect(out.values[k]).toBe(temps[at]);
        });
      }),
    );
  });

  it('keeps the lowest and highest value of every bucket, and a gap where a bucket has one', () => {
    fc.assert(
      fc.property(input, ({ temps, width, high, low }) => {
        const out = reduceSeries(temps, { width, high, low });
        if (!out.reduced) return;
        const kept = new Map(out.indices!.map((at, k) => [at, out.values[k]]));
        for (let start = 0; start < temps.length; start += out.bucketSize) {
          const bucket = temps.slice(start, start + out.bucketSize);
          const present = bucket.filter((v): v is number => v !== null);
          const keptHere = [...kept].filter(([at]) => at >= start && at < start + out.bucketSize);
          const keptValues = keptHere.map(([, v]) => v).filter((v): v is number => v !== null);
          if (present.length > 0) {
            expect(keptValues).toContain(Math.min(...present));
            expect(keptValues).toContain(Math.max(...present));
          }
          if (present.length < bucket.length) {
            expect(keptHere.some(([, v]) => v === null)).toBe(true);
          }
        }
      }),
    );
  });

  it('keeps every point in excursion exactly, at its index', () => {
    fc.assert(
      fc.property(input, ({ temps, width, high, low }) => {
        const out = reduceSeries(temps, { width, high, low });
        const at = out.indices ?? temps.map((_, i) => i);
        const kept = new Map(at.map((i, k) => [i, out.values[k]]));
        temps.forEach((v, i) => {
          if (isExcursionValue(v, high, low)) expect(kept.get(i)).toBe(v);
        });
      }),
    );
  });

  it('answers at most 3 points per column plus the excursion points', () => {
    fc.assert(
      fc.property(input, ({ temps, width, high, low }) => {
        const out = reduceSeries(temps, { width, high, low });
        const excursions = temps.filter((v) => isExcursionValue(v, high, low)).length;
        expect(out.values.length).toBeLessThanOrEqual(
          Math.max(temps.length <= 2 * width ? temps.length : 0, 3 * width + excursions),
        );
        // Without gaps, min and max per column: at most 2 per column plus the excursions.
        if (!temps.includes(null)) {
          expect(out.values.length).toBeLessThanOrEqual(
            Math.max(temps.length <= 2 * width ? temps.length : 0, 2 * width + excursions),
          );
        }
      }),
    );
  });

  it('reduces 60,000 points to two per column around an excursion kept whole', () => {
    const temps: SeriesValue[] = Array.from({ length: 60_000 }, (_, i) => 5 + Math.sin(i / 500));
    for (let i = 30_000; i < 30_010; i++) temps[i] = 9 + i / 100_000;
    temps[45_000] = null;
    const out = reduceSeries(temps, { width: 1000, high: 8, low: 2 });
    expect(out.reduced).toBe(true);
    expect(out.bucketSize).toBe(60);
    expect(out.values.length).toBeLessThanOrEqual(2 * 1000 + 10 + 1);
    expect(out.values.length).toBeGreaterThan(1000);
    for (let i = 30_000; i < 30_010; i++) expect(out.indices).toContain(i);
    expect(out.values[out.indices!.indexOf(45_000)]).toBeNull();
  });

  it('refuses a width that is not a positive integer', () => {
    expect(() => bucketSizeFor(10, 0)).toThrow(RangeError);
    expect(() => bucketSizeFor(10, 1.5)).toThrow(RangeError);
    expect(bucketSizeFor(7, 3)).toBe(3);
    expect(bucketSizeFor(6, 3)).toBe(1);
  });
});
