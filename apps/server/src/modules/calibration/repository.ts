import {
  DEFAULT_CALIBRATION_DUE_SOON_DAYS,
  DEFAULT_CALIBRATION_VALIDITY_MONTHS,
} from '@coldtrace/domain';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Page } from '../../kernel/paging';
import {
  calibrationCertificateDevices,
  calibrationCertificateFiles,
  calibrationCertificates,
} from '../../db/schema-reports';
import { organizationSettings, records, tags } from '../../db/schema-shipments';

/** Calibration certificates and their devices; every query scoped to the organization. */

export async function tagsOf(db: Db, organizationId: string, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: tags.id, serialNumber: tags.serialNumber, tagType: tags.tagType })
    .from(tags)
    .where(and(eq(tags.organizationId, organizationId), inArray(tags.id, [...ids])));
}

export async function insertCertificate(
  db: Db,
  certificate: typeof calibrationCertificates.$inferInsert,
  devices: Omit<typeof calibrationCertificateDevices.$inferInsert, 'certificateId'>[],
) {
  const [row] = await db.insert(calibrationCertificates).values(certificate).returning();
  await db
    .insert(calibrationCertificateDevices)
    .values(devices.map((d) => ({ ...d, certificateId: row!.id })));
  return row!;
}

/**
 * Certificates listing the tag (every tag of the organization when `tagId` is
 * undefined), by tag, then latest calibration first.
 */
/**
 * One page of the certificates of the organization (of one tag when told),
 * by tag serial then each tag's latest calibration first, with the total of
 * all of them (`count(*) OVER ()`, as the other paged lists).
 */
export async function certificatesOfTag(
  db: Db,
  organizationId: string,
  tagId: number | undefined,
  /** A page of them; every one when not told (a tag's history, for its state at a start). */
  page?: Page,
) {
  const ofTheList = and(
    eq(calibrationCertificateDevices.organizationId, organizationId),
    tagId === undefined ? undefined : eq(calibrationCertificateDevices.tagId, tagId),
  );
  const query = db
    .select({
      id: calibrationCertificates.id,
      modelName: calibrationCertificates.modelName,
      created: calibrationCertificates.created,
      createdByName: calibrationCertificates.createdByName,
      tagId: calibrationCertificateDevices.tagId,
      serialNumber: tags.serialNumber,
      tagType: calibrationCertificateDevices.tagType,
      calibrationTimestamp: calibrationCertificateDevices.calibrationTimestamp,
      calibrationDue: calibrationCertificateDevices.calibrationDue,
      total: sql<number>`count(*) OVER ()`.mapWith(Number),
    })
    .from(calibrationCertificateDevices)
    .innerJoin(
      calibrationCertificates,
      eq(calibrationCertificates.id, calibrationCertificateDevices.certificateId),
    )
    .leftJoin(tags, eq(tags.id, calibrationCertificateDevices.tagId))
    .where(ofTheList)
    .orderBy(
      tags.serialNumber,
      calibrationCertificateDevices.tagId,
      desc(
        sql`coalesce(${calibrationCertificateDevices.calibrationTimestamp}, ${calibrationCertificates.created})`,
      ),
      desc(calibrationCertificates.created),
      calibrationCertificates.id,
    )
    .$dynamic();
  const rows = await (page ? query.limit(page.size).offset(page.offset) : query);
  if (rows.length > 0 || !page || page.offset === 0) return { total: rows[0]?.total ?? 0, rows };
  // Past the last page: the total still says how many there are.
  const [counted] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(calibrationCertificateDevices)
    .where(ofTheList);
  return { total: counted?.n ?? 0, rows };
}

export async function findCertificate(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(calibrationCertificates)
    .where(
      and(
        eq(calibrationCertificates.organizationId, organizationId),
        eq(calibrationCertificates.id, id),
      ),
    );
  if (!row) return undefined;
  const devices = await db
    .select({
      tagId: calibrationCertificateDevices.tagId,
      tagType: calibrationCertificateDevices.tagType,
      calibrationTimestamp: calibrationCertificateDevices.calibrationTimestamp,
      calibrationDue: calibrationCertificateDevices.calibrationDue,
      serialNumber: tags.serialNumber,
    })
    .from(calibrationCertificateDevices)
    .leftJoin(tags, eq(tags.id, calibrationCertificateDevices.tagId))
    .where(eq(calibrationCertificateDevices.certificateId, id))
    .orderBy(calibrationCertificateDevices.tagId);
  return { ...row, devices };
}

/** Whether the certificate `id` is one of the organization's. */
export async function certificateExists(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select({ id: calibrationCertificates.id })
    .from(calibrationCertificates)
    .where(
      and(
        eq(calibrationCertificates.organizationId, organizationId),
        eq(calibrationCertificates.id, id),
      ),
    );
  return row !== undefined;
}

/** What is said of a lab PDF without its bytes. */
export interface LabFileFacts {
  certificateId: string;
  fileName: string;
  sha256: string;
  byteSize: number;
  uploadedAt: Date;
  uploadedByName: string;
}
const fileFacts = {
  certificateId: calibrationCertificateFiles.certificateId,
  fileName: calibrationCertificateFiles.fileName,
  sha256: calibrationCertificateFiles.sha256,
  byteSize: calibrationCertificateFiles.byteSize,
  uploadedAt: calibrationCertificateFiles.uploadedAt,
  uploadedByName: calibrationCertificateFiles.uploadedByName,
};

/** Appends a lab PDF (a replacement is a new row: the table is append-only). */
export async function insertFile(db: Db, file: typeof calibrationCertificateFiles.$inferInsert) {
  const [row] = await db.insert(calibrationCertificateFiles).values(file).returning(fileFacts);
  return row!;
}

/** The certificate's newest lab PDF (highest id), with its bytes when `withContent`. */
export async function latestFile(
  db: Db,
  organizationId: string,
  certificateId: string,
  withContent: boolean,
) {
  const [row] = await db
    .select({
      ...fileFacts,
      content: withContent ? calibrationCertificateFiles.content : sql<null>`NULL`,
    })
    .from(calibrationCertificateFiles)
    .where(
      and(
        eq(calibrationCertificateFiles.organizationId, organizationId),
        eq(calibrationCertificateFiles.certificateId, certificateId),
      ),
    )
    .orderBy(desc(calibrationCertificateFiles.id))
    .limit(1);
  return row;
}

/** The newest lab PDF of each of the certificates that has one (no bytes), by certificate id. */
export async function latestFilesOf(
  db: Db,
  organizationId: string,
  certificateIds: readonly string[],
) {
  if (certificateIds.length === 0) return new Map<string, LabFileFacts>();
  const rows = await db
    .selectDistinctOn([calibrationCertificateFiles.certificateId], fileFacts)
    .from(calibrationCertificateFiles)
    .where(
      and(
        eq(calibrationCertificateFiles.organizationId, organizationId),
        inArray(calibrationCertificateFiles.certificateId, [...new Set(certificateIds)]),
      ),
    )
    .orderBy(calibrationCertificateFiles.certificateId, desc(calibrationCertificateFiles.id));
  return new Map<string, LabFileFacts>(rows.map((r) => [r.certificateId, r]));
}

/** The organization's calibration settings (the column defaults until the settings were saved). */
export async function calibrationSettingsOf(db: Db, organizationId: string) {
  const [row] = await db
    .select({
      validityMonths: organizationSettings.calibrationValidityMonths,
      dueSoonDays: organizationSettings.calibrationDueSoonDays,
      expiredStart: organizationSettings.expiredCalibrationStart,
    })
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId));
  return (
    row ?? {
      validityMonths: DEFAULT_CALIBRATION_VALIDITY_MONTHS,
      dueSoonDays: DEFAULT_CALIBRATION_DUE_SOON_DAYS,
      expiredStart: 'WARN',
    }
  );
}

/** Keeps the warning of a start on an expired tag on the record (set once, never cleared). */
export async function setCalibrationWarning(
  db: Db,
  organizationId: string,
  recordId: number,
  warning: string,
) {
  await db
    .update(records)
    .set({ calibrationWarning: warning })
    .where(
      and(
        eq(records.organizationId, organizationId),
        eq(records.id, recordId),
        sql`${records.calibrationWarning} IS NULL`,
      ),
    );
}
