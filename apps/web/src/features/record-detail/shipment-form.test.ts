import type { TDropdownInfo, TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  applyProduct,
  optimisticRecord,
  shipmentChanges,
  shipmentFormFrom,
  validateShipmentForm,
} from './shipment-form';

const record: TRecord = {
  id: '42',
  primary_reference: 'PO-1',
  secondary_reference: null,
  shipping_reference: 'SHIP-9',
  program_name: 'Vaccines',
  po_number: null,
  carrier: 'Cold Express',
  product_designation: 'Insulin',
  shipper_name_address: { id: '1', name: 'Amsterdam DC' },
  receiver_name_address: null,
  high_threshold: 8,
  low_threshold: 2.25,
  cumulative_high_threshold: null,
  cumulative_low_threshold: null,
  cumulative_duration_high: '1 12:00:00',
  cumulative_duration_low: null,
  num_consecutive_excursions: 1,
};

const dropdown: TDropdownInfo = {
  origin_locations: [{ id: '1', name: 'Amsterdam DC' }],
  destination_locations: [{ id: '2', name: 'Paris Hospital' }],
};

describe('shipmentFormFrom [SPEC-4, SPEC-7.2]', () => {
  it('shows texts as stored and thresholds in the user unit, one decimal', () => {
    const form = shipmentFormFrom(record, 'F');
    expect(form).toMatchObject({
      primary_reference: 'PO-1',
      secondary_reference: '',
      shipper_name_address_id: '1',
      receiver_name_address_id: '',
      high_threshold: '46.4',
      low_threshold: '36.1',
      cumulative_high_threshold: '',
      cumulative_duration_high: '1 12:00:00',
      num_consecutive_excursions: '1',
    });
  });
});

describe('shipmentChanges [SPEC-4, SPEC-7.2]', () => {
  it('sends only what changed; an untouched threshold is never rounded through °F', () => {
    const initial = shipmentFormFrom(record, 'F');
    expect(shipmentChanges(initial, { ...initial }, 'F')).toEqual({});
    const edited = {
      ...initial,
      primary_reference: '  PO-2 ',
      shipping_reference: '',
      receiver_name_address_id: '2',
      high_threshold: '50',
    };
    expect(shipmentChanges(initial, edited, 'F')).toEqual({
      primary_reference: 'PO-2',
      shipping_reference: null,
      receiver_name_address_id: '2',
      high_threshold: 10,
    });
  });

  it('converts thresholds typed in °C to two decimals, and clears emptied limits', () => {
    const initial = shipmentFormFrom(record, 'C');
    const edited = { ...initial, low_threshold: '1.234', cumulative_duration_high: '' };
    expect(shipmentChanges(initial, edited, 'C')).toEqual({
      low_threshold: 1.23,
      cumulative_duration_high: null,
    });
  });
});

describe('validateShipmentForm [SPEC-4, SPEC-7.2]', () => {
  const initial = shipmentFormFrom(record, 'C');

  it('accepts the record as it is', () => {
    expect(validateShipmentForm(initial, 'C', initial)).toEqual({});
  });

  it('names each field at fault', () => {
    expect(
      validateShipmentForm(
        {
          ...initial,
          primary_reference: 'x'.repeat(256),
          high_threshold: 'warm',
          cumulative_high_threshold: '500',
          cumulative_duration_low: '90 minutes',
          num_consecutive_excursions: '0',
        },
        'C',
        initial,
      ),
    ).toEqual({
      primary_reference: 'At most 255 characters',
      high_threshold: 'Enter a number',
      cumulative_high_threshold: 'Must be from -100 to 200 °C',
      cumulative_duration_low: 'Use [DD ]HH:MM:SS, e.g. 1 12:00:00',
      num_consecutive_excursions: 'Enter a whole number from 1 to 100,000',
    });
  });

  it('refuses a low threshold above the high one (in °F too)', () => {
    const form = shipmentFormFrom(record, 'F');
    expect(validateShipmentForm({ ...form, low_threshold: '50' }, 'F', form)).toEqual({
      low_threshold: 'Must not be above the high threshold',
    });
    expect(validateShipmentForm({ ...form, high_threshold: '500' }, 'F', form)).toEqual({
      high_threshold: 'Must be from -148 to 392 °F',
    });
  });

  it('refuses emptying consecutive excursions', () => {
    expect(
      validateShipmentForm({ ...initial, num_consecutive_excursions: ' ' }, 'C', initial),
    ).toEqual({ num_consecutive_excursions: 'Enter a whole number, 1 or more' });
  });
});

describe('applyProduct [SPEC-4, SPEC-7.2]', () => {
  it("fills the product's thresholds and limits in the user unit", () => {
    const form = applyProduct(
      shipmentFormFrom(record, 'C'),
      {
        product_name: 'Frozen plasma',
        high_threshold: -18,
        low_threshold: -30,
        num_consecutive_excursions: null,
        cumulative_high_threshold: -20,
        cumulative_duration_high: '02:00:00',
      },
      'F',
    );
    expect(form).toMatchObject({
      product_designation: 'Frozen plasma',
      high_threshold: '-0.4',
      low_threshold: '-22.0',
      cumulative_high_threshold: '-4.0',
      cumulative_low_threshold: '',
      cumulative_duration_high: '02:00:00',
      cumulative_duration_low: '',
      num_consecutive_excursions: '1',
    });
  });
});

describe('optimisticRecord [SPEC-4, SPEC-7.2]', () => {
  it('shows the changes at once, with party names from the dropdown bundle', () => {
    const next = optimisticRecord(
      record,
      {
        primary_reference: 'PO-2',
        shipping_reference: null,
        receiver_name_address_id: '2',
        shipper_name_address_id: null,
        high_threshold: 10,
      },
      dropdown,
    );
    expect(next).toMatchObject({
      primary_reference: 'PO-2',
      shipping_reference: null,
      receiver_name_address: { id: '2', name: 'Paris Hospital' },
      shipper_name_address: null,
      high_threshold: 10,
      low_threshold: 2.25,
    });
    expect(record.primary_reference).toBe('PO-1');
  });
});
