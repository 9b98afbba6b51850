import { ZCalibrationUpload } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  calibrationUploadBody,
  emptyCalibrationCertificateForm,
  validateCalibrationCertificateForm,
} from './calibration-certificate-form';

const TODAY = '2026-05-10';
const filled = {
  ...emptyCalibrationCertificateForm(7, ' XT1 rev. B '),
  calibration_timestamp: '2026-05-01',
  calibration_due: '2027-05-01',
};

describe('the calibration certificate form [FEAT-CALIBRATION]', () => {
  it('names every missing value', () => {
    expect(validateCalibrationCertificateForm(emptyCalibrationCertificateForm(), TODAY)).toEqual({
      device_id: 'Choose the tag the certificate is for',
      model_name: 'A model name is required',
      calibration_timestamp: 'The day the tag was calibrated',
    });
  });

  it('refuses a future calibration and a due day not after it', () => {
    expect(
      validateCalibrationCertificateForm({ ...filled, calibration_timestamp: '2026-05-11' }, TODAY),
    ).toEqual({ calibration_timestamp: 'Must not be in the future' });
    expect(
      validateCalibrationCertificateForm({ ...filled, calibration_due: '2026-05-01' }, TODAY),
    ).toEqual({ calibration_due: 'Must be after the calibration day' });
    expect(validateCalibrationCertificateForm(filled, TODAY)).toEqual({});
    expect(validateCalibrationCertificateForm({ ...filled, calibration_due: '' }, TODAY)).toEqual(
      {},
    );
  });

  it('sends the days as their first minute in the zone, accepted by the contract', () => {
    const body = calibrationUploadBody(filled, 'Europe/Berlin');
    expect(body).toEqual({
      model_name: 'XT1 rev. B',
      calibrated_devices: [
        {
          device_id: 7,
          calibration_timestamp: '2026-05-01T00:00:00+02:00',
          calibration_due: '2027-05-01T00:00:00+02:00',
        },
      ],
    });
    expect(ZCalibrationUpload.safeParse(body).success).toBe(true);
    const noDue = calibrationUploadBody({ ...filled, calibration_due: '' }, 'America/New_York');
    expect(noDue.calibrated_devices[0]).toEqual({
      device_id: 7,
      calibration_timestamp: '2026-05-01T00:00:00-04:00',
    });
  });
});
