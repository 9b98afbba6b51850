import { randomUUID } from 'node:crypto';
import type { SeriesValue } from '@coldtrace/domain';
import type { Database } from '../src/db/client';
import {
  alarms,
  locationSamples,
  recordActions,
  records,
  scans,
  tags,
  travelLocations,
  type AlarmRow,
  type RecordActionRow,
  type RecordRow,
  type ScanRow,
  type TagRow,
  type TravelLocationRow,
} from '../src/db/schema-shipments';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { recordAggregates } from '../src/db/schema-aggregates';
import { recordDispositions, type RecordDispositionRow } from '../src/db/schema-review';
import {
  planMerge,
  readChunks,
  SERIES_CHUNK_SIZE,
  type MergeResult,
} from '../src/kernel/series-store';
import { uid, type TestOrg } from './helpers';

/**
 * Factories of shipment data for the read-side tests: rows are inserted
 * directly (no ingest), with unique serial numbers, upload keys and start
 * times so files and tests never collide. Every option is a column of the
 * row (Drizzle's insert shape) with a sensible default.
 *
 *   const f = recordFactories(t.db);
 *   const tag = await f.tag(org);
 *   const rec = await f.record(org, tag, { primaryReference: 'PO-1', highThreshold: 8 });
 *   await f.series(rec, 0, [4, 5, null, 9]);
 */

type Org = Pick<TestOrg, 'id'>;

let counter = 0;
const next = () => ++counter;

/** 2025-01-01T00:00:00Z: default start of the factories' records, one hour apart. */
export const FACTORY_EPOCH_SECONDS = 1_735_689_600;

export function recordFactories(db: Database) {
  return {
    async travelLocation(
      org: Org,
      values: Partial<typeof travelLocations.$inferInsert> = {},
    ): Promise<TravelLocationRow> {
      const [row] = await db
        .insert(travelLocations)
        .values({
          organizationId: org.id,
          name: `Location ${uid()}`,
          address: '1 Main Street',
          latitude: 52.52,
          longitude: 13.405,
          ...values,
        })
        .returning();
      return row!;
    },

    async tag(org: Org, values: Partial<typeof tags.$inferInsert> = {}): Promise<TagRow> {
      const [row] = await db
        .insert(tags)
        .values({
          organizationId: org.id,
          serialNumber: `SN${uid().toUpperCase()}`,
          tagType: 'XT1_NFC_MU',
          ...values,
        })
        .returning();
      return row!;
    },

    /** A record of `tag` (a new tag when omitted). */
    async record(
      org: Org,
      tag?: TagRow,
      values: Partial<typeof records.$inferInsert> = {},
    ): Promise<RecordRow> {
      const owner = tag ?? (await this.tag(org));
      const [row] = await db
        .insert(records)
        .values({
          organizationId: org.id,
          tagId: owner.id,
          tagSerialNumber: owner.serialNumber,
          tagType: owner.tagType,
          measurementInterval: 60,
          startTimeSeconds: FACTORY_EPOCH_SECONDS + next() * 3600,
          ...values,
        })
        .returning();
      return row!;
    },

    /** Merges `temps` at `offset` into the record's series (the series store's own merge). */
    async series(record: RecordRow, offset: number, temps: readonly SeriesValue[]) {
      return mergeIntoSeries(db, record.organizationId, record.id, offset, temps);
    },

    async scan(
      record: RecordRow,
      values: Partial<typeof scans.$inferInsert> = {},
    ): Promise<ScanRow> {
      const [row] = await db
        .insert(scans)
        .values({
          organizationId: record.organizationId,
          recordId: record.id,
          tagId: record.tagId,
          tagSerialNumber: record.tagSerialNumber,
          timestamp: new Date((FACTORY_EPOCH_SECONDS + next() * 60) * 1000),
          uploadKey: `scan-${uid()}`,
          ...values,
        })
        .returning();
      return row!;
    },

    async action(
      record: RecordRow,
      values: Partial<typeof recordActions.$inferInsert> = {},
    ): Promise<RecordActionRow> {
      const [row] = await db
        .insert(recordActions)
        .values({
          organizationId: record.organizationId,
          recordId: record.id,
          tagId: record.tagId,
          tagSerialNumber: record.tagSerialNumber,
          actionType: 'start',
          timestamp: new Date((FACTORY_EPOCH_SECONDS + next() * 60) * 1000),
          uploadKey: `action-${uid()}`,
          ...values,
        })
        .returning();
      return row!;
    },

    async location(record: RecordRow, values: Partial<typeof locationSamples.$inferInsert> = {}) {
      const [row] = await db
        .insert(locationSamples)
        .values({
          organizationId: record.organizationId,
          recordId: record.id,
          tagId: record.tagId,
          latitude: 50 + next() / 1000,
          longitude: 8,
          timestamp: new Date((FACTORY_EPOCH_SECONDS + next() * 60) * 1000),
          ...values,
        })
        .returning();
      return row!;
    },

    async alarm(
      record: RecordRow,
      values: Partial<typeof alarms.$inferInsert> = {},
    ): Promise<AlarmRow> {
      const first = values.firstPointIdx ?? next();
      const [row] = await db
        .insert(alarms)
        .values({
          organizationId: record.organizationId,
          recordId: record.id,
          tagId: record.tagId,
          tagSerialNumber: record.tagSerialNumber,
          kind: 'excursion',
          aboveOrBelow: 'ABOVE',
          firstPointIdx: first,
          lastPointIdx: first + 2,
          degreeMinutes: 12,
          duration: 180,
          highThreshold: record.highThreshold,
          lowThreshold: record.lowThreshold,
          highestRecordedTemperature: 11,
          lowestRecordedTemperature: 9,
          startTime: new Date((FACTORY_EPOCH_SECONDS + first * 60) * 1000),
          endTime: new Date((FACTORY_EPOCH_SECONDS + (first + 2) * 60) * 1000),
          ...values,
        })
        .returning();
      return row!;
    },

    /** A signed release decision on the record (in `organizationId`, the record's own by default). */
    async decision(
      record: { organizationId: string; id: number },
      values: Partial<typeof recordDispositions.$inferInsert> = {},
    ): Promise<RecordDispositionRow> {
      const [row] = await db
        .insert(recordDispositions)
        .values({
          organizationId: record.organizationId,
          recordId: record.id,
          decision: 'RELEASED',
          comment: 'ok',
          meaning: 'APPROVED',
          userId: randomUUID(),
          printedName: 'Q. A.',
          signedAt: new Date(),
          clientType: 'WEB',
          ...values,
        })
        .returning();
      return row!;
    },
  };
}

export type RecordFactories = ReturnType<typeof recordFactories>;

/**
 * (Test helper: the server merges through an upload's unit of work.) Merges `temps` starting at `offset` into the stored series (merge by index):
 * gaps are filled, an existing point keeps its first value, a conflicting one
 * is reported. Only the touched chunks are read and written (one statement
 * each way); run it inside the transaction that holds the record's row lock
 * so concurrent uploads serialize.
 */
async function mergeIntoSeries(
  db: Db,
  organizationId: string,
  recordId: number,
  offset: number,
  temps: readonly SeriesValue[],
): Promise<MergeResult> {
  if (temps.length === 0) return { added: 0, conflicts: [], chunks: new Map() };
  const firstChunk = Math.floor(offset / SERIES_CHUNK_SIZE);
  const lastChunk = Math.floor((offset + temps.length - 1) / SERIES_CHUNK_SIZE);
  const stored = await readChunks(db, recordId, { fromChunk: firstChunk, toChunk: lastChunk });
  const { write, ...merged } = planMerge(organizationId, recordId, stored, offset, temps);
  if (write) await db.execute(write);
  // Written past the upload's unit of work: the running aggregates no longer hold (the next recompute rebuilds them).
  if (write) await db.delete(recordAggregates).where(eq(recordAggregates.recordId, recordId));
  return merged;
}
