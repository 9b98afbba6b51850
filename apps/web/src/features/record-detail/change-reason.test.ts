import type { TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { touchesReasonFields } from './change-reason';
import { shipmentFormFrom } from './shipment-form';

const record = {
  id: '7',
  primary_reference: 'REF-1',
  high_threshold: 8,
  low_threshold: 2,
  product_designation: 'Vaccine',
} as TRecord;

describe('touchesReasonFields [RULE-ALARM-2]', () => {
  const initial = shipmentFormFrom(record, 'C');

  it('is false for references, carrier, PO and program', () => {
    expect(touchesReasonFields(initial, { ...initial, primary_reference: 'REF-2' })).toBe(false);
    expect(touchesReasonFields(initial, { ...initial, carrier: 'Other' })).toBe(false);
    expect(touchesReasonFields(initial, initial)).toBe(false);
  });

  it('is true for thresholds, product and the origin or destination', () => {
    expect(touchesReasonFields(initial, { ...initial, high_threshold: '20' })).toBe(true);
    expect(touchesReasonFields(initial, { ...initial, product_designation: 'Insulin' })).toBe(true);
    expect(touchesReasonFields(initial, { ...initial, receiver_name_address_id: '12' })).toBe(true);
  });
});
