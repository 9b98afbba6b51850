import {
  STABILITY_BUDGET_MAX_BANDS,
  STABILITY_BUDGET_MAX_MINUTES,
  isTenthOfDegree,
  type TAboveOrBelow,
  type TDegreesUnit,
  type TStabilityBand,
} from '@coldtrace/contract';
import { fromDisplayUnit, toDisplayUnit } from '@coldtrace/domain';
import { parseIntegerInput, parseNumberInput } from './form-fields';

/**
 * The stability budget rows of the product form (issue 14 item 3): what the
 * dialog holds (text as typed, the limit in the user's unit), its checks
 * (mirroring the server's) and the bands it sends (°C, a multiple of 0.1).
 */

export interface BandRow {
  direction: TAboveOrBelow;
  limit: string;
  minutes: string;
}
export interface BandRowErrors {
  limit?: string;
  minutes?: string;
}

export const EMPTY_BAND: BandRow = { direction: 'ABOVE', limit: '', minutes: '' };

export function bandRowsFrom(
  bands: readonly TStabilityBand[] | null | undefined,
  unit: TDegreesUnit,
): BandRow[] {
  return (bands ?? []).map((band) => ({
    direction: band.direction,
    limit: String(toDisplayUnit(band.limit, unit)),
    minutes: String(band.allowed_minutes),
  }));
}

/** A limit typed in the user's unit, in °C to the tenth; undefined blank, null not a number. */
function limitCelsius(text: string, unit: TDegreesUnit): number | null | undefined {
  const value = parseNumberInput(text);
  if (value == null) return value;
  const celsius = fromDisplayUnit(value, unit);
  // °F limits land between tenths of a °C: the band keeps the nearest tenth (said under the field).
  return unit === 'C' ? celsius : Math.round(celsius * 10) / 10;
}

/** Problems per row (same index); every entry empty when the rows may be sent. */
export function validateBandRows(rows: readonly BandRow[], unit: TDegreesUnit): BandRowErrors[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const errors: BandRowErrors = {};
    const limit = limitCelsius(row.limit, unit);
    if (limit == null) errors.limit = `Enter a temperature in °${unit}, e.g. 8 or -2.5`;
    else if (limit < -100 || limit > 200) errors.limit = 'Enter a limit from -100 °C to 200 °C';
    else if (!isTenthOfDegree(limit)) errors.limit = 'Use at most one decimal, e.g. 8 or 2.5';
    else {
      const key = `${row.direction} ${Math.round(limit * 10)}`;
      if (seen.has(key)) errors.limit = 'This band is already given';
      seen.add(key);
    }
    const minutes = parseIntegerInput(row.minutes);
    if (minutes == null || minutes < 0 || minutes > STABILITY_BUDGET_MAX_MINUTES) {
      errors.minutes = `Enter whole minutes from 0 to ${STABILITY_BUDGET_MAX_MINUTES.toLocaleString('en')}`;
    }
    return errors;
  });
}

export const hasBandErrors = (errors: readonly BandRowErrors[]) =>
  errors.some((e) => e.limit !== undefined || e.minutes !== undefined);

/** The bands the server takes (call only with valid rows); null: none. */
export function bandsBody(rows: readonly BandRow[], unit: TDegreesUnit): TStabilityBand[] | null {
  if (rows.length === 0) return null;
  return rows.map((row) => ({
    direction: row.direction,
    limit: Math.round(limitCelsius(row.limit, unit)! * 10) / 10,
    allowed_minutes: parseIntegerInput(row.minutes)!,
  }));
}

export { STABILITY_BUDGET_MAX_BANDS };
