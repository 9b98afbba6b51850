import {
  type TDispositionFilter,
  type TReviewStateFilter,
  type TRecordLocations,
  type TTripTemperatures,
  type TTemperaturePoint,
} from '@coldtrace/contract';
import { effectiveInterval, pointTime } from '@coldtrace/domain';
import type { Database } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import type { AppError } from '../../kernel/errors';
import { invalidField, notFound, notFoundSaying } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import { pageOf, type Listed, type PageQuery } from '../../kernel/paging';
import { organizationOf, type Principal } from '../../kernel/principal';
import { readSeries } from '../../kernel/series-store';
import { DEFAULT_ORDER_BY, RECORD_FIELDS, TAG_FIELDS } from './fields';
import { dispositionCondition } from './disposition';
import { keptDecisionTotalOf, reviewStateCondition } from './review-state';
import { compileFilter, compileOrderBy, isFallbackOrder } from './filter-sql';
import { parseInstantRange } from './iso-range';
import {
  presentAction,
  presentAlarm,
  presentRecord,
  presentScan,
  presentTag,
  type RecordView,
  type ScanView,
  secondsIso,
  iso,
} from './presenter';
import { stabilityBudgetOf } from '../budget';
import * as repo from './repository';
import { inlineSearchCondition, searchCondition } from './search';

/**
 * The read side of the shipment data (docs/decisions/record-queries.md):
 * every function works in the principal's organization; ids of another
 * organization (or ids that cannot name a record) answer 404 naming the
 * parameter, never data.
 */

/** Most words the search box may send. */
export const MAX_SEARCH_WORDS = 20;

export type { Listed } from '../../kernel/paging';

function recordsNotFound(field: string, missing: readonly string[]): AppError {
  const names = missing.map((id) => `'${id}'`).join(', ');
  return notFound(missing.length === 1 ? `Record ${names}` : `Records ${names}`, field);
}

export function createRecordsService(db: Database) {
  /**
   * The scans with the points each brought: one read per record, of the range
   * its listed scans cover, from the record of the scan's own organization.
   */
  async function withScanTemperatures(views: ScanView[]): Promise<ScanView[]> {
    const ranges = new Map<number, { from: number; to: number }>();
    for (const v of views) {
      const { tempsOffsetIndex: from, tempsLength: length } = v.scan;
      if (v.seriesRecordId == null || length <= 0) continue;
      const to = from + length - 1;
      const range = ranges.get(v.seriesRecordId);
      ranges.set(
        v.seriesRecordId,
        range ? { from: Math.min(range.from, from), to: Math.max(range.to, to) } : { from, to },
      );
    }
    const series = new Map<number, { from: number; values: (number | null)[] }>();
    for (const [recordId, range] of ranges) {
      series.set(recordId, { from: range.from, values: await readSeries(db, recordId, range) });
    }
    return views.map((v) => {
      const read = v.seriesRecordId == null ? undefined : series.get(v.seriesRecordId);
      if (!read) return { ...v, temperatures: [] };
      const start = v.scan.tempsOffsetIndex - read.from;
      return { ...v, temperatures: read.values.slice(start, start + v.scan.tempsLength) };
    });
  }

  /** The single-record reply: the record with its stability budget across the shipment's legs. */
  async function withBudget(view: RecordView) {
    return { ...presentRecord(view), stability_budget: await stabilityBudgetOf(db, view.record) };
  }

  /** The organization's records named by `texts`, in the order given; 404 naming `field` otherwise. */
  async function recordsOf(
    principal: Principal,
    texts: readonly string[],
    field: string,
  ): Promise<RecordRow[]> {
    const organizationId = organizationOf(principal);
    const ids = texts.map(parseRowId);
    const malformed = texts.filter((_, i) => ids[i] === undefined);
    if (malformed.length > 0) throw recordsNotFound(field, malformed);
    const rows = await repo.recordsByIds(db, organizationId, ids as number[]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = texts.filter((_, i) => !byId.has(ids[i]!));
    if (missing.length > 0) throw recordsNotFound(field, missing);
    return (ids as number[]).map((id) => byId.get(id)!);
  }

  return {
    async sensors(principal: Principal) {
      const { rows } = await repo.listTags(db, organizationOf(principal), {
        orderBy: compileOrderBy(undefined, TAG_FIELDS, DEFAULT_ORDER_BY),
      });
      return rows.map(presentTag);
    },

    async details(
      principal: Principal,
      q: PageQuery & { filter?: string | undefined; order_by?: string[] | undefined },
    ) {
      const organizationId = organizationOf(principal);
      const { total, rows } = await repo.listTags(db, organizationId, {
        condition: compileFilter(q.filter, TAG_FIELDS),
        orderBy: compileOrderBy(q.order_by, TAG_FIELDS, DEFAULT_ORDER_BY),
        byLastAction: isFallbackOrder(q.order_by, DEFAULT_ORDER_BY),
        page: pageOf(q),
      });
      return { total, items: rows.map(presentTag) };
    },

    async records(
      principal: Principal,
      q: PageQuery & {
        filter?: string | undefined;
        search?: string | undefined;
        latest?: boolean | undefined;
        disposition?: TDispositionFilter | undefined;
        review_state?: TReviewStateFilter | undefined;
        order_by?: string[] | undefined;
      },
    ) {
      const organizationId = organizationOf(principal);
      const words = (q.search ?? '').split(/\s+/).filter((w) => w !== '');
      if (words.length > MAX_SEARCH_WORDS) {
        throw invalidField('search', `must have at most ${MAX_SEARCH_WORDS} words`);
      }
      const filter = compileFilter(q.filter, RECORD_FIELDS);
      // A filter alone that the kept counts count (a dashboard card's link),
      // or a decision alone: its total from the kept counts.
      const kept =
        words.length === 0 && !q.latest ? await keptTotalOf(db, q, organizationId) : undefined;
      const query = {
        conditions: [
          filter,
          dispositionCondition(q.disposition, organizationId),
          reviewStateCondition(q.review_state, organizationId),
        ],
        keptTotal: kept?.total,
        cardFilter: kept?.cardFilter,
        latest: q.latest,
        orderBy: compileOrderBy(q.order_by, RECORD_FIELDS, DEFAULT_ORDER_BY),
        byLastAction: isFallbackOrder(q.order_by, DEFAULT_ORDER_BY),
        page: pageOf(q),
      };
      // A search in one statement when it can be (its look-up inside), else
      // (or when that page is empty) with its look-up first (search.ts).
      const inline = inlineSearchCondition(organizationId, words);
      const listed =
        (inline && (await repo.listRecords(db, organizationId, { ...query, search: inline }))) ||
        (await repo.listRecords(db, organizationId, {
          ...query,
          search: await searchCondition(db, organizationId, words),
        }));
      return { total: listed.total, items: listed.rows.map(presentRecord) };
    },

    async record(principal: Principal, recordIdText: string) {
      const organizationId = organizationOf(principal);
      const id = parseRowId(recordIdText);
      const view = id === undefined ? undefined : await repo.findRecord(db, organizationId, id);
      if (!view) throw recordsNotFound('record_id', [recordIdText]);
      return withBudget(view);
    },

    async recordIds(principal: Principal) {
      const rows = await repo.listRecordReferences(db, organizationOf(principal));
      return rows.map((r) => ({
        record_id: String(r.id),
        tag_id: String(r.tagId),
        tag_serial_number: r.tagSerialNumber,
      }));
    },

    async latestRecord(principal: Principal, tagIdOrSerialNumber: string) {
      const view = await repo.findLatestRecordOfTag(
        db,
        organizationOf(principal),
        tagIdOrSerialNumber,
      );
      if (!view) {
        const message = `No record of a tag '${tagIdOrSerialNumber}'`;
        throw notFoundSaying(message, 'tag_id_or_serial_number');
      }
      return withBudget(view);
    },

    async actions(principal: Principal, recordIds: readonly string[]) {
      const rows = await recordsOf(principal, recordIds, 'record_ids');
      const views = await repo.listActions(
        db,
        organizationOf(principal),
        rows.map((r) => r.id),
      );
      return views.map(presentAction);
    },

    async scansOfRecords(principal: Principal, recordIds: readonly string[], latest: boolean) {
      const rows = await recordsOf(principal, recordIds, 'record_ids');
      const views = await repo.listScansOfRecords(
        db,
        organizationOf(principal),
        rows.map((r) => r.id),
        latest,
      );
      return (await withScanTemperatures(views)).map(presentScan);
    },

    async summary(principal: Principal) {
      return repo.statistics(db, organizationOf(principal));
    },

    async filteredStatistics(principal: Principal, startDate: string, endDate: string) {
      const start = parseInstantRange(startDate);
      if (!start) throw invalidField('start_date', 'must be an ISO 8601 date or date-time');
      const end = parseInstantRange(endDate);
      if (!end) throw invalidField('end_date', 'must be an ISO 8601 date or date-time');
      // Both name spans (a date is its whole day): the range is from the start of one to the end of the other.
      if (start.from.getTime() >= end.to.getTime()) {
        throw invalidField('end_date', 'must not be before start_date');
      }
      return repo.statistics(db, organizationOf(principal), { from: start.from, to: end.to });
    },

    async alarms(
      principal: Principal,
      q: {
        record_id?: string | undefined;
        include_acknowledged?: boolean | undefined;
        include_dismissed?: boolean | undefined;
        include_closed?: boolean | undefined;
      },
    ) {
      const organizationId = organizationOf(principal);
      let recordId: number | undefined;
      if (q.record_id !== undefined) {
        const [row] = await recordsOf(principal, [q.record_id], 'record_id');
        recordId = row!.id;
      }
      const rows = await repo.listAlarms(db, organizationId, {
        recordId,
        includeAcknowledged: q.include_acknowledged ?? false,
        includeDismissed: q.include_dismissed ?? false,
        includeClosed: q.include_closed ?? true,
      });
      return rows.map(presentAlarm);
    },

    async scans(principal: Principal, q: PageQuery) {
      const { total, rows } = await repo.listScans(db, organizationOf(principal), pageOf(q));
      return { total, items: (await withScanTemperatures(rows)).map(presentScan) };
    },

    async locations(
      principal: Principal,
      q: PageQuery & { record_ids: string[]; order_by?: string[] | undefined },
    ): Promise<Listed<TRecordLocations>> {
      const organizationId = organizationOf(principal);
      // Check the order first: a bad order_by is a 400 whatever the ids.
      const orderBy =
        q.order_by && q.order_by.length > 0
          ? compileOrderBy(q.order_by, RECORD_FIELDS, DEFAULT_ORDER_BY)
          : null;
      const rows = await recordsOf(principal, q.record_ids, 'record_ids');
      let ids = rows.map((r) => r.id);
      if (orderBy) ids = await repo.orderRecordIds(db, organizationId, ids, orderBy);
      const page = pageOf(q);
      const pageIds = ids.slice((page.number - 1) * page.size, page.number * page.size);
      const samples = await repo.listLocations(db, organizationId, pageIds);
      const byRecord = new Map<number, TRecordLocations['locations']>(
        pageIds.map((id) => [id, []]),
      );
      for (const s of samples) {
        byRecord.get(s.recordId)?.push({
          latitude: s.latitude,
          longitude: s.longitude,
          timestamp: s.timestamp.toISOString(),
        });
      }
      return {
        total: ids.length,
        items: pageIds.map((id) => ({ record_id: String(id), locations: byRecord.get(id)! })),
      };
    },

    async temperatures(
      principal: Principal,
      recordIds: readonly string[],
    ): Promise<TTripTemperatures[]> {
      const rows = await recordsOf(principal, recordIds, 'record_ids');
      const out: TTripTemperatures[] = [];
      for (const r of rows) {
        const temps = await readSeries(db, r.id);
        const interval = effectiveInterval({
          measurement_interval: r.measurementInterval,
          calculated_measurement_interval: r.calculatedMeasurementInterval,
        });
        const timing =
          r.startTimeSeconds === null || interval === null
            ? null
            : {
                startTimeSeconds: r.startTimeSeconds,
                startDelay: r.startDelay,
                intervalSeconds: interval,
              };
        const temperatures: TTemperaturePoint[] = [];
        temps.forEach((temperature, index) => {
          if (temperature === null) return;
          const point: TTemperaturePoint = { temperature, index };
          const at = timing ? secondsIso(pointTime(timing, index)) : null;
          if (at !== null) point.timestamp = at;
          temperatures.push(point);
        });
        out.push({
          record_id: String(r.id),
          high_threshold: r.highThreshold,
          low_threshold: r.lowThreshold,
          cumulative_high_threshold: r.cumulativeHighThreshold,
          cumulative_low_threshold: r.cumulativeLowThreshold,
          trip_begin_time: iso(r.tripBeginTime),
          trip_end_time: iso(r.tripEndTime),
          start_time: r.startTimeSeconds === null ? null : secondsIso(r.startTimeSeconds),
          temperatures,
        });
      }
      return out;
    },
  };
}

export type RecordsService = ReturnType<typeof createRecordsService>;

/**
 * The number of matches of the list's filters from the kept counts, when
 * they are one the counts give: a dashboard card's filter alone
 * (`keptCountOfFilter`; `cardFilter`: its page reads the same way for any
 * value, repository.ts `listCardPage`), or a broad decision alone
 * (`keptDecisionTotalOf`). Undefined otherwise (the matches are counted).
 */
async function keptTotalOf(
  db: Database,
  q: {
    filter?: string | undefined;
    disposition?: TDispositionFilter | undefined;
    review_state?: TReviewStateFilter | undefined;
  },
  organizationId: string,
) {
  if (!q.disposition && !q.review_state) {
    const kept = repo.keptCountOfFilter(q.filter);
    return kept && { total: repo.keptFilterTotalOf(organizationId, kept), cardFilter: true };
  }
  if (q.filter !== undefined) return undefined;
  const total = await keptDecisionTotalOf(db, q, organizationId);
  return total && { total, cardFilter: false };
}
