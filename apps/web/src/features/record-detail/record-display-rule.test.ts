import type { TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { HIDDEN_AUDIT_VALUE, isAuditValueHidden } from './audit-display';
import { shipmentDetailRows } from './components/shipment-details-card';
import { alarmPeak, formatThresholds } from './display';

describe('record page with a display rule [FEAT-DISPLAY-RULES]', () => {
  const record = { primary_reference: 'PO-1', carrier: 'DHL', po_number: '12' } as TRecord;

  it('leaves the hidden fields out of the shipment details', () => {
    const all = shipmentDetailRows(record).map((r) => r.label);
    expect(all).toHaveLength(9);
    expect(all[0]).toBe('Primary reference');
    const rows = shipmentDetailRows(record, ['primary_reference', 'po_number']);
    expect(rows.map((r) => r.label)).not.toContain('Primary reference');
    expect(rows.map((r) => r.label)).not.toContain('PO number');
    expect(rows.find((r) => r.field === 'carrier')?.value).toBe('DHL');
  });

  it("shows a hidden field's audit entries without their values", () => {
    expect(HIDDEN_AUDIT_VALUE).toBe('(hidden)');
    const edit = { action: 'record.shipment.update', field: 'primary_reference' };
    expect(isAuditValueHidden(edit, [])).toBe(false);
    expect(isAuditValueHidden(edit, ['primary_reference'])).toBe(true);
    expect(isAuditValueHidden({ ...edit, field: 'carrier' }, ['primary_reference'])).toBe(false);
    const recipients = { action: 'record.alarm_recipients.update', field: null };
    expect(isAuditValueHidden(recipients, ['alarm_recipients'])).toBe(true);
    expect(isAuditValueHidden(recipients, ['carrier'])).toBe(false);
  });

  it('formats thresholds and peaks with the rule decimals', () => {
    expect(formatThresholds(2, 8, 'C', 0)).toBe('2 °C to 8 °C');
    expect(formatThresholds(2, 8, 'F', 2)).toBe('35.60 °F to 46.40 °F');
    expect(formatThresholds(2, 8, 'C')).toBe('2.0 °C to 8.0 °C');
    const alarm = { above_or_below: 'ABOVE', highest_recorded_temperature: 9.55 } as Parameters<
      typeof alarmPeak
    >[0];
    expect(alarmPeak(alarm, 'C', 2)).toBe('9.55 °C');
  });
});
