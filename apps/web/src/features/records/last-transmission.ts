import { isLiveTagType, type TRecord } from '@coldtrace/contract';
import { formatAge, formatDateTime } from '@coldtrace/domain';

/** When an rt or nanotag record's data last arrived (`Never` before any), and how long ago. */
export interface LastTransmission {
  time: string;
  /** `3m ago`, `just now`; null when nothing arrived yet. */
  age: string | null;
}

/**
 * The last transmission of an rt or nanotag record (issue 35 item 6): when the
 * server last received its data, in the user's zone, and how long before
 * `now`. Null for an xt1 record: it is scanned by hand, so it shows its last
 * scan instead.
 */
export function lastTransmissionOf(
  record: Pick<TRecord, 'tag_type' | 'last_transmission'>,
  timeZone: string,
  now: number,
): LastTransmission | null {
  if (!isLiveTagType(record.tag_type)) return null;
  const at = record.last_transmission;
  if (!at) return { time: 'Never', age: null };
  return { time: formatDateTime(at, timeZone), age: formatAge(at, now) };
}

/** {@link lastTransmissionOf} on one line: `11/22/2026, 14:05:09 · 3m ago`. */
export function lastTransmissionText(
  record: Pick<TRecord, 'tag_type' | 'last_transmission'>,
  timeZone: string,
  now: number,
): string | null {
  const last = lastTransmissionOf(record, timeZone, now);
  if (last === null) return null;
  return last.age === null ? last.time : `${last.time} · ${last.age}`;
}
