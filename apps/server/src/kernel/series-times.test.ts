import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoString } from './series-times';

describe('isoString [RULE-SERIES-2]', () => {
  it('is toISOString for any instant, invalid dates throwing alike', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(isoString(date)).toBe(date.toISOString());
      }),
      { numRuns: 20_000 },
    );
    // The fast path's whole range (years 1000 to 9999), every field's digits.
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1000-01-01T00:00:00.000Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(isoString(date)).toBe(date.toISOString());
        },
      ),
      { numRuns: 20_000 },
    );
    // The fast path's first and last instants, a leap day, milliseconds below 100; then the fallback.
    for (const text of [
      '1000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2024-02-29T12:00:00.001Z',
      '1999-12-31T23:59:59.010Z',
    ]) {
      expect(isoString(new Date(text))).toBe(text);
    }
    expect(isoString(new Date('0999-12-31T23:59:59.999Z'))).toBe('0999-12-31T23:59:59.999Z');
    expect(isoString(new Date(Date.UTC(10000, 0, 1)))).toBe('+010000-01-01T00:00:00.000Z');
    expect(() => isoString(new Date(NaN))).toThrow(RangeError);
  });
});
