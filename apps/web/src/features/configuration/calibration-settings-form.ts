import {
  CALIBRATION_MAX_DUE_SOON_DAYS,
  CALIBRATION_MAX_VALIDITY_MONTHS,
  type TCalibrationSettings,
  type TCalibrationSettingsUpdate,
  type TExpiredCalibrationStart,
} from '@coldtrace/contract';
import {
  DEFAULT_CALIBRATION_DUE_SOON_DAYS,
  DEFAULT_CALIBRATION_VALIDITY_MONTHS,
} from '@coldtrace/domain';
import type { FormErrors } from './form-fields';

/** The calibration settings form (issue 14 item 7): numbers as typed, the policy as chosen. */
export interface CalibrationSettingsFormValues {
  calibration_validity_months: string;
  calibration_due_soon_days: string;
  expired_calibration_start: TExpiredCalibrationStart;
}
export type CalibrationSettingsField = keyof CalibrationSettingsFormValues;
export const CALIBRATION_SETTINGS_FIELDS: readonly CalibrationSettingsField[] = [
  'calibration_validity_months',
  'calibration_due_soon_days',
  'expired_calibration_start',
];
export const CALIBRATION_SETTINGS_FIELD_PREFIX = 'calibration_settings.';

export function calibrationSettingsFormFrom(
  settings: TCalibrationSettings | undefined,
): CalibrationSettingsFormValues {
  return {
    calibration_validity_months: String(
      settings?.calibration_validity_months ?? DEFAULT_CALIBRATION_VALIDITY_MONTHS,
    ),
    calibration_due_soon_days: String(
      settings?.calibration_due_soon_days ?? DEFAULT_CALIBRATION_DUE_SOON_DAYS,
    ),
    expired_calibration_start: settings?.expired_calibration_start ?? 'WARN',
  };
}

const wholeNumber = (text: string): number | null =>
  /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : null;

export function validateCalibrationSettingsForm(
  values: CalibrationSettingsFormValues,
): FormErrors<CalibrationSettingsField> {
  const errors: FormErrors<CalibrationSettingsField> = {};
  const months = wholeNumber(values.calibration_validity_months);
  if (months === null || months < 1 || months > CALIBRATION_MAX_VALIDITY_MONTHS) {
    errors.calibration_validity_months = `A whole number of months, 1 to ${CALIBRATION_MAX_VALIDITY_MONTHS}`;
  }
  const days = wholeNumber(values.calibration_due_soon_days);
  if (days === null || days > CALIBRATION_MAX_DUE_SOON_DAYS) {
    errors.calibration_due_soon_days = `A whole number of days, 0 to ${CALIBRATION_MAX_DUE_SOON_DAYS}`;
  }
  return errors;
}

/** Only what changed (an empty object: nothing to save). */
export function calibrationSettingsUpdateBody(
  values: CalibrationSettingsFormValues,
  settings: TCalibrationSettings | undefined,
): TCalibrationSettingsUpdate {
  const before = calibrationSettingsFormFrom(settings);
  const body: TCalibrationSettingsUpdate = {};
  if (values.calibration_validity_months.trim() !== before.calibration_validity_months) {
    body.calibration_validity_months = Number(values.calibration_validity_months);
  }
  if (values.calibration_due_soon_days.trim() !== before.calibration_due_soon_days) {
    body.calibration_due_soon_days = Number(values.calibration_due_soon_days);
  }
  if (values.expired_calibration_start !== before.expired_calibration_start) {
    body.expired_calibration_start = values.expired_calibration_start;
  }
  return body;
}
