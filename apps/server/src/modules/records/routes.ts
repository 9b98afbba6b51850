import {
  aggregateLocations,
  aggregateRecordTemperatures,
  TOTAL_COUNT_HEADER,
  xt1Alarms,
  xt1Details,
  xt1LatestRecord,
  xt1Record,
  xt1RecordActions,
  xt1RecordIds,
  xt1Records,
  xt1RecordScans,
  xt1ScansList,
  xt1Sensors,
  xt1StatisticsFiltered,
  xt1StatisticsSummary,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerCall } from '../../http/register-call';
import { registerRecordSeries } from './series-compact';
import { createRecordsService, type Listed } from './service';

/** Answers a page and puts the total number of matching rows in `x-total-count`. */
function paged<T>(reply: FastifyReply, listed: Listed<T>): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(listed.total));
  return listed.items;
}

/**
 * The read side of the shipment data: xt1 tags, records, actions, scans,
 * statistics and alarms, and the aggregates of the record detail view
 * (docs/decisions/record-queries.md).
 */
export async function recordsRoutes(app: FastifyInstance): Promise<void> {
  const service = createRecordsService(app.db);

  registerCall(app, xt1Sensors, async ({ requirePrincipal }) =>
    service.sensors(requirePrincipal()),
  );

  registerCall(app, xt1Details, async ({ query, reply, requirePrincipal }) =>
    paged(reply, await service.details(requirePrincipal(), query)),
  );

  registerCall(app, xt1Records, async ({ query, reply, requirePrincipal }) =>
    paged(reply, await service.records(requirePrincipal(), query)),
  );

  registerCall(app, xt1Record, async ({ query, requirePrincipal }) =>
    service.record(requirePrincipal(), query.record_id),
  );

  registerCall(app, xt1RecordIds, async ({ requirePrincipal }) =>
    service.recordIds(requirePrincipal()),
  );

  registerCall(app, xt1LatestRecord, async ({ query, requirePrincipal }) =>
    service.latestRecord(requirePrincipal(), query.tag_id_or_serial_number),
  );

  registerCall(app, xt1RecordActions, async ({ query, requirePrincipal }) =>
    service.actions(requirePrincipal(), query.record_ids),
  );

  registerCall(app, xt1RecordScans, async ({ query, requirePrincipal }) =>
    service.scansOfRecords(requirePrincipal(), query.record_ids, query.latest ?? false),
  );

  registerCall(app, xt1StatisticsSummary, async ({ requirePrincipal }) =>
    service.summary(requirePrincipal()),
  );

  registerCall(app, xt1StatisticsFiltered, async ({ query, requirePrincipal }) =>
    service.filteredStatistics(requirePrincipal(), query.start_date, query.end_date),
  );

  registerCall(app, xt1Alarms, async ({ query, requirePrincipal }) =>
    service.alarms(requirePrincipal(), query),
  );

  registerCall(app, xt1ScansList, async ({ query, reply, requirePrincipal }) =>
    paged(reply, await service.scans(requirePrincipal(), query)),
  );

  registerCall(app, aggregateLocations, async ({ query, reply, requirePrincipal }) =>
    paged(reply, await service.locations(requirePrincipal(), query)),
  );

  registerCall(app, aggregateRecordTemperatures, async ({ query, requirePrincipal }) =>
    service.temperatures(requirePrincipal(), query.record_ids),
  );

  registerRecordSeries(app);
}
