import {
  aggregateLocations,
  aggregateRecordTemperatures,
  TOTAL_COUNT_HEADER,
  xt1LatestRecord,
  xt1Record,
  xt1RecordActions,
  xt1RecordIds,
  xt1RecordScans,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createRecordsService, type Listed } from './service';

/** Answers a page and puts the total number of matching rows in `x-total-count`. */
function paged<T>(reply: FastifyReply, listed: Listed<T>): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(listed.total));
  return listed.items;
}

/**
 * The record calls of the read side: one record, a tag's latest, the record
 * ids, the records' actions and scans, and the aggregates of the record detail
 * view (docs/decisions/record-queries.md); the lists are the lists module's.
 */
export async function recordsRoutes(app: FastifyInstance): Promise<void> {
  const service = createRecordsService(app.db);

  registerCall(app, xt1Record, async ({ query, organizationId }) =>
    service.record(organizationId(), query.record_id),
  );

  registerCall(app, xt1RecordIds, async ({ organizationId }) =>
    service.recordIds(organizationId()),
  );

  registerCall(app, xt1LatestRecord, async ({ query, organizationId }) =>
    service.latestRecord(organizationId(), query.tag_id_or_serial_number),
  );

  registerCall(app, xt1RecordActions, async ({ query, organizationId }) =>
    service.actions(organizationId(), query.record_ids),
  );

  registerCall(app, xt1RecordScans, async ({ query, organizationId }) =>
    service.scansOfRecords(organizationId(), query.record_ids, query.latest ?? false),
  );

  registerCall(app, aggregateLocations, async ({ query, reply, organizationId }) =>
    paged(reply, await service.locations(organizationId(), query)),
  );

  registerCall(app, aggregateRecordTemperatures, async ({ query, organizationId }) =>
    service.temperatures(organizationId(), query.record_ids),
  );
}
