import {
  type TRecordLocations,
  type TTripTemperatures,
  type TTemperaturePoint,
} from '@coldtrace/contract';
import { effectiveInterval, pointTime } from '@coldtrace/domain';
import type { Database } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import type { AppError } from '../../kernel/errors';
import { notFound, notFoundSaying } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import { pageOf, type Listed, type PageQuery } from '../../kernel/paging';
import { readSeries } from '../../kernel/series-store';
import { DEFAULT_ORDER_BY, RECORD_FIELDS } from './fields';
import { compileOrderBy } from './filter-sql';
import {
  presentAction,
  presentAlarm,
  presentRecord,
  presentScan,
  type RecordView,
  secondsIso,
  iso,
} from './presenter';
import { stabilityBudgetOf } from '../budget';
import * as repo from './repository';
import { withScanTemperatures } from './scan-views';

/**
 * The record calls of the read side (docs/decisions/record-queries.md; the
 * lists are the lists module's): every function works in the organization it is given; ids of another
 * organization (or ids that cannot name a record) answer 404 naming the
 * parameter, never data.
 */

export type { Listed } from '../../kernel/paging';

function recordsNotFound(field: string, missing: readonly string[]): AppError {
  const names = missing.map((id) => `'${id}'`).join(', ');
  return notFound(missing.length === 1 ? `Record ${names}` : `Records ${names}`, field);
}

/** The single-record reply: the record with its stability budget across the shipment's legs. */
async function withBudget(db: Database, view: RecordView) {
  return { ...presentRecord(view), stability_budget: await stabilityBudgetOf(db, view.record) };
}

/** The organization's records named by `texts`, in the order given; 404 naming `field` otherwise. */
async function recordsOf(
  db: Database,
  organizationId: string,
  texts: readonly string[],
  field: string,
): Promise<RecordRow[]> {
  const ids = texts.map(parseRowId);
  const malformed = texts.filter((_, i) => ids[i] === undefined);
  if (malformed.length > 0) throw recordsNotFound(field, malformed);
  const rows = await repo.recordsByIds(db, organizationId, ids as number[]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = texts.filter((_, i) => !byId.has(ids[i]!));
  if (missing.length > 0) throw recordsNotFound(field, missing);
  return (ids as number[]).map((id) => byId.get(id)!);
}

export function createRecordsService(db: Database) {
  return {
    async record(organizationId: string, recordIdText: string) {
      const id = parseRowId(recordIdText);
      const view = id === undefined ? undefined : await repo.findRecord(db, organizationId, id);
      if (!view) throw recordsNotFound('record_id', [recordIdText]);
      return withBudget(db, view);
    },

    async recordIds(organizationId: string) {
      const rows = await repo.listRecordReferences(db, organizationId);
      return rows.map((r) => ({
        record_id: String(r.id),
        tag_id: String(r.tagId),
        tag_serial_number: r.tagSerialNumber,
      }));
    },

    async latestRecord(organizationId: string, tagIdOrSerialNumber: string) {
      const view = await repo.findLatestRecordOfTag(db, organizationId, tagIdOrSerialNumber);
      if (!view) {
        const message = `No record of a tag '${tagIdOrSerialNumber}'`;
        throw notFoundSaying(message, 'tag_id_or_serial_number');
      }
      return withBudget(db, view);
    },

    async actions(organizationId: string, recordIds: readonly string[]) {
      const rows = await recordsOf(db, organizationId, recordIds, 'record_ids');
      const views = await repo.listActions(
        db,
        organizationId,
        rows.map((r) => r.id),
      );
      return views.map(presentAction);
    },

    async scansOfRecords(organizationId: string, recordIds: readonly string[], latest: boolean) {
      const rows = await recordsOf(db, organizationId, recordIds, 'record_ids');
      const views = await repo.listScansOfRecords(
        db,
        organizationId,
        rows.map((r) => r.id),
        latest,
      );
      return (await withScanTemperatures(db, views)).map(presentScan);
    },

    alarms: (organizationId: string, q: AlarmsQuery) => alarmsOf(db, organizationId, q),

    locations: (organizationId: string, q: LocationsQuery) => locationsOf(db, organizationId, q),

    async temperatures(
      organizationId: string,
      recordIds: readonly string[],
    ): Promise<TTripTemperatures[]> {
      const rows = await recordsOf(db, organizationId, recordIds, 'record_ids');
      const out: TTripTemperatures[] = [];
      for (const r of rows) out.push(await tripTemperatures(db, r));
      return out;
    },
  };
}

interface AlarmsQuery {
  record_id?: string | undefined;
  include_acknowledged?: boolean | undefined;
  include_dismissed?: boolean | undefined;
  include_closed?: boolean | undefined;
}

/** A record's alarms, or the organization's, with the states asked for. */
async function alarmsOf(db: Database, organizationId: string, q: AlarmsQuery) {
  let recordId: number | undefined;
  if (q.record_id !== undefined) {
    const [row] = await recordsOf(db, organizationId, [q.record_id], 'record_id');
    recordId = row!.id;
  }
  const rows = await repo.listAlarms(db, organizationId, {
    recordId,
    includeAcknowledged: q.include_acknowledged ?? false,
    includeDismissed: q.include_dismissed ?? false,
    includeClosed: q.include_closed ?? true,
  });
  return rows.map(presentAlarm);
}

type LocationsQuery = PageQuery & { record_ids: string[]; order_by?: string[] | undefined };

/** The records' location samples, a page of records in the order asked for. */
async function locationsOf(
  db: Database,
  organizationId: string,
  q: LocationsQuery,
): Promise<Listed<TRecordLocations>> {
  // Check the order first: a bad order_by is a 400 whatever the ids.
  const orderBy =
    q.order_by && q.order_by.length > 0
      ? compileOrderBy(q.order_by, RECORD_FIELDS, DEFAULT_ORDER_BY)
      : null;
  const rows = await recordsOf(db, organizationId, q.record_ids, 'record_ids');
  let ids = rows.map((r) => r.id);
  if (orderBy) ids = await repo.orderRecordIds(db, organizationId, ids, orderBy);
  return locationsPage(db, organizationId, ids, pageOf(q));
}

/** One page of the records' location samples, `ids` in their order. */
async function locationsPage(
  db: Database,
  organizationId: string,
  ids: number[],
  page: { number: number; size: number },
): Promise<Listed<TRecordLocations>> {
  const pageIds = ids.slice((page.number - 1) * page.size, page.number * page.size);
  const samples = await repo.listLocations(db, organizationId, pageIds);
  const byRecord = new Map<number, TRecordLocations['locations']>(pageIds.map((id) => [id, []]));
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
}

/** A record's points with their times (when it has started) and its thresholds and trip. */
async function tripTemperatures(db: Database, r: RecordRow): Promise<TTripTemperatures> {
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
  return {
    record_id: String(r.id),
    high_threshold: r.highThreshold,
    low_threshold: r.lowThreshold,
    cumulative_high_threshold: r.cumulativeHighThreshold,
    cumulative_low_threshold: r.cumulativeLowThreshold,
    trip_begin_time: iso(r.tripBeginTime),
    trip_end_time: iso(r.tripEndTime),
    start_time: r.startTimeSeconds === null ? null : secondsIso(r.startTimeSeconds),
    temperatures,
  };
}

export type RecordsService = ReturnType<typeof createRecordsService>;
