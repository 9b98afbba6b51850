import type { TRecord, TTripTemperatures } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { applyTripToCachedData, applyTripToRecord, mergeAlarms } from './cache-updates';

const trip = {
  begin_time: '2025-01-01T08:00:00.000Z',
  end_time: null,
  trip_status: 'IN_TRANSIT' as const,
};
const record = (id: string): TRecord => ({
  id,
  tag_serial_number: `SN-${id}`,
  trip: { begin_time: null, end_time: null, trip_status: 'NOT_DEPARTED' },
});

describe('applyTripToCachedData [SPEC-4]', () => {
  it('applies the reply to the open record', () => {
    const open = record('7');
    expect(applyTripToCachedData(open, '7', trip)).toEqual({ ...open, trip });
    expect(applyTripToRecord(open, trip).trip).toEqual(trip);
  });

  it('applies it to list rows: arrays and page objects, leaving other rows as they are', () => {
    const rows = [record('6'), record('7')];
    const updated = applyTripToCachedData(rows, '7', trip) as TRecord[];
    expect(updated[0]).toBe(rows[0]);
    expect(updated[1]!.trip).toEqual(trip);
    const page = { data: rows, totalCount: 2 };
    const updatedPage = applyTripToCachedData(page, '7', trip) as typeof page;
    expect(updatedPage.totalCount).toBe(2);
    expect(updatedPage.data[1]!.trip).toEqual(trip);
    expect(page.data[1]!.trip?.trip_status).toBe('NOT_DEPARTED');
  });

  it('applies it to the temperature aggregates of the record', () => {
    const aggregate: TTripTemperatures = {
      record_id: '7',
      temperatures: [],
      trip_begin_time: null,
    };
    expect(applyTripToCachedData([aggregate], '7', trip)).toEqual([
      { ...aggregate, trip_begin_time: trip.begin_time, trip_end_time: null },
    ]);
  });

  it('answers the same object when the record is not there', () => {
    const rows = [record('6')];
    expect(applyTripToCachedData(rows, '7', trip)).toBe(rows);
    const other = { data: [{ id: '7', name: 'a carrier, not a record' }] };
    expect(applyTripToCachedData(other, '7', trip)).toBe(other);
    expect(applyTripToCachedData(undefined, '7', trip)).toBeUndefined();
    expect(applyTripToCachedData('text', '7', trip)).toBe('text');
  });
});

describe('mergeAlarms [SPEC-4]', () => {
  it('puts the updated alarms in place, keeping the order', () => {
    const cached = [
      { id: '1', acknowledged: false },
      { id: '2', acknowledged: false },
    ];
    expect(mergeAlarms(cached, [{ id: '2', acknowledged: true }, { id: '9' }])).toEqual([
      { id: '1', acknowledged: false },
      { id: '2', acknowledged: true },
    ]);
    expect(mergeAlarms(undefined, [])).toBeUndefined();
  });
});
