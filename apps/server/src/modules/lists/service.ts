import type { Database } from '../../db/client';
import type { PageQuery } from '../../kernel/paging';
import { alarmsCall } from './alarms-list';
import { recordsCall, type RecordsQuery } from './records-list';
import { scansCall } from './scans-list';
import { filteredStatisticsCall, statistics } from './statistics';
import { detailsCall, sensorsCall } from './tags-list';

/**
 * The list calls in the organization given (the route's) (docs/decisions/record-queries.md),
 * each one file of this module: the routes (routes.ts) and the benches and
 * tests that run a call's statements without HTTP use them.
 */
export function createListsService(db: Database) {
  return {
    records: (organizationId: string, q: RecordsQuery) => recordsCall(db, organizationId, q),
    sensors: (organizationId: string) => sensorsCall(db, organizationId),
    details: (organizationId: string, q: Parameters<typeof detailsCall>[2]) =>
      detailsCall(db, organizationId, q),
    scans: (organizationId: string, q: PageQuery) => scansCall(db, organizationId, q),
    alarms: (organizationId: string, q: Parameters<typeof alarmsCall>[2]) =>
      alarmsCall(db, organizationId, q),
    summary: (organizationId: string) => statistics(db, organizationId),
    filteredStatistics: (organizationId: string, startDate: string, endDate: string) =>
      filteredStatisticsCall(db, organizationId, startDate, endDate),
  };
}

export type ListsService = ReturnType<typeof createListsService>;
