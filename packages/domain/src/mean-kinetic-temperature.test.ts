import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanKineticTemperature } from './mean-kinetic-temperature';

/*
 * Worked examples. ΔH/R = 10000 K, T_i = t_i + 273.15. Each was computed by
 * hand from the formula with 50 significant digits (Python `decimal`), step by
 * step as written here.
 *
 * {20, 30}:
 *   T = 293.15 K, 303.15 K
 *   10000 / T = 34.11222923418045, 32.98697014679202
 *   exp(-10000/T) = 1.531958773533643e-15, 4.719987957035447e-15
 *   mean = 3.125973365284545e-15, ln(mean) = -33.39903068333012
 *   Tmk = 10000 / 33.39903068333012 = 299.4098869160034 K = 26.2598869160034 °C
 *
 * {2, 8} (a refrigerated product, the 2-8 °C band):
 *   T = 275.15 K, 281.15 K; exp terms 1.644685239232363e-16, 3.572120726720702e-16
 *   mean = 2.608402982976532e-16, ln(mean) = -35.88262333776453
 *   Tmk = 278.6864245088663 K = 5.536424508866343 °C
 *
 * 23 hours at 25 °C and 1 hour at 40 °C (a warehouse excursion, hourly points):
 *   exp(-10000/298.15) = 2.714511601097496e-15, exp(-10000/313.15) = 1.353390796462115e-14
 *   mean = (23 x 2.714511601097496e-15 + 1.353390796462115e-14) / 24 = 3.165319782910981e-15
 *   ln(mean) = -33.38652230716381
 *   Tmk = 299.5220618666917 K = 26.37206186669166 °C
 *   (the arithmetic mean is 25.625 °C: one hot hour weighs more than its share)
 *
 * {-20, 25}:
 *   mean of exp terms = 1.360750030814487e-15, ln = -34.23074035393329
 *   Tmk = 292.1350779037693 K = 18.98507790376926 °C
 */
describe('meanKineticTemperature (worked examples) [RULE-SUMMARY-2]', () => {
  it('is the constant itself for a constant series', () => {
    expect(meanKineticTemperature([5, 5, 5])).toBeCloseTo(5, 9);
    expect(meanKineticTemperature([-18.5])).toBeCloseTo(-18.5, 9);
    expect(meanKineticTemperature(new Array<number>(100_000).fill(25))).toBeCloseTo(25, 9);
  });

  it('{20, 30} is 26.2599 °C', () => {
    expect(meanKineticTemperature([20, 30])).toBeCloseTo(26.2598869160034, 9);
  });

  it('{2, 8} is 5.5364 °C', () => {
    expect(meanKineticTemperature([2, 8])).toBeCloseTo(5.536424508866343, 9);
  });

  it('23 h at 25 °C and 1 h at 40 °C is 26.3721 °C', () => {
    const temps = [...new Array<number>(23).fill(25), 40];
    expect(meanKineticTemperature(temps)).toBeCloseTo(26.37206186669166, 9);
  });

  it('{-20, 25} is 18.9851 °C', () => {
    expect(meanKineticTemperature([-20, 25])).toBeCloseTo(18.98507790376926, 9);
  });

  it('skips gaps, and is null without any value', () => {
    expect(meanKineticTemperature([null, 20, null, 30, undefined])).toBeCloseTo(
      26.2598869160034,
      9,
    );
    expect(meanKineticTemperature([])).toBeNull();
    expect(meanKineticTemperature([null, null])).toBeNull();
  });

  it('skips values no sensor can report (non-finite, at or below absolute zero)', () => {
    expect(meanKineticTemperature([20, Number.NaN, 30, Infinity, -273.15, -300])).toBeCloseTo(
      26.2598869160034,
      9,
    );
    expect(meanKineticTemperature([-273.15])).toBeNull();
  });

  it('stays finite at extreme but physical temperatures', () => {
    const mkt = meanKineticTemperature([-196, 150]);
    expect(mkt).not.toBeNull();
    expect(Number.isFinite(mkt)).toBe(true);
  });

  it('takes another activation energy', () => {
    // ΔH/R = 5000 K, {20, 30}: as above with 5000 in place of 10000, 25.61177600914584 °C.
    const mkt = meanKineticTemperature([20, 30], 5000) ?? Number.NaN;
    expect(mkt).toBeCloseTo(25.61177600914584, 9);
    // A lower activation energy weighs the hot values less.
    expect(mkt).toBeLessThan(meanKineticTemperature([20, 30]) ?? Number.NaN);
  });
});

const temperature = fc.double({ min: -60, max: 80, noNaN: true });
const temps = fc.array(temperature, { minLength: 1, maxLength: 80 });
const EPS = 1e-9;

describe('meanKineticTemperature (properties) [RULE-SUMMARY-2]', () => {
  it('lies between the lowest and the highest value', () => {
    fc.assert(
      fc.property(temps, (ts) => {
        const mkt = meanKineticTemperature(ts) ?? Number.NaN;
        expect(mkt).toBeGreaterThanOrEqual(Math.min(...ts) - EPS);
        expect(mkt).toBeLessThanOrEqual(Math.max(...ts) + EPS);
      }),
    );
  });

  it('is at least the arithmetic mean (Jensen)', () => {
    fc.assert(
      fc.property(temps, (ts) => {
        const mean = ts.reduce((a, b) => a + b, 0) / ts.length;
        expect(meanKineticTemperature(ts) ?? Number.NaN).toBeGreaterThanOrEqual(mean - EPS);
      }),
    );
  });

  it('rises when every value rises (shift-monotonic)', () => {
    fc.assert(
      fc.property(temps, fc.double({ min: 0.01, max: 20, noNaN: true }), (ts, shift) => {
        const before = meanKineticTemperature(ts) ?? Number.NaN;
        const after = meanKineticTemperature(ts.map((t) => t + shift)) ?? Number.NaN;
        expect(after).toBeGreaterThan(before);
      }),
    );
  });

  it('rises when one value rises', () => {
    fc.assert(
      fc.property(temps, fc.nat(), fc.double({ min: 0.01, max: 20, noNaN: true }), (ts, k, up) => {
        const i = k % ts.length;
        const raised = ts.map((t, j) => (j === i ? t + up : t));
        expect(meanKineticTemperature(raised) ?? Number.NaN).toBeGreaterThan(
          meanKineticTemperature(ts) ?? Number.NaN,
        );
      }),
    );
  });

  it('ignores the order of the values and the gaps between them', () => {
    fc.assert(
      fc.property(temps, (ts) => {
        const reversed = [...ts].reverse();
        const withGaps = ts.flatMap((t) => [null, t]);
        const mkt = meanKineticTemperature(ts) ?? Number.NaN;
        expect(meanKineticTemperature(reversed)).toBeCloseTo(mkt, 9);
        expect(meanKineticTemperature(withGaps)).toBeCloseTo(mkt, 9);
      }),
    );
  });

  it('agrees with the formula computed directly', () => {
    fc.assert(
      fc.property(temps, (ts) => {
        const direct =
          10000 /
            -Math.log(ts.reduce((sum, t) => sum + Math.exp(-10000 / (t + 273.15)), 0) / ts.length) -
          273.15;
        expect(meanKineticTemperature(ts)).toBeCloseTo(direct, 8);
      }),
    );
  });
});
