/**
 * Mean kinetic temperature, USP <1079.2> (domain rules §3):
 *
 *   Tmk = (ΔH/R) / -ln( (1/n) · Σ exp(-(ΔH/R) / T_i) )
 *
 * with `T_i` in kelvin (`t + 273.15`) and `ΔH/R = 83.144 kJ/mol / 8.3144 J/(mol K)
 * = 10000 K`. Input and result in degrees Celsius.
 */

/** ΔH/R of USP <1079.2>, kelvin: 83.144 kJ/mol divided by 8.3144 J/(mol K). */
export const MKT_ACTIVATION_ENERGY_OVER_R = 10_000;

/** 0 °C in kelvin. */
export const CELSIUS_TO_KELVIN = 273.15;

/**
 * Mean kinetic temperature (°C) of the values, in any order.
 *
 * `null` (gaps), non-finite values and values at or below absolute zero (which
 * no sensor can report; they are sensor faults) are skipped. Returns `null`
 * when no value is left.
 *
 * Computed as a log-sum-exp around the largest term, so 100,000 points lose no
 * precision and extreme values neither underflow nor overflow.
 */
export function meanKineticTemperature(
  temps: Iterable<number | null | undefined>,
  activationEnergyOverR: number = MKT_ACTIVATION_ENERGY_OVER_R,
): number | null {
  // x_i = -(ΔH/R) / T_i; ln((1/n) Σ exp(x_i)) = m + ln((1/n) Σ exp(x_i - m)), m = max x_i.
  const exponents: number[] = [];
  let max = -Infinity;
  for (const t of temps) {
    if (t == null || !Number.isFinite(t)) continue;
    const kelvin = t + CELSIUS_TO_KELVIN;
    if (!(kelvin > 0)) continue;
    const x = -activationEnergyOverR / kelvin;
    exponents.push(x);
    if (x > max) max = x;
  }
  if (exponents.length === 0) return null;

  let sum = 0;
  for (const x of exponents) sum += Math.exp(x - max);
  const logMean = max + Math.log(sum / exponents.length);
  return activationEnergyOverR / -logMean - CELSIUS_TO_KELVIN;
}
