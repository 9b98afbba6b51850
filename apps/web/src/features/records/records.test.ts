import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { serialLookupMessage } from './components/serial-lookup-box';
import { allRecordsHref, recordHref } from './record-links';

describe('record links [SPEC-2.10]', () => {
  it('opens a record', () => {
    expect(recordHref('42')).toBe('/recorddetails/42');
  });

  it('opens All Records filtered, first page of 20', () => {
    const url = new URL(
      allRecordsHref({
        filterItems: [{ field: 'computed_status', operator: 'is', value: 'Alarm' }],
      }),
      'http://x',
    );
    expect(url.pathname).toBe('/allrecords');
    expect(url.searchParams.getAll('filterItems')).toEqual([
      '{"field":"computed_status","operator":"is","value":"Alarm"}',
    ]);
    expect(url.searchParams.get('pageSize')).toBe('20');
    expect(url.searchParams.has('pageNumber')).toBe(false);
  });
});

describe('serial lookup messages [SPEC-2.10]', () => {
  it('says no record was found for a 404', () => {
    expect(
      serialLookupMessage({
        serialNumber: 'SN-1',
        error: new ApiError(404, 'NOT_FOUND', 'Not found'),
      }),
    ).toBe('No record found for serial number SN-1');
  });

  it('passes other failures on, and asks for a serial number when empty', () => {
    expect(
      serialLookupMessage({ serialNumber: 'x', error: new ApiError(500, 'INTERNAL', 'Boom') }),
    ).toBe('Boom');
    expect(serialLookupMessage({ serialNumber: '', error: null })).toBe(
      'Enter a serial number or a tag id.',
    );
  });
});
