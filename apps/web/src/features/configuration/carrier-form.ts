import { CONFIG_NAME_MAX_LENGTH } from '@coldtrace/contract';
import type { FormErrors } from './form-fields';

/** The carrier form: one name, trimmed, 1 to 200 characters (unique per organization on the server). */

export const CARRIER_FIELDS = ['name'] as const;
export type CarrierField = (typeof CARRIER_FIELDS)[number];
export interface CarrierFormValues {
  name: string;
}

export function validateCarrierForm(values: CarrierFormValues): FormErrors<CarrierField> {
  const name = values.name.trim();
  if (name === '') return { name: 'Enter a carrier name' };
  if (name.length > CONFIG_NAME_MAX_LENGTH) {
    return { name: `Use at most ${CONFIG_NAME_MAX_LENGTH} characters` };
  }
  return {};
}
