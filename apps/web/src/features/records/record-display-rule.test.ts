import type { TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { parties, recordListHeadings } from './components/record-list';
import { RECORD_FILTER_SPECS, recordColumns, recordFilterSpecs } from './record-columns';

const record: TRecord = {
  id: '7',
  primary_reference: 'PO-1',
  shipper_name_address: { name: 'Acme' },
  receiver_name_address: { name: 'Clinic' },
  highest_recorded_temperature: 8,
} as TRecord;

describe('All Records with a display rule [FEAT-DISPLAY-RULES]', () => {
  it('leaves out the columns and filters of hidden fields', () => {
    const fields = (hidden: Parameters<typeof recordFilterSpecs>[0]) =>
      recordColumns({ unit: 'C', timeZone: 'UTC', hiddenFields: hidden }).map((c) => c.field);
    expect(fields([])).toContain('primary_reference');
    const hidden = fields(['primary_reference', 'shipper_name_address']);
    expect(hidden).not.toContain('primary_reference');
    expect(hidden).not.toContain('shipper_name_address');
    expect(hidden).toContain('receiver_name_address');
    expect(recordFilterSpecs([])).toBe(RECORD_FILTER_SPECS);
    expect(recordFilterSpecs(['po_number']).map((s) => s.field)).not.toContain('po_number');
    expect(recordFilterSpecs(['po_number']).length).toBe(RECORD_FILTER_SPECS.length - 1);
  });

  it('shows temperatures in the rule unit with its decimals', () => {
    const highest = recordColumns({ unit: 'F', timeZone: 'UTC', decimals: 2 }).find(
      (c) => c.field === 'highest_recorded_temperature',
    );
    const format = highest?.valueFormatter as unknown as (v: number | null) => string;
    expect(format(8)).toBe('46.40 °F');
  });
});

describe('record list with a display rule [FEAT-DISPLAY-RULES]', () => {
  it('leaves out a hidden party and the headings follow', () => {
    expect(parties(record)).toBe('Acme → Clinic');
    expect(parties(record, ['shipper_name_address'])).toBe('To Clinic');
    expect(parties(record, ['receiver_name_address'])).toBe('From Acme');
    expect(parties(record, ['shipper_name_address', 'receiver_name_address'])).toBe('');
    expect(recordListHeadings([])).toEqual({
      tag: 'Tag · Primary reference',
      parties: 'Shipper → Receiver',
    });
    expect(recordListHeadings(['primary_reference', 'receiver_name_address'])).toEqual({
      tag: 'Tag',
      parties: 'Shipper',
    });
  });
});
