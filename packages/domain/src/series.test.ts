import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveInterval, mergeSlice, pointTime, type SeriesValue } from './series';

const temperature = fc.integer({ min: -400, max: 600 }).map((tenths) => tenths / 10);
const value: fc.Arbitrary<SeriesValue> = fc.option(temperature, { nil: null, freq: 5 });

describe('effectiveInterval [RULE-SERIES-2, RULE-SERIES-3, RULE-SERIES-4]', () => {
  it('prefers calculated_measurement_interval', () => {
    expect(
      effectiveInterval({ measurement_interval: 600, calculated_measurement_interval: 598.5 }),
    ).toBe(598.5);
  });

  it('falls back to measurement_interval when the calculated one is absent or unusable', () => {
    expect(effectiveInterval({ measurement_interval: 600 })).toBe(600);
    expect(
      effectiveInterval({ measurement_interval: 600, calculated_measurement_interval: null }),
    ).toBe(600);
    expect(
      effectiveInterval({ measurement_interval: 600, calculated_measurement_interval: 0 }),
    ).toBe(600);
    expect(
      effectiveInterval({ measurement_interval: 600, calculated_measurement_interval: Number.NaN }),
    ).toBe(600);
  });

  it('is null when neither interval is usable', () => {
    expect(effectiveInterval({})).toBeNull();
    expect(
      effectiveInterval({ measurement_interval: 0, calculated_measurement_interval: -5 }),
    ).toBeNull();
  });
});

describe('pointTime [RULE-SERIES-2, RULE-SERIES-3, RULE-SERIES-4]', () => {
  it('is start_time_seconds + start_delay + i * interval', () => {
    const series = { startTimeSeconds: 1_700_000_000, startDelay: 300, intervalSeconds: 600 };
    expect(pointTime(series, 0)).toBe(1_700_000_300);
    expect(pointTime(series, 3)).toBe(1_700_002_100);
  });
});

describe('mergeSlice [RULE-SERIES-2, RULE-SERIES-3, RULE-SERIES-4]', () => {
  it('takes a whole log into an empty series', () => {
    expect(mergeSlice([], 0, [4, 4.5, 5])).toEqual({ temps: [4, 4.5, 5], added: 3, conflicts: [] });
  });

  it('fills gaps and extends the end, keeping stored values', () => {
    expect(mergeSlice([1, null, 3], 1, [2, 3, 4])).toEqual({
      temps: [1, 2, 3, 4],
      added: 2,
      conflicts: [],
    });
  });

  it('keeps the first value and reports a conflicting one', () => {
    expect(mergeSlice([1, 2], 1, [5, 6])).toEqual({
      temps: [1, 2, 6],
      added: 1,
      conflicts: [{ index: 1, kept: 2, offered: 5 }],
    });
  });

  it('leaves a gap between the stored end and a later slice', () => {
    expect(mergeSlice([1], 3, [4])).toEqual({ temps: [1, null, null, 4], added: 1, conflicts: [] });
  });

  it('never erases a value with a null, and treats non-finite values as gaps', () => {
    expect(mergeSlice([1, 2], 0, [null, Number.NaN, Infinity])).toEqual({
      temps: [1, 2, null],
      added: 0,
      conflicts: [],
    });
  });

  it('does not modify its input', () => {
    const existing = [1, null];
    const slice = [7, 8];
    mergeSlice(existing, 0, slice);
    expect(existing).toEqual([1, null]);
    expect(slice).toEqual([7, 8]);
  });

  it('rejects an offset that is not a non-negative integer', () => {
    expect(() => mergeSlice([], -1, [1])).toThrow(RangeError);
    expect(() => mergeSlice([], 1.5, [1])).toThrow(RangeError);
    expect(() => mergeSlice([], Number.NaN, [1])).toThrow(RangeError);
  });

  it('is idempotent: the same upload twice changes nothing the second time', () => {
    // A conflicting upload sent again is reported again (to be logged), but stores nothing.
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 40 }),
        fc.nat(50),
        fc.array(value, { maxLength: 40 }),
        (existing, offset, slice) => {
          const once = mergeSlice(existing, offset, slice);
          const twice = mergeSlice(once.temps, offset, slice);
          expect(twice).toEqual({ temps: once.temps, added: 0, conflicts: once.conflicts });
        },
      ),
    );
  });

  it('keeps every stored value, fills only gaps, and reports exactly the differing points', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 40 }),
        fc.nat(50),
        fc.array(value, { maxLength: 40 }),
        (existing, offset, slice) => {
          const { temps, added, conflicts } = mergeSlice(existing, offset, slice);
          expect(temps).toHaveLength(Math.max(existing.length, offset + slice.length));
          let expectedAdded = 0;
          const expectedConflicts: { index: number; kept: number; offered: number }[] = [];
          temps.forEach((t, i) => {
            const kept = existing[i] ?? null;
            const offered = i >= offset ? (slice[i - offset] ?? null) : null;
            if (kept !== null) {
              expect(t).toBe(kept);
              if (offered !== null && offered !== kept) {
                expectedConflicts.push({ index: i, kept, offered });
              }
            } else {
              expect(t).toBe(offered);
              if (offered !== null) expectedAdded++;
            }
          });
          expect(added).toBe(expectedAdded);
          expect(conflicts).toEqual(expectedConflicts);
        },
      ),
    );
  });

  it('rebuilds a series from its slices merged in any order, with repeats', () => {
    const slicesOf = fc.array(value, { minLength: 1, maxLength: 60 }).chain((original) =>
      (original.length === 1
        ? fc.constant<number[]>([])
        : fc.uniqueArray(fc.integer({ min: 1, max: original.length - 1 }), {
            maxLength: original.length - 1,
          })
      ).chain((cuts) => {
        const bounds = [0, ...[...cuts].sort((a, b) => a - b), original.length];
        const slices = bounds
          .slice(0, -1)
          .map((from, k) => ({ offset: from, temps: original.slice(from, bounds[k + 1]) }));
        // Every slice at least once, some several times, in a random order.
        return fc
          .tuple(
            fc.shuffledSubarray(slices, { minLength: slices.length }),
            fc.array(fc.constantFrom(...slices), { maxLength: 5 }),
          )
          .chain(([all, repeats]) =>
            fc.shuffledSubarray([...all, ...repeats], {
              minLength: all.length + repeats.length,
            }),
          )
          .map((uploads) => ({ original, uploads }));
      }),
    );
    fc.assert(
      fc.property(slicesOf, ({ original, uploads }) => {
        let temps: SeriesValue[] = [];
        let added = 0;
        for (const upload of uploads) {
          const result = mergeSlice(temps, upload.offset, upload.temps);
          expect(result.conflicts).toEqual([]);
          temps = result.temps;
          added += result.added;
        }
        expect(temps).toEqual(original);
        expect(added).toBe(original.filter((t) => t !== null).length);
      }),
    );
  });
});
