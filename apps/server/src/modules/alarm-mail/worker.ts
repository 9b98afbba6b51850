import type { FastifyInstance } from 'fastify';
import { processEvent } from './process-event';
import * as repo from './repository';
import { TRIP_EVENT_JOB, type TripEventJob } from './trip-events';

/**
 * The `trip.event` worker: sends the Departure or Arrival e-mails of one
 * event. The event row is locked for the whole run and marked processed in
 * the same transaction as its log entries and outbox rows, so a re-run (a
 * crash, a retry) of a processed event sends nothing.
 */
export function registerTripEventWorker(app: FastifyInstance): void {
  app.jobs.work<TripEventJob>(
    TRIP_EVENT_JOB,
    async ({ eventId }) => {
      await app.db.transaction(async (tx) => {
        const event = await repo.lockEvent(tx, eventId);
        if (!event || event.processedAt !== null) return;
        await processEvent(app, tx, event);
      });
    },
    { retryLimit: 20, retryDelay: 5, retryBackoff: true },
  );
}
