import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { jsonRow } from '../../db/json-rows';
import { calibrationCertificateDevices, calibrationCertificates } from '../../db/schema-reports';
import { records } from '../../db/schema-shipments';
import { calibrationAt } from './calibration-views';
import { latestDisposition } from './disposition';
import { partyOf, receiver, scannedBy, shipper } from './fields';
import type { RecordView } from './presenter';
import { alarmAwaitsAcknowledgementOfRow, reviewStateOf } from './review-state';

/**
 * The record view the read side selects (the record calls, the lists): a record with its
 * parties and last scanning user, its scan ids, calibration, release decision
 * and review state, every table scoped to the record's organization; and its
 * JSON-array form the lists select.
 */

/** A record's parties (travel locations of its own organization only) and last scanning user. */
export const shipperOfRecord = partyOf(shipper, records.shipperLocationId, records.organizationId);
export const receiverOfRecord = partyOf(
  receiver,
  records.receiverLocationId,
  records.organizationId,
);
export const scannerOfRecord = eq(scannedBy.id, records.lastScannedUserId);

/**
 * The tag's latest calibration certificate in the record's organization (latest
 * calibration time, else upload time; then latest upload), as JSON, or null.
 */
const latestCalibrationOfRecord = sql<{
  certificate_id: string;
  tag_type: string | null;
  calibration_timestamp: string | null;
  calibration_due: string;
} | null>`(SELECT json_build_object('certificate_id', c.id::text, 'tag_type', d.tag_type, 'calibration_timestamp', d.calibration_timestamp, 'calibration_due', d.calibration_due)
  FROM ${calibrationCertificateDevices} d
  JOIN ${calibrationCertificates} c ON c.id = d.certificate_id AND c.organization_id = d.organization_id
  WHERE d.organization_id = ${records.organizationId} AND d.tag_id = ${records.tagId}
  ORDER BY coalesce(d.calibration_timestamp, c.created) DESC, c.created DESC, c.id DESC
  LIMIT 1)`;

/** When a record's shipment started (now while it has not). */
const recordStart = sql`coalesce(to_timestamp(${records.startTimeSeconds}), now())`;

/** What a record view selects: the record, its parties and last scanning user, its scan ids and calibration. */
const recordViewSelection = {
  record: records,
  shipperId: shipper.id,
  shipperName: shipper.name,
  receiverId: receiver.id,
  receiverName: receiver.name,
  lastScannedUser: scannedBy.username,
  scanIds: sql<
    string[]
  >`ARRAY(SELECT s.id::text FROM scans s WHERE s.record_id = ${records.id} AND s.organization_id = ${records.organizationId} ORDER BY s."timestamp", s.id)`,
  calibration: latestCalibrationOfRecord,
  calibrationAtStart: calibrationAt(records.organizationId, records.tagId, recordStart),
  disposition: latestDisposition,
  alarmAwaitsAcknowledgement: alarmAwaitsAcknowledgementOfRow,
};

/** Records joined with their parties and last scanning user, their scan ids and calibration. */
export function selectRecordViews(db: Db) {
  return db
    .select(recordViewSelection)
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .$dynamic();
}

export type RecordViewRow = Awaited<
  ReturnType<ReturnType<typeof selectRecordViews>['execute']>
>[number];

/**
 * The record view as one JSON array a row (db/json-rows.ts): the lists select
 * it as `row` (list-performance.md, "JSON-array rows").
 */
export const recordViewRow = jsonRow<RecordViewRow>(recordViewSelection, ((
  db: Db,
  fields: SelectedFields,
) =>
  db
    .select(fields)
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)) as never);

/** The same joins for counting (the filter may name a party or the scanning user). */
export function countRecords(db: Db) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .$dynamic();
}

export function toRecordView(row: RecordViewRow): RecordView {
  return {
    record: row.record,
    shipper: { id: row.shipperId, name: row.shipperName },
    receiver: { id: row.receiverId, name: row.receiverName },
    lastScannedUser: row.lastScannedUser,
    scanIds: row.scanIds ?? [],
    calibration: row.calibration
      ? {
          certificateId: row.calibration.certificate_id,
          tagType: row.calibration.tag_type,
          calibrationTimestamp:
            row.calibration.calibration_timestamp === null
              ? null
              : new Date(row.calibration.calibration_timestamp),
          calibrationDue: new Date(row.calibration.calibration_due),
        }
      : null,
    calibrationAt: row.calibrationAtStart,
    disposition: row.disposition,
    reviewState: reviewStateOf(row.alarmAwaitsAcknowledgement, row.disposition?.decision),
    alarmAwaitsAcknowledgement: row.alarmAwaitsAcknowledgement === true,
  };
}

/** The organization's record `recordId` as a view. */
export async function findRecord(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<RecordView | undefined> {
  const [row] = await selectRecordViews(db).where(
    and(eq(records.organizationId, organizationId), eq(records.id, recordId)),
  );
  return row ? toRecordView(row) : undefined;
}

/**
 * The latest record of a tag named by serial number (ignoring case) or by tag
 * id; a serial-number match wins over a tag-id match.
 */
export async function findLatestRecordOfTag(
  db: Db,
  organizationId: string,
  tagIdOrSerialNumber: string,
): Promise<RecordView | undefined> {
  const serialMatch = sql`lower(${records.tagSerialNumber}) = lower(${tagIdOrSerialNumber})`;
  const tagId = /^\d{1,15}$/.test(tagIdOrSerialNumber) ? Number(tagIdOrSerialNumber) : null;
  const match = tagId === null ? serialMatch : or(serialMatch, eq(records.tagId, tagId));
  const [row] = await selectRecordViews(db)
    .where(and(eq(records.organizationId, organizationId), match))
    .orderBy(sql`(${serialMatch}) DESC`, desc(records.id))
    .limit(1);
  return row ? toRecordView(row) : undefined;
}
