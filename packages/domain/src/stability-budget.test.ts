import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  binOf,
  budgetUsage,
  histogramOf,
  isBandLimit,
  pointsBeyond,
  projectBand,
  type StabilityBand,
} from './stability-budget';

/** Temperatures as the series stores them: 4 decimals. */
const stored = fc.integer({ min: -400_000, max: 600_000 }).map((v) => v / 10_000);
const onEdges = fc.integer({ min: -400, max: 600 }).map((v) => v / 10);
const value = fc.oneof(stored, onEdges, fc.constant(null));
const limit = fc.integer({ min: -300, max: 400 }).map((v) => v / 10);
const direction = fc.constantFrom('ABOVE' as const, 'BELOW' as const);

const bruteForce = (
  values: readonly (number | null)[],
  band: Pick<StabilityBand, 'direction' | 'limit'>,
) =>
  values.filter((t) => t !== null && (band.direction === 'ABOVE' ? t > band.limit : t < band.limit))
    .length;

describe('stability budget: the band histogram [FEAT-STABILITY-BUDGET]', () => {
  it('counts exactly the points strictly beyond any limit of 0.1 °C', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 200 }), limit, direction, (values, lim, dir) => {
        const band = { direction: dir, limit: lim };
        expect(pointsBeyond(histogramOf(values), band)).toBe(bruteForce(values, band));
      }),
      { numRuns: 2000 },
    );
  });

  it('a value on a limit is not beyond it, in either direction', () => {
    const h = histogramOf([8, 8, 8.0001, 7.9999, 0, -0.1, 25]);
    expect(pointsBeyond(h, { direction: 'ABOVE', limit: 8 })).toBe(2); // 8.0001, 25
    expect(pointsBeyond(h, { direction: 'BELOW', limit: 8 })).toBe(3); // 7.9999, 0, -0.1
    expect(pointsBeyond(h, { direction: 'BELOW', limit: 0 })).toBe(1); // -0.1
    expect(pointsBeyond(h, { direction: 'ABOVE', limit: 25 })).toBe(0);
  });

  it('limits are multiples of 0.1 °C; float noise of such a multiple is still one', () => {
    expect(isBandLimit(8)).toBe(true);
    expect(isBandLimit(2.5)).toBe(true);
    expect(isBandLimit(0.1 + 0.2)).toBe(true);
    expect(isBandLimit(-0.3)).toBe(true);
    expect(isBandLimit(8.05)).toBe(false);
    expect(isBandLimit(Number.NaN)).toBe(false);
    expect(binOf(0.1 + 0.2)).toEqual({ bin: 3, edge: true });
    expect(binOf(-0.05)).toEqual({ bin: -1, edge: false });
  });
});

describe('stability budget: use across legs [FEAT-STABILITY-BUDGET]', () => {
  // The example: 720 minutes above 8 °C, 60 above 25 °C, 0 below 0 °C.
  const bands: StabilityBand[] = [
    { direction: 'ABOVE', limit: 8, allowed_minutes: 720 },
    { direction: 'ABOVE', limit: 25, allowed_minutes: 60 },
    { direction: 'BELOW', limit: 0, allowed_minutes: 0 },
  ];

  it('worked example: two legs at 10-minute and 15-minute intervals', () => {
    // Leg 1 (10 min/point): 30 points at 9 °C (300 min above 8), 3 at 26 °C (30 min above 25, also above 8).
    const leg1 = [...Array<number>(30).fill(9), 26, 26, 26, ...Array<number>(20).fill(5)];
    // Leg 2 (15 min/point): 20 points at 12 °C (300 min above 8), 2 at 30 °C (30 min above 25 and 8).
    const leg2 = [...Array<number>(20).fill(12), 30, 30, 4];
    const usage = budgetUsage(bands, [
      { recordId: 11, intervalSeconds: 600, histogram: histogramOf(leg1) },
      { recordId: 12, intervalSeconds: 900, histogram: histogramOf(leg2) },
    ]);
    expect(usage[0]).toMatchObject({
      allowed_minutes: 720,
      consumed_minutes: 330 + 330,
      remaining_minutes: 60,
      used_up: false,
      per_leg: [
        { record_id: 11, consumed_minutes: 330 },
        { record_id: 12, consumed_minutes: 330 },
      ],
    });
    expect(usage[1]).toMatchObject({ consumed_minutes: 60, remaining_minutes: 0, used_up: true });
    expect(usage[2]).toMatchObject({ consumed_minutes: 0, remaining_minutes: 0, used_up: false });
  });

  it('a band of 0 minutes is used up by the first point beyond it', () => {
    const [, , below] = budgetUsage(bands, [
      { recordId: 1, intervalSeconds: 300, histogram: histogramOf([3, -0.5, 3]) },
    ]);
    expect(below).toMatchObject({ consumed_minutes: 5, remaining_minutes: 0, used_up: true });
  });

  it('consumed is the sum of the legs, in any order, whatever the split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(60, 300, 600, 900),
        limit,
        direction,
        fc.integer({ min: 0, max: 5000 }),
        (legs, interval, lim, dir, allowed) => {
          const band = { direction: dir, limit: lim, allowed_minutes: allowed };
          const asLegs = legs.map((values, i) => ({
            recordId: i + 1,
            intervalSeconds: interval,
            histogram: histogramOf(values),
          }));
          const [usage] = budgetUsage([band], asLegs);
          const [reversed] = budgetUsage([band], [...asLegs].reverse());
          const all = legs.flat();
          const expected = (bruteForce(all, band) * interval) / 60;
          expect(usage!.consumed_minutes).toBe(expected);
          expect(reversed!.consumed_minutes).toBe(expected);
          expect(usage!.remaining_minutes).toBe(Math.max(0, allowed - expected));
          expect(usage!.used_up).toBe(expected > 0 && expected >= allowed);
        },
      ),
    );
  });
});

describe('stability budget: projection at the current rate [FEAT-STABILITY-BUDGET]', () => {
  it('projects the leg rate over the time to go, and says when the band runs out', () => {
    // 120 of the leg's 480 minutes were beyond (rate 0.25); 600 minutes to go.
    const p = projectBand({ allowed_minutes: 720, consumed_minutes: 500 }, 120, 480, 600);
    expect(p).toEqual({ projected_minutes: 650, used_up_in_minutes: null });
    const q = projectBand({ allowed_minutes: 720, consumed_minutes: 600 }, 120, 480, 600);
    expect(q).toEqual({ projected_minutes: 750, used_up_in_minutes: 480 });
  });

  it('no rate without elapsed time', () => {
    expect(projectBand({ allowed_minutes: 60, consumed_minutes: 0 }, 0, 0, 100)).toBeNull();
  });
});
