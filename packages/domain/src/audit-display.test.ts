import { describe, expect, it } from 'vitest';
import {
  auditActionLabel,
  auditChangeText,
  auditFieldLabel,
  auditValueText,
} from './audit-display';

describe('audit entries as people read them [FEAT-AUDIT-DISPLAY]', () => {
  const f = { unit: 'F' as const, timeZone: 'America/New_York' };
  const c = { unit: 'C' as const, timeZone: 'UTC' };

  it('temperatures of threshold fields in the unit with one decimal and the unit', () => {
    expect(auditValueText('high_threshold', 8, f)).toBe('46.4 °F');
    expect(auditValueText('low_threshold', -5, c)).toBe('-5.0 °C');
    // Other numbers stay as stored.
    expect(auditValueText('num_consecutive_excursions', 3, f)).toBe('3');
  });

  it('words for codes, yes/no, durations and instants in the zone', () => {
    expect(auditValueText('trip_status', 'IN_TRANSIT', f)).toBe('In transit');
    expect(auditValueText('acknowledged', true, f)).toBe('Yes');
    expect(auditValueText('cumulative_duration_high', '00:45:00', f)).toBe('45m');
    expect(auditValueText('end_time', '2026-07-01T10:00:00.000Z', f)).toBe('07/01/2026, 06:00:00');
    expect(auditValueText(null, 'APPROVED', f)).toBe('Approved');
    expect(auditValueText(null, ['a@x.org', 'b@x.org'], f)).toBe('a@x.org, b@x.org');
    expect(auditValueText('carrier', null, f)).toBe('—');
  });

  it('field and action names in words; one line per change', () => {
    expect(auditFieldLabel('num_consecutive_excursions')).toBe(
      'Consecutive points for an excursion',
    );
    expect(auditFieldLabel('carrier')).toBe('Carrier');
    expect(auditActionLabel('record.trip.update')).toBe('Trip times changed');
    expect(auditActionLabel('calibration.expired_start')).toBe('Started on an expired calibration');
    expect(auditActionLabel('product.update')).toBe('Product update');
    expect(auditChangeText({ field: 'high_threshold', oldValue: null, newValue: 8 }, f)).toBe(
      'High threshold: — → 46.4 °F',
    );
  });

  it("an alarm's raise and close entries in words", () => {
    expect(auditActionLabel('alarm.raise')).toBe('Alarm raised');
    expect(auditActionLabel('alarm.close')).toBe('Alarm closed');
    expect(auditChangeText({ field: 'state', oldValue: 'OPEN', newValue: 'CLOSED' }, f)).toBe(
      'State: Open → Closed',
    );
    expect(auditChangeText({ field: 'state', oldValue: null, newValue: 'OPEN' }, f)).toBe(
      'State: — → Open',
    );
    // Only the state field's values are alarm states.
    expect(auditValueText('carrier', 'OPEN', f)).toBe('OPEN');
  });
});
