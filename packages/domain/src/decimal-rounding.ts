/**
 * Exact decimal rounding.
 *
 * Binary floating point cannot hold most decimals: 1.005 is stored as
 * 1.00499999999999989..., and 2.25 * 1.8 + 32 may land a hair below 36.05. Rounding
 * such a double naively gives 1.00 and 36.0 where a person expects 1.01 and 36.1.
 *
 * Rule used everywhere in the domain package: a number means the decimal its
 * shortest round-trip representation shows (`String(x)`, what JSON carries and the
 * user sees). Arithmetic on it is done exactly on that decimal (BigInt), and the
 * result is rounded half away from zero (1.005 -> 1.01, -1.005 -> -1.01,
 * 0.05 -> 0.1, -0.05 -> -0.1). The rounded decimal is returned as the nearest
 * double, so `toFixed(decimals)` prints it exactly. Negative zero never comes out.
 */

/** `units / 10^scale`, exactly. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const SHORTEST_FORM = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

export function powerOfTen(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** The exact decimal a finite number shows, e.g. 1.005 -> 1005 / 10^3. */
export function toExactDecimal(value: number): ExactDecimal {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  const match = SHORTEST_FORM.exec(String(value));
  if (match === null) throw new RangeError(`Unexpected number form: ${String(value)}`);
  const [, sign = '', integer = '0', fraction = '', exponent = '0'] = match;
  const units = BigInt(`${sign}${integer}${fraction}`);
  const scale = fraction.length - Number(exponent);
  return scale >= 0 ? { units, scale } : { units: units * powerOfTen(-scale), scale: 0 };
}

/** `numerator / denominator` rounded to an integer, half away from zero. */
export function divideRoundingHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const magnitude = (2n * n + d) / (2n * d);
  return negative ? -magnitude : magnitude;
}

/** The number nearest to `units / 10^decimals`. */
export function fromScaledInteger(units: bigint, decimals: number): number {
  return Number(`${units}e-${decimals}`);
}

/**
 * Rounds to `decimals` places, half away from zero, on the decimal the number
 * shows (see the module comment). Non-finite values are returned unchanged.
 */
export function roundHalfAwayFromZero(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  assertDecimals(decimals);
  const { units, scale } = toExactDecimal(value);
  const rounded = divideRoundingHalfAwayFromZero(units * powerOfTen(decimals), powerOfTen(scale));
  return fromScaledInteger(rounded, decimals);
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 100) {
    throw new RangeError(`decimals must be an integer from 0 to 100, got ${decimals}`);
  }
}
