import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divideRoundingHalfAwayFromZero,
  roundHalfAwayFromZero,
  toExactDecimal,
} from './decimal-rounding';

describe('toExactDecimal [SPEC-9.1]', () => {
  it('reads the decimal a number shows', () => {
    expect(toExactDecimal(1.005)).toEqual({ units: 1005n, scale: 3 });
    expect(toExactDecimal(-36.05)).toEqual({ units: -3605n, scale: 2 });
    expect(toExactDecimal(1.5e-7)).toEqual({ units: 15n, scale: 8 });
    expect(toExactDecimal(1e21)).toEqual({ units: 10n ** 21n, scale: 0 });
    expect(toExactDecimal(-0)).toEqual({ units: 0n, scale: 0 });
  });

  it('refuses non-finite numbers', () => {
    expect(() => toExactDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => toExactDecimal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('divideRoundingHalfAwayFromZero [SPEC-9.1]', () => {
  it('rounds halves away from zero and the rest to nearest', () => {
    expect(divideRoundingHalfAwayFromZero(5n, 2n)).toBe(3n);
    expect(divideRoundingHalfAwayFromZero(-5n, 2n)).toBe(-3n);
    expect(divideRoundingHalfAwayFromZero(5n, -2n)).toBe(-3n);
    expect(divideRoundingHalfAwayFromZero(7n, 3n)).toBe(2n);
    expect(divideRoundingHalfAwayFromZero(-8n, 3n)).toBe(-3n);
    expect(() => divideRoundingHalfAwayFromZero(1n, 0n)).toThrow(RangeError);
  });
});

describe('roundHalfAwayFromZero [SPEC-9.1]', () => {
  it('rounds the decimal shown, not the binary approximation', () => {
    // 1.005 is stored as 1.00499999999999989...; Math.round(1.005 * 100) / 100 gives 1.
    expect(roundHalfAwayFromZero(1.005, 2)).toBe(1.01);
    expect(roundHalfAwayFromZero(-1.005, 2)).toBe(-1.01);
    expect(roundHalfAwayFromZero(1.0049, 2)).toBe(1);
    expect(roundHalfAwayFromZero(0.05, 1)).toBe(0.1);
    expect(roundHalfAwayFromZero(-0.05, 1)).toBe(-0.1);
    expect(roundHalfAwayFromZero(-4.45, 1)).toBe(-4.5);
    expect(roundHalfAwayFromZero(2.5, 0)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5, 0)).toBe(-3);
  });

  it('handles exponent forms and never returns negative zero', () => {
    expect(roundHalfAwayFromZero(1.5e-7, 2)).toBe(0);
    expect(Object.is(roundHalfAwayFromZero(-0.04, 1), 0)).toBe(true);
    expect(roundHalfAwayFromZero(1e21, 2)).toBe(1e21);
    expect(roundHalfAwayFromZero(1.23456e-8, 12)).toBe(1.2346e-8);
  });

  it('returns non-finite values unchanged and rejects bad decimal counts', () => {
    expect(roundHalfAwayFromZero(Number.NaN, 1)).toBeNaN();
    expect(roundHalfAwayFromZero(Number.NEGATIVE_INFINITY, 1)).toBe(Number.NEGATIVE_INFINITY);
    expect(() => roundHalfAwayFromZero(1, -1)).toThrow(RangeError);
    expect(() => roundHalfAwayFromZero(1, 1.5)).toThrow(RangeError);
  });

  it('matches integer arithmetic on values with three decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (thousandths) => {
        // Oracle: round thousandths / 1000 to hundredths with integers only.
        const magnitude = Math.floor((2 * Math.abs(thousandths) + 10) / 20);
        const expected = (Math.sign(thousandths) * magnitude) / 100 + 0;
        expect(roundHalfAwayFromZero(thousandths / 1000, 2)).toBe(expected);
      }),
    );
  });

  it('is odd, within half a unit, and idempotent', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.integer({ min: 0, max: 6 }),
        (value, decimals) => {
          const rounded = roundHalfAwayFromZero(value, decimals);
          expect(roundHalfAwayFromZero(-value, decimals)).toBe(-rounded + 0);
          expect(Math.abs(rounded - value)).toBeLessThanOrEqual(
            0.5 * 10 ** -decimals + Math.abs(value) * 1e-15,
          );
          expect(roundHalfAwayFromZero(rounded, decimals)).toBe(rounded);
        },
      ),
    );
  });
});
