import type { TXt1TripEditUpload } from '@coldtrace/contract';

/**
 * The "Edit trip times" form (pure, tested). Times are instants (epoch
 * milliseconds); the pickers show them in the user's time zone. An empty time
 * clears it: no begin is Not departed, a begin without end In transit, an end
 * Arrived (domain rules §4).
 */

export interface TripTimes {
  begin: number | null;
  end: number | null;
}

export interface TripErrors {
  begin?: string;
  end?: string;
}

/** Trip times record what happened: not in the future, the end not before the begin. */
export function validateTripTimes(times: TripTimes, now: number): TripErrors {
  const errors: TripErrors = {};
  if (times.begin !== null && !Number.isFinite(times.begin)) errors.begin = 'Enter a date and time';
  if (times.end !== null && !Number.isFinite(times.end)) errors.end = 'Enter a date and time';
  if (!errors.begin && times.begin !== null && times.begin > now) {
    errors.begin = 'Must not be in the future';
  }
  if (!errors.end && times.end !== null && times.end > now)
    errors.end = 'Must not be in the future';
  if (
    !errors.begin &&
    !errors.end &&
    times.begin !== null &&
    times.end !== null &&
    times.end < times.begin
  ) {
    errors.end = 'Must not be before the departure';
  }
  return errors;
}

/** The records/trips/ body: both times (null clears), and when the person made the edit. */
export function tripEditBody(recordId: string, times: TripTimes, now: number): TXt1TripEditUpload {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    record_id: recordId,
    begin_time: iso(times.begin),
    end_time: iso(times.end),
    timestamp: new Date(now).toISOString(),
  };
}
