import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  celsiusToFahrenheit,
  degreeMinutesToUnit,
  fahrenheitToCelsius,
  formatTemperature,
  fromDisplayUnit,
  toDisplayUnit,
} from './temperature';

/** Integer-only oracle: round `numerator / denominator` half away from zero. */
function roundRatio(numerator: number, denominator: number): number {
  return (
    Math.sign(numerator) * Math.floor((2 * Math.abs(numerator) + denominator) / (2 * denominator))
  );
}

describe('celsiusToFahrenheit [SPEC-9.1]', () => {
  it('converts known values exactly', () => {
    expect(celsiusToFahrenheit(0)).toBe(32);
    expect(celsiusToFahrenheit(100)).toBe(212);
    expect(celsiusToFahrenheit(-40)).toBe(-40);
    expect(celsiusToFahrenheit(37)).toBe(98.6);
    expect(celsiusToFahrenheit(4.5)).toBe(40.1);
    expect(celsiusToFahrenheit(8)).toBe(46.4);
  });

  it('rounds exact halves away from zero', () => {
    expect(celsiusToFahrenheit(2.25)).toBe(36.1); // 36.05
    expect(celsiusToFahrenheit(-20.25)).toBe(-4.5); // -4.45
    expect(celsiusToFahrenheit(-2.25)).toBe(28); // 27.95
  });

  it('is not fooled by binary floating point', () => {
    // -17.25 * 1.8 + 32 evaluates to 0.9499999999999993 in doubles; exactly it is 0.95.
    expect(celsiusToFahrenheit(-17.25)).toBe(1);
    expect(celsiusToFahrenheit(-11.75)).toBe(10.9); // 10.85
  });

  it('passes non-finite values through', () => {
    expect(celsiusToFahrenheit(Number.NaN)).toBeNaN();
    expect(celsiusToFahrenheit(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(fahrenheitToCelsius(Number.NEGATIVE_INFINITY)).toBe(Number.NEGATIVE_INFINITY);
    expect(fahrenheitToCelsius(Number.NaN)).toBeNaN();
  });

  it('matches an integer oracle on hundredths of a degree', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (hundredths) => {
        // F * 10 = (18 * hundredths + 32000) / 100
        const tenths = roundRatio(18 * hundredths + 32_000, 100);
        expect(celsiusToFahrenheit(hundredths / 100)).toBe(tenths / 10 + 0);
      }),
    );
  });

  it('stays within 0.05 °F of x * 1.8 + 32 and is monotonic', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        (a, b) => {
          expect(Math.abs(celsiusToFahrenheit(a) - (a * 1.8 + 32))).toBeLessThanOrEqual(0.0500001);
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(celsiusToFahrenheit(low)).toBeLessThanOrEqual(celsiusToFahrenheit(high));
        },
      ),
    );
  });
});

describe('fahrenheitToCelsius [SPEC-9.1]', () => {
  it('converts known values exactly, to 2 decimals', () => {
    expect(fahrenheitToCelsius(32)).toBe(0);
    expect(fahrenheitToCelsius(212)).toBe(100);
    expect(fahrenheitToCelsius(-40)).toBe(-40);
    expect(fahrenheitToCelsius(98.6)).toBe(37);
    expect(fahrenheitToCelsius(1.05)).toBe(-17.19); // -17.19444...
    expect(fahrenheitToCelsius(46)).toBe(7.78); // 7.7777...
    expect(fahrenheitToCelsius(32.009)).toBe(0.01); // 0.005 exactly, half away from zero
    expect(fahrenheitToCelsius(31.991)).toBe(-0.01); // -0.005 exactly
  });

  it('is not fooled by binary floating point', () => {
    // Exactly 0.055 and -73.315; in doubles (x - 32) / 1.8 * 100 lands just short of the half.
    expect(fahrenheitToCelsius(32.099)).toBe(0.06);
    expect(fahrenheitToCelsius(-99.967)).toBe(-73.32);
  });

  it('matches an integer oracle on thousandths of a degree', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (thousandths) => {
        // C * 100 = (thousandths - 32000) * 500 / 9000
        const hundredths = roundRatio((thousandths - 32_000) * 500, 9000);
        expect(fahrenheitToCelsius(thousandths / 1000)).toBe(hundredths / 100 + 0);
      }),
    );
  });

  it('matches an integer oracle on tenths of a degree', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (tenths) => {
        // C * 100 = (tenths - 320) * 500 / 90
        const hundredths = roundRatio((tenths - 320) * 500, 90);
        expect(fahrenheitToCelsius(tenths / 10)).toBe(hundredths / 100 + 0);
      }),
    );
  });

  it('round-trips: C -> F -> C within 0.06 °C', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (celsius) => {
        const back = fahrenheitToCelsius(celsiusToFahrenheit(celsius));
        expect(Math.abs(back - celsius)).toBeLessThanOrEqual(0.06);
      }),
    );
  });

  it('round-trips: a one-decimal F -> C -> F is stable', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (tenths) => {
        const fahrenheit = tenths / 10;
        expect(celsiusToFahrenheit(fahrenheitToCelsius(fahrenheit))).toBe(fahrenheit + 0);
      }),
    );
  });
});

describe('toDisplayUnit and fromDisplayUnit [SPEC-9.1]', () => {
  it('rounds Celsius to one decimal and converts Fahrenheit', () => {
    expect(toDisplayUnit(4.45, 'C')).toBe(4.5);
    expect(toDisplayUnit(-4.45, 'C')).toBe(-4.5);
    expect(toDisplayUnit(4.449, 'C')).toBe(4.4);
    expect(toDisplayUnit(2.25, 'F')).toBe(36.1);
  });

  it('stores a threshold typed in either unit as Celsius with 2 decimals', () => {
    expect(fromDisplayUnit(46.4, 'F')).toBe(8);
    expect(fromDisplayUnit(35.6, 'F')).toBe(2);
    expect(fromDisplayUnit(8.125, 'C')).toBe(8.13);
    expect(fromDisplayUnit(-8.125, 'C')).toBe(-8.13);
  });

  it('shows a threshold typed in the display unit as typed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.constantFrom('C' as const, 'F' as const),
        (tenths, unit) => {
          const typed = tenths / 10;
          expect(toDisplayUnit(fromDisplayUnit(typed, unit), unit)).toBe(typed + 0);
        },
      ),
    );
  });
});

describe('degreeMinutesToUnit [SPEC-9.1]', () => {
  it('converts by the factor 1.8 alone, without + 32', () => {
    expect(degreeMinutesToUnit(10, 'F')).toBe(18);
    expect(degreeMinutesToUnit(0, 'F')).toBe(0);
    expect(degreeMinutesToUnit(1.25, 'F')).toBe(2.3); // 2.25
    expect(degreeMinutesToUnit(-1.25, 'F')).toBe(-2.3);
    expect(degreeMinutesToUnit(123.45, 'C')).toBe(123.5);
    expect(degreeMinutesToUnit(Number.NaN, 'F')).toBeNaN();
    expect(degreeMinutesToUnit(Number.NEGATIVE_INFINITY, 'F')).toBe(Number.NEGATIVE_INFINITY);
  });

  it('matches an integer oracle and is the Fahrenheit difference of two temperatures', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (hundredths) => {
        const tenths = roundRatio(18 * hundredths, 100);
        expect(degreeMinutesToUnit(hundredths / 100, 'F')).toBe(tenths / 10 + 0);
      }),
    );
  });
});

describe('formatTemperature [SPEC-9.1]', () => {
  it('shows one decimal and the unit', () => {
    expect(formatTemperature(4.5, 'C')).toBe('4.5 °C');
    expect(formatTemperature(4.5, 'F')).toBe('40.1 °F');
    expect(formatTemperature(8, 'C')).toBe('8.0 °C');
    expect(formatTemperature(-40, 'F')).toBe('-40.0 °F');
    expect(formatTemperature(2.25, 'F')).toBe('36.1 °F');
    expect(formatTemperature(-0.04, 'C')).toBe('0.0 °C');
  });

  it('shows a dash for a missing value', () => {
    expect(formatTemperature(null, 'C')).toBe('—');
    expect(formatTemperature(undefined, 'F')).toBe('—');
    expect(formatTemperature(Number.NaN, 'C')).toBe('—');
    expect(formatTemperature(Number.POSITIVE_INFINITY, 'C')).toBe('—');
  });

  it('always prints exactly one decimal', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.constantFrom('C' as const, 'F' as const),
        (celsius, unit) => {
          expect(formatTemperature(celsius, unit)).toMatch(new RegExp(`^-?\\d+\\.\\d °${unit}$`));
        },
      ),
    );
  });
});
