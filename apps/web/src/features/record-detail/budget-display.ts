import type { TDegreesUnit, TStabilityBandUsage } from '@coldtrace/contract';
import { formatDuration } from '@coldtrace/domain';
import { formatTemperatureWith } from '../../lib/display-rule';

/**
 * How the record page words a stability budget band (docs/decisions/stability-budget.md):
 * the band, minutes used of minutes allowed, the bar's fill and colour.
 */

/** `45 min`, `12.5 min`, `12h 5m` from an hour on. */
export function formatMinutes(minutes: number): string {
  if (!Number.isFinite(minutes)) return '—';
  if (minutes < 60) return `${Math.round(minutes * 10) / 10} min`;
  return formatDuration(Math.round(minutes * 60));
}

/** `Above 8.0 °C`, in the user's unit. */
export function bandName(
  band: Pick<TStabilityBandUsage, 'direction' | 'limit'>,
  unit: TDegreesUnit,
) {
  return `${band.direction === 'ABOVE' ? 'Above' : 'Below'} ${formatTemperatureWith(band.limit, unit)}`;
}

/** `32 min of 30 min used`. */
export function bandUse(band: TStabilityBandUsage): string {
  return `${formatMinutes(band.consumed_minutes)} of ${formatMinutes(band.allowed_minutes)} used`;
}

/** The bar's fill, 0 to 100: consumed over allowed (a band of 0 minutes is empty, or full once used). */
export function bandPercent(band: TStabilityBandUsage): number {
  if (band.allowed_minutes <= 0) return band.consumed_minutes > 0 ? 100 : 0;
  return Math.min(100, (band.consumed_minutes / band.allowed_minutes) * 100);
}

/** Used up: error; three quarters or more, or heading past the allowance: warning; else success. */
export function bandColour(band: TStabilityBandUsage): 'success' | 'warning' | 'error' {
  if (band.used_up) return 'error';
  const projected = band.projected_minutes;
  const heading =
    projected !== null &&
    (band.allowed_minutes > 0 ? projected >= band.allowed_minutes : projected > 0);
  return bandPercent(band) >= 75 || heading ? 'warning' : 'success';
}
