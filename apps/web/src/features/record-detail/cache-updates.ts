import type {
  TExcursionAlarm,
  TRecord,
  TTripEditResult,
  TTripTemperatures,
} from '@coldtrace/contract';

/**
 * How a reply changes what other screens have cached (pure, tested). The spec
 * (section 4, "Editing trip times") applies the trip edit's reply to the open
 * record, the list rows and the temperature aggregates. The record lists are
 * another feature's queries whose keys this feature does not own, so the
 * update works on the shape of the cached data instead: any cached record
 * with the id (alone, in an array, or in a page object's `data`, `items`,
 * `rows`, `results` or `records` array) and any temperature aggregate of the
 * record. Data without such a record is returned as the same object, so the
 * caller can tell nothing changed and leave that query alone.
 */

const PAGE_ARRAY_KEYS = ['data', 'items', 'rows', 'results', 'records'] as const;

type Trip = Pick<TTripEditResult, 'begin_time' | 'end_time' | 'trip_status'>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A cached record (it has a `trip` or the record's identity fields) with this id. */
function isRecordWithId(value: unknown, recordId: string): value is TRecord {
  return (
    isObject(value) &&
    value.id === recordId &&
    ('trip' in value || 'tag_serial_number' in value || 'computed_status' in value)
  );
}

function isAggregateOf(value: unknown, recordId: string): value is TTripTemperatures {
  return isObject(value) && value.record_id === recordId && 'temperatures' in value;
}

/** The record with the reply's trip. */
export function applyTripToRecord(record: TRecord, trip: Trip): TRecord {
  return {
    ...record,
    trip: {
      ...record.trip,
      begin_time: trip.begin_time ?? null,
      end_time: trip.end_time ?? null,
      ...(trip.trip_status ? { trip_status: trip.trip_status } : {}),
    },
  };
}

function applyToItem(item: unknown, recordId: string, trip: Trip): unknown {
  if (isRecordWithId(item, recordId)) return applyTripToRecord(item, trip);
  if (isAggregateOf(item, recordId)) {
    return {
      ...item,
      trip_begin_time: trip.begin_time ?? null,
      trip_end_time: trip.end_time ?? null,
    };
  }
  return item;
}

function applyToArray(items: readonly unknown[], recordId: string, trip: Trip): unknown[] | null {
  let changed = false;
  const next = items.map((item) => {
    const updated = applyToItem(item, recordId, trip);
    if (updated !== item) changed = true;
    return updated;
  });
  return changed ? next : null;
}

/**
 * Cached data with the trip applied to the record `recordId` wherever it
 * appears; the same object when it does not appear.
 */
export function applyTripToCachedData(data: unknown, recordId: string, trip: Trip): unknown {
  if (Array.isArray(data)) return applyToArray(data, recordId, trip) ?? data;
  if (!isObject(data)) return data;
  const single = applyToItem(data, recordId, trip);
  if (single !== data) return single;
  for (const key of PAGE_ARRAY_KEYS) {
    const items = data[key];
    if (Array.isArray(items)) {
      const next = applyToArray(items, recordId, trip);
      if (next) return { ...data, [key]: next };
    }
  }
  return data;
}

/** The cached alarms with the reply's alarms in place of theirs (same order; new ones ignored). */
export function mergeAlarms(
  cached: readonly TExcursionAlarm[] | undefined,
  updated: readonly TExcursionAlarm[],
): TExcursionAlarm[] | undefined {
  if (!cached) return cached;
  const byId = new Map(updated.map((a) => [a.id, a]));
  return cached.map((alarm) => byId.get(alarm.id) ?? alarm);
}
