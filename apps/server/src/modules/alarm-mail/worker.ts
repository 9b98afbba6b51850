import type { FastifyInstance } from 'fastify';
import type { JobData, TRIP_EVENT_JOB } from '../../jobs/catalogue';
import { processEvent } from './process-event';
import * as repo from './repository';

type TripEvent = JobData<typeof TRIP_EVENT_JOB>;

/** The notification event of a departure or arrival: its key is the record and the trip time. */
function eventValues(event: Exclude<TripEvent, { eventId: number }>): repo.EventValues {
  const kind = event.notificationType === 'Departure' ? 'departure' : 'arrival';
  return {
    organizationId: event.organizationId,
    recordId: event.recordId,
    alarmIds: [],
    notificationType: event.notificationType,
    eventKey: `${kind}:${event.recordId}:${event.occurredAt}`,
    occurredAt: new Date(event.occurredAt),
  };
}

/**
 * The `trip.event` worker: notes the Departure or Arrival event (once per
 * key: the same departure published again finds it) and sends its e-mails.
 * The event row is locked for the whole run and marked processed in the same
 * transaction as its log entries and outbox rows, so a re-run (a crash, a
 * retry, a replay) of a processed event sends nothing.
 */
export function tripEventWorker(app: FastifyInstance) {
  return async (job: TripEvent): Promise<void> => {
    await app.db.transaction(async (tx) => {
      const eventId =
        'eventId' in job ? job.eventId : (await repo.upsertEvent(tx, eventValues(job))).id;
      const event = await repo.lockEvent(tx, eventId);
      if (!event || event.processedAt !== null) return;
      await processEvent(app, tx, event);
    });
  };
}
