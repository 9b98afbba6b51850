import type { TCalibrationUpload } from '@coldtrace/contract';
import { isCalendarDay, zonedDayBounds } from '../../components/server-grid/zoned-day';
import type { FormErrors } from './form-fields';

/**
 * The "Upload certificate" dialog of Configuration > Calibration: the tag, the
 * certificate's model, the day it was calibrated and the next due day, as the
 * certificate states them (days in the user's time zone). The server renders
 * the certificate's PDF from these data (docs/decisions/reports.md).
 */
export interface CalibrationCertificateFormValues {
  device_id: number | null;
  model_name: string;
  /** `YYYY-MM-DD`. */
  calibration_timestamp: string;
  /** `YYYY-MM-DD`; empty: the calibration day plus the organization's validity. */
  calibration_due: string;
}
export type CalibrationCertificateField = keyof CalibrationCertificateFormValues;

/** The fields the server names under `calibrated_devices.0.` (and `model_name`). */
export const CALIBRATION_CERTIFICATE_FIELDS = [
  'model_name',
  'calibration_timestamp',
  'calibration_due',
] as const satisfies readonly CalibrationCertificateField[];
export const CALIBRATION_DEVICE_PREFIX = 'calibrated_devices.0.';

export const MODEL_NAME_MAX_LENGTH = 200;

export function emptyCalibrationCertificateForm(
  deviceId: number | null = null,
  modelName = '',
): CalibrationCertificateFormValues {
  return {
    device_id: deviceId,
    model_name: modelName,
    calibration_timestamp: '',
    calibration_due: '',
  };
}

export function validateCalibrationCertificateForm(
  values: CalibrationCertificateFormValues,
  today: string,
): FormErrors<CalibrationCertificateField> {
  const errors: FormErrors<CalibrationCertificateField> = {};
  if (values.device_id === null) errors.device_id = 'Choose the tag the certificate is for';
  const model = values.model_name.trim();
  if (model === '') errors.model_name = 'A model name is required';
  else if (model.length > MODEL_NAME_MAX_LENGTH) {
    errors.model_name = `At most ${MODEL_NAME_MAX_LENGTH} characters`;
  }
  if (!isCalendarDay(values.calibration_timestamp)) {
    errors.calibration_timestamp = 'The day the tag was calibrated';
  } else if (values.calibration_timestamp > today) {
    errors.calibration_timestamp = 'Must not be in the future';
  }
  if (values.calibration_due !== '') {
    if (!isCalendarDay(values.calibration_due)) errors.calibration_due = 'A day, or leave it empty';
    else if (
      isCalendarDay(values.calibration_timestamp) &&
      values.calibration_due <= values.calibration_timestamp
    ) {
      errors.calibration_due = 'Must be after the calibration day';
    }
  }
  return errors;
}

/** The upload's body: the days as their first minute in `timeZone`. Call after validation. */
export function calibrationUploadBody(
  values: CalibrationCertificateFormValues,
  timeZone: string,
): TCalibrationUpload {
  // `2025-03-01T00:00+01:00` -> `2025-03-01T00:00:00+01:00` (the API wants the seconds).
  const start = (day: string) =>
    zonedDayBounds(day, timeZone)!.start.replace(/T00:00/, 'T00:00:00');
  return {
    model_name: values.model_name.trim(),
    calibrated_devices: [
      {
        device_id: values.device_id!,
        calibration_timestamp: start(values.calibration_timestamp),
        ...(values.calibration_due === ''
          ? {}
          : { calibration_due: start(values.calibration_due) }),
      },
    ],
  };
}
