import { describe, expect, it } from 'vitest';
import {
  calibrationSettingsFormFrom,
  calibrationSettingsUpdateBody,
  validateCalibrationSettingsForm,
} from './calibration-settings-form';

const saved = {
  calibration_validity_months: 12,
  calibration_due_soon_days: 30,
  expired_calibration_start: 'WARN' as const,
};

describe('calibration settings form [FEAT-CALIBRATION]', () => {
  it('starts from the saved settings, else the defaults', () => {
    expect(calibrationSettingsFormFrom(undefined)).toEqual({
      calibration_validity_months: '12',
      calibration_due_soon_days: '30',
      expired_calibration_start: 'WARN',
    });
    expect(
      calibrationSettingsFormFrom({ ...saved, expired_calibration_start: 'REFUSE' })
        .expired_calibration_start,
    ).toBe('REFUSE');
  });

  it('sends only what changed', () => {
    const form = calibrationSettingsFormFrom(saved);
    expect(calibrationSettingsUpdateBody(form, saved)).toEqual({});
    expect(
      calibrationSettingsUpdateBody(
        { ...form, calibration_due_soon_days: '14', expired_calibration_start: 'REFUSE' },
        saved,
      ),
    ).toEqual({ calibration_due_soon_days: 14, expired_calibration_start: 'REFUSE' });
  });

  it('names each bad number', () => {
    const form = calibrationSettingsFormFrom(saved);
    expect(validateCalibrationSettingsForm(form)).toEqual({});
    expect(
      Object.keys(
        validateCalibrationSettingsForm({
          ...form,
          calibration_validity_months: '0',
          calibration_due_soon_days: '1.5',
        }),
      ),
    ).toEqual(['calibration_validity_months', 'calibration_due_soon_days']);
    expect(
      validateCalibrationSettingsForm({ ...form, calibration_validity_months: '121' })
        .calibration_validity_months,
    ).toBeDefined();
    expect(validateCalibrationSettingsForm({ ...form, calibration_due_soon_days: '0' })).toEqual(
      {},
    );
  });
});
