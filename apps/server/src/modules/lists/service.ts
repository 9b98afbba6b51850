import type { Database } from '../../db/client';
import type { PageQuery } from '../../kernel/paging';
import { organizationOf, type Principal } from '../../kernel/principal';
import { alarmsCall } from './alarms-list';
import { recordsCall, type RecordsQuery } from './records-list';
import { scansCall } from './scans-list';
import { filteredStatisticsCall, statistics } from './statistics';
import { detailsCall, sensorsCall } from './tags-list';

/**
 * The list calls in the principal's organization (docs/decisions/record-queries.md),
 * each one file of this module: the routes (routes.ts) and the benches and
 * tests that run a call's statements without HTTP use them.
 */
export function createListsService(db: Database) {
  return {
    records: (principal: Principal, q: RecordsQuery) =>
      recordsCall(db, organizationOf(principal), q),
    sensors: (principal: Principal) => sensorsCall(db, organizationOf(principal)),
    details: (principal: Principal, q: Parameters<typeof detailsCall>[2]) =>
      detailsCall(db, organizationOf(principal), q),
    scans: (principal: Principal, q: PageQuery) => scansCall(db, organizationOf(principal), q),
    alarms: (principal: Principal, q: Parameters<typeof alarmsCall>[2]) =>
      alarmsCall(db, organizationOf(principal), q),
    summary: (principal: Principal) => statistics(db, organizationOf(principal)),
    filteredStatistics: (principal: Principal, startDate: string, endDate: string) =>
      filteredStatisticsCall(db, organizationOf(principal), startDate, endDate),
  };
}

export type ListsService = ReturnType<typeof createListsService>;
