import {
  TOTAL_COUNT_HEADER,
  xt1Alarms,
  xt1Details,
  xt1Records,
  xt1ScansList,
  xt1Sensors,
  xt1StatisticsFiltered,
  xt1StatisticsSummary,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerCall } from '../../http/register-call';
import type { Listed } from '../../kernel/paging';
import { alarmsCall } from './alarms-list';
import { registerRecordSeries } from './record-series';
import { recordsCall } from './records-list';
import { scansCall } from './scans-list';
import { filteredStatisticsCall, statistics } from './statistics';
import { detailsCall, sensorsCall } from './tags-list';

/** Answers a page and puts the total number of matching rows in `x-total-count`. */
function paged<T>(reply: FastifyReply, listed: Listed<T>): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(listed.total));
  return listed.items;
}

/**
 * The list calls of the read side: records (with the search), tags, scans,
 * alarms, statistics and a record's compact series
 * (docs/decisions/record-queries.md, docs/decisions/list-performance.md).
 */
export async function listsRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  registerCall(app, xt1Sensors, async ({ organizationId }) => sensorsCall(db, organizationId()));

  registerCall(app, xt1Details, async ({ query, reply, organizationId }) =>
    paged(reply, await detailsCall(db, organizationId(), query)),
  );

  registerCall(app, xt1Records, async ({ query, reply, organizationId }) =>
    paged(reply, await recordsCall(db, organizationId(), query)),
  );

  registerCall(app, xt1StatisticsSummary, async ({ organizationId }) =>
    statistics(db, organizationId()),
  );

  registerCall(app, xt1StatisticsFiltered, async ({ query, organizationId }) =>
    filteredStatisticsCall(db, organizationId(), query.start_date, query.end_date),
  );

  registerCall(app, xt1Alarms, async ({ query, organizationId }) =>
    alarmsCall(db, organizationId(), query),
  );

  registerCall(app, xt1ScansList, async ({ query, reply, organizationId }) =>
    paged(reply, await scansCall(db, organizationId(), query)),
  );

  registerRecordSeries(app);
}
