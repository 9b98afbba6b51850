import type { TDegreesUnit } from '@coldtrace/contract';
import {
  divideRoundingHalfAwayFromZero,
  fromScaledInteger,
  powerOfTen,
  roundHalfAwayFromZero,
  toExactDecimal,
} from './decimal-rounding';
import { MISSING_VALUE } from './missing-value';

/**
 * Temperature display rules of spec section 9 and domain rules section 3.
 * Temperatures are stored and computed in degrees Celsius; they are converted
 * only for display (and, for thresholds typed in Fahrenheit, back again).
 *
 * - Celsius to Fahrenheit: x * 1.8 + 32, rounded to 1 decimal.
 * - Fahrenheit to Celsius: (x - 32) / 1.8, rounded to 2 decimals.
 * - Degree-minutes: a temperature difference, converted by the factor 1.8
 *   alone (no + 32), rounded to 1 decimal.
 * - Display shows one decimal, always.
 *
 * Conversions are computed exactly on the decimal the input shows and rounded
 * half away from zero (see `decimal-rounding.ts`), so 2.25 °C is exactly
 * 36.05 °F and shows as 36.1 °F, and -20.25 °C (-4.45 °F) shows as -4.5 °F.
 * The numeric functions return NaN and ±Infinity unchanged.
 */

export const TEMPERATURE_DISPLAY_DECIMALS = 1;
export const CELSIUS_STORAGE_DECIMALS = 2;

/** x * 1.8 + 32, rounded to 1 decimal. */
export function celsiusToFahrenheit(celsius: number): number {
  if (!Number.isFinite(celsius)) return celsius;
  const { units, scale } = toExactDecimal(celsius);
  // F * 10 = (C * 18 + 320), with C = units / 10^scale.
  const tenthsNumerator = units * 18n + 320n * powerOfTen(scale);
  return fromScaledInteger(divideRoundingHalfAwayFromZero(tenthsNumerator, powerOfTen(scale)), 1);
}

/** (x - 32) / 1.8, rounded to 2 decimals. */
export function fahrenheitToCelsius(fahrenheit: number): number {
  if (!Number.isFinite(fahrenheit)) return fahrenheit;
  const { units, scale } = toExactDecimal(fahrenheit);
  // C * 100 = (F - 32) * 500 / 9, with F = units / 10^scale.
  const hundredthsNumerator = (units - 32n * powerOfTen(scale)) * 500n;
  const hundredths = divideRoundingHalfAwayFromZero(hundredthsNumerator, 9n * powerOfTen(scale));
  return fromScaledInteger(hundredths, 2);
}

/** A Celsius value in the user's unit, rounded for display (1 decimal). */
export function toDisplayUnit(celsius: number, unit: TDegreesUnit): number {
  return unit === 'F'
    ? celsiusToFahrenheit(celsius)
    : roundHalfAwayFromZero(celsius, TEMPERATURE_DISPLAY_DECIMALS);
}

/**
 * A value typed in the user's unit (a threshold), back to Celsius for storage.
 * Both units give 2 decimals, so a stored threshold never carries more.
 */
export function fromDisplayUnit(value: number, unit: TDegreesUnit): number {
  return unit === 'F'
    ? fahrenheitToCelsius(value)
    : roundHalfAwayFromZero(value, CELSIUS_STORAGE_DECIMALS);
}

/** Degree-minutes (a temperature difference times minutes) in the user's unit, 1 decimal. */
export function degreeMinutesToUnit(degreeMinutes: number, unit: TDegreesUnit): number {
  if (!Number.isFinite(degreeMinutes)) return degreeMinutes;
  if (unit === 'C') return roundHalfAwayFromZero(degreeMinutes, 1);
  const { units, scale } = toExactDecimal(degreeMinutes);
  // DM_F * 10 = DM_C * 18.
  return fromScaledInteger(divideRoundingHalfAwayFromZero(units * 18n, powerOfTen(scale)), 1);
}

/** `4.5 °C`, `40.1 °F`; `—` for a missing or non-finite temperature. */
export function formatTemperature(celsius: number | null | undefined, unit: TDegreesUnit): string {
  if (celsius == null || !Number.isFinite(celsius)) return MISSING_VALUE;
  return `${toDisplayUnit(celsius, unit).toFixed(TEMPERATURE_DISPLAY_DECIMALS)} °${unit}`;
}
