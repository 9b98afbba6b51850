import type { Db } from '../../db/client';
import type { JobQueue } from '../../jobs/queue';
import type { RecordRow } from '../../db/schema-shipments';
import { insertEventsIfNew, type EventValues } from './repository';

/** The job that sends the Departure or Arrival e-mails of one trip event (`{ eventId }`). */
export const TRIP_EVENT_JOB = 'trip.event';

export interface TripEventJob {
  eventId: number;
}

/**
 * Called by the ingest module's recompute, in its transaction, with the
 * record before and after: when the trip status moved forward (departed:
 * NOT_DEPARTED to IN_TRANSIT or ARRIVED; arrived: to ARRIVED), notes a
 * Departure and / or Arrival event and sends its `trip.event` job in the same
 * transaction. The event key is the record and the trip time, so the same
 * departure detected again (a replay, a re-evaluation) notes nothing new.
 */
export async function announceTripChange(
  jobs: Pick<JobQueue, 'send'>,
  tx: Db,
  before: RecordRow,
  after: RecordRow,
  now: Date,
): Promise<void> {
  if (before.tripStatus === after.tripStatus) return;
  const base = { organizationId: after.organizationId, recordId: after.id, alarmIds: [] };
  const events: EventValues[] = [];
  if (before.tripStatus === 'NOT_DEPARTED' && after.tripStatus !== 'NOT_DEPARTED') {
    const at = after.tripBeginTime ?? now;
    events.push({
      ...base,
      notificationType: 'Departure',
      eventKey: `departure:${after.id}:${at.toISOString()}`,
      occurredAt: at,
    });
  }
  if (after.tripStatus === 'ARRIVED') {
    const at = after.tripEndTime ?? now;
    events.push({
      ...base,
      notificationType: 'Arrival',
      eventKey: `arrival:${after.id}:${at.toISOString()}`,
      occurredAt: at,
    });
  }
  for (const eventId of await insertEventsIfNew(tx, events)) {
    await jobs.send<TripEventJob>(TRIP_EVENT_JOB, { eventId }, { tx });
  }
}
