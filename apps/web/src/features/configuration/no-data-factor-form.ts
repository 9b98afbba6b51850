import { NO_DATA_FACTOR_MAX, NO_DATA_FACTOR_MIN } from '@coldtrace/contract';
import type { FormErrors } from './form-fields';

/**
 * The organization's no-data alarm factor (issue 14 item 4,
 * docs/decisions/no-data-alarm.md): how many transmit intervals a running rt
 * or nanotag record may stay silent before a No data alarm. The server's
 * default is 3 and its bounds 1.5 to 100 (PATCH /api/auth/org-settings/
 * `no_data_factor`).
 */
export const DEFAULT_NO_DATA_FACTOR = 3;

export interface NoDataFactorFormValues {
  no_data_factor: string;
}
export type NoDataFactorField = keyof NoDataFactorFormValues;
export const NO_DATA_FACTOR_FIELDS: readonly NoDataFactorField[] = ['no_data_factor'];

/** What the API says of a factor out of bounds, in words: the same bounds. */
export const NO_DATA_FACTOR_MESSAGE = `A number from ${NO_DATA_FACTOR_MIN} to ${NO_DATA_FACTOR_MAX} (transmit intervals)`;

export function noDataFactorFormFrom(factor: number | undefined): NoDataFactorFormValues {
  return { no_data_factor: String(factor ?? DEFAULT_NO_DATA_FACTOR) };
}

/** The typed factor as a number (a decimal point or comma), else null. */
export function parseNoDataFactor(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(trimmed)) return null;
  return Number(trimmed);
}

export function validateNoDataFactorForm(
  values: NoDataFactorFormValues,
): FormErrors<NoDataFactorField> {
  const factor = parseNoDataFactor(values.no_data_factor);
  if (factor === null || factor < NO_DATA_FACTOR_MIN || factor > NO_DATA_FACTOR_MAX) {
    return { no_data_factor: NO_DATA_FACTOR_MESSAGE };
  }
  return {};
}

/** The factor to send, or undefined when it is the one saved (or not a number). */
export function noDataFactorChange(
  values: NoDataFactorFormValues,
  saved: number | undefined,
): number | undefined {
  const factor = parseNoDataFactor(values.no_data_factor);
  if (factor === null) return undefined;
  return factor === (saved ?? DEFAULT_NO_DATA_FACTOR) ? undefined : factor;
}
