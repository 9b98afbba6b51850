import { createHash } from 'node:crypto';
import {
  certificateUrl,
  MAX_CALIBRATION_FILE_BYTES,
  MAX_CALIBRATION_FILE_NAME,
  type TCalibrationLabPdf,
  type TCalibrationSummary,
  type TCalibrationUpload,
  type TCalibrationUploadReply,
} from '@coldtrace/contract';
import { calibrationDueFrom } from '@coldtrace/domain';
import type { Database } from '../../db/client';
import { AppError, notFound, notFoundSaying } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { pageOf, type Listed, type PageQuery } from '../../kernel/paging';
import { actorOf, printedName, recordAudit } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import { displaySettingsOf, organizationNameOf } from '../reports';
import { renderCertificatePdf } from './certificate-pdf';
import * as repo from './repository';

/**
 * Calibration certificates (docs/decisions/reports.md, "Calibration
 * certificates"): uploaded as data (model, equipment, specifications,
 * calibrated devices), stored, and rendered as PDF on request for one of
 * their devices. Scoped to the session's organization.
 */

/** The lab PDF as the list and the upload's reply say it. */
function labPdfOf(file: repo.LabFileFacts): TCalibrationLabPdf {
  return {
    file_name: file.fileName,
    sha256: file.sha256,
    size: file.byteSize,
    uploaded_at: file.uploadedAt.toISOString(),
    uploaded_by_name: file.uploadedByName,
  };
}

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const DEFAULT_FILE_NAME = 'calibration-certificate.pdf';

/** The name to keep: its last path segment (a browser may send C:\fakepath\...), control characters out. */
export function labFileName(given: string | undefined): string {
  const base = (given ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]+/g, '').trim();
  return clean === '' ? DEFAULT_FILE_NAME : clean.slice(0, MAX_CALIBRATION_FILE_NAME);
}

/** The tag `deviceId` of the organization, or 404 naming device_id. */
async function tagOf(db: Database, organizationId: string, deviceId: number) {
  const [tag] = await repo.tagsOf(db, organizationId, [deviceId]);
  if (!tag) throw notFound(`Tag ${deviceId}`, 'device_id');
  return tag;
}

/** The tags the upload names, each once and each of the organization: 400 / 404 otherwise. */
async function knownTags(
  db: Database,
  organizationId: string,
  body: TCalibrationUpload,
  ids: readonly number[],
) {
  if (ids.length !== body.calibrated_devices.length) {
    throw new AppError('VALIDATION_ERROR', 'A device is listed twice', {
      calibrated_devices: 'must not list a device twice',
    });
  }
  const found = await repo.tagsOf(db, organizationId, [...ids]);
  const known = new Map(found.map((t) => [t.id, t]));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) {
    const message = `Tag${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found`;
    throw notFoundSaying(message, 'calibrated_devices');
  }
  return known;
}

/**
 * The due date of each device: as the certificate states it, else the
 * calibration (or upload) time plus the organization's validity. 400 for a due
 * date that is not after its calibration.
 */
function dueDates(body: TCalibrationUpload, uploadedAt: Date, validityMonths: number): Date[] {
  const errors: Record<string, string> = {};
  const dues = body.calibrated_devices.map((d, i) => {
    const calibratedAt = d.calibration_timestamp ? new Date(d.calibration_timestamp) : null;
    if (d.calibration_due === undefined) {
      return calibrationDueFrom(calibratedAt ?? uploadedAt, validityMonths);
    }
    const due = new Date(d.calibration_due);
    if (calibratedAt && due.getTime() <= calibratedAt.getTime()) {
      errors[`calibrated_devices.${i}.calibration_due`] = 'must be after calibration_timestamp';
    }
    return due;
  });
  if (Object.keys(errors).length > 0) {
    throw new AppError('VALIDATION_ERROR', Object.values(errors)[0]!, errors);
  }
  return dues;
}

async function upload(
  db: Database,
  organizationId: string,
  principal: Principal,
  body: TCalibrationUpload,
  requestId: string,
): Promise<TCalibrationUploadReply> {
  const ids = [...new Set(body.calibrated_devices.map((d) => d.device_id))];
  const known = await knownTags(db, organizationId, body, ids);
  const uploadedAt = new Date();
  const { validityMonths } = await repo.calibrationSettingsOf(db, organizationId);
  const dues = dueDates(body, uploadedAt, validityMonths);
  const certificate = await db.transaction(async (tx) => {
    const row = await repo.insertCertificate(
      tx,
      {
        organizationId,
        modelName: body.model_name,
        equipment: body.equipment ?? [],
        specifications: body.specifications ?? [],
        createdByUserId: principal.user.id,
        createdByName: printedName(principal.user),
        created: uploadedAt,
      },
      body.calibrated_devices.map((d, i) => ({
        organizationId,
        tagId: d.device_id,
        tagType: d.tag_type ?? known.get(d.device_id)!.tagType,
        calibrationTimestamp: d.calibration_timestamp ? new Date(d.calibration_timestamp) : null,
        calibrationDue: dues[i]!,
      })),
    );
    await recordAudit(tx, { organizationId, actor: actorOf(principal), requestId }, [
      {
        action: 'calibration.upload',
        entityType: 'calibration_certificate',
        entityId: row.id,
        newValue: {
          model_name: body.model_name,
          device_ids: ids,
          calibration_due: dues.map((d) => d.toISOString()),
        },
      },
    ]);
    return row;
  });
  const devices = ids.map((id) => ({
    device_id: id,
    pdf_url: certificateUrl(certificate.id, id),
  }));
  return { calibration_pdf_id: certificate.id, pdf_url: devices[0]!.pdf_url, devices };
}

/**
 * Attaches the calibration lab's PDF to the organization's certificate: a
 * new row (the older ones are kept), audited with its SHA-256.
 */
async function attachFile(
  db: Database,
  organizationId: string,
  principal: Principal,
  certificateId: string,
  givenName: string | undefined,
  content: Buffer,
  requestId: string,
): Promise<{ calibration_pdf_id: string; lab_pdf: TCalibrationLabPdf }> {
  if (content.length > MAX_CALIBRATION_FILE_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The PDF is larger than the limit of ${MAX_CALIBRATION_FILE_BYTES} bytes`,
      { body: `Larger than ${MAX_CALIBRATION_FILE_BYTES} bytes` },
    );
  }
  if (content.length < PDF_MAGIC.length || !content.subarray(0, 5).equals(PDF_MAGIC)) {
    const message = 'Not a PDF file: the body must start with %PDF-';
    throw new AppError('VALIDATION_ERROR', message, { body: message });
  }
  if (
    !isUuid(certificateId) ||
    !(await repo.certificateExists(db, organizationId, certificateId))
  ) {
    throw notFound(`Certificate '${certificateId}'`, 'calibration_pdf_id');
  }
  const sha256 = createHash('sha256').update(content).digest('hex');
  const fileName = labFileName(givenName);
  const file = await db.transaction(async (tx) => {
    const previous = await repo.latestFile(tx, organizationId, certificateId, false);
    const row = await repo.insertFile(tx, {
      organizationId,
      certificateId,
      content,
      sha256,
      byteSize: content.length,
      fileName,
      uploadedByUserId: principal.user.id,
      uploadedByName: printedName(principal.user),
    });
    await recordAudit(tx, { organizationId, actor: actorOf(principal), requestId }, [
      {
        action: 'calibration.file.upload',
        entityType: 'calibration_certificate',
        entityId: certificateId,
        oldValue: previous
          ? { file_name: previous.fileName, sha256: previous.sha256, size: previous.byteSize }
          : null,
        newValue: { file_name: fileName, sha256, size: content.length },
      },
    ]);
    return row;
  });
  return { calibration_pdf_id: certificateId, lab_pdf: labPdfOf(file) };
}

/** One page of the certificates (of one tag, or of every tag), with the total of all. */
async function list(
  db: Database,
  organizationId: string,
  deviceId: number | undefined,
  paging: PageQuery,
): Promise<Listed<TCalibrationSummary>> {
  if (deviceId !== undefined) await tagOf(db, organizationId, deviceId);
  const { total, rows } = await repo.certificatesOfTag(
    db,
    organizationId,
    deviceId,
    pageOf(paging),
  );
  const files = await repo.latestFilesOf(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  const items = rows.map((r) => ({
    calibration_pdf_id: r.id,
    device_id: r.tagId,
    serial_number: r.serialNumber,
    tag_type: (r.tagType as TCalibrationSummary['tag_type']) ?? null,
    model_name: r.modelName,
    calibration_timestamp: r.calibrationTimestamp?.toISOString() ?? null,
    calibration_due: r.calibrationDue.toISOString(),
    created: r.created.toISOString(),
    created_by_name: r.createdByName,
    pdf_url: certificateUrl(r.id, r.tagId),
    lab_pdf: ((file) => (file ? labPdfOf(file) : null))(files.get(r.id)),
  }));
  return { total, items };
}

async function pdf(
  db: Database,
  organizationId: string,
  principal: Principal,
  certificateId: string,
  deviceId: number,
) {
  const certificate = isUuid(certificateId)
    ? await repo.findCertificate(db, organizationId, certificateId)
    : undefined;
  if (!certificate) throw notFound(`Certificate '${certificateId}'`, 'calibration_pdf_id');
  const device = certificate.devices.find((d) => d.tagId === deviceId);
  if (!device) throw notFound(`Tag ${deviceId} on this certificate`, 'device_id');
  // The lab's own PDF, when one is attached, is the certificate (the newest one).
  const lab = await repo.latestFile(db, organizationId, certificateId, true);
  if (lab?.content) return { content: lab.content, fileName: lab.fileName };
  const settings = await displaySettingsOf(db, principal.user.id);
  const content = await renderCertificatePdf({
    organizationName: await organizationNameOf(db, organizationId),
    certificate,
    device,
    devices: certificate.devices,
    unit: settings.degreesUnit,
    timeZone: settings.timeZone,
    generatedAt: new Date(),
  });
  const serial = (device.serialNumber ?? String(deviceId)).replace(/[^A-Za-z0-9._-]+/g, '_');
  return { content, fileName: `calibration-${serial}.pdf` };
}

export function createCalibrationService(db: Database) {
  return {
    upload: (
      organizationId: string,
      principal: Principal,
      body: TCalibrationUpload,
      requestId: string,
    ) => upload(db, organizationId, principal, body, requestId),
    attachFile: (
      organizationId: string,
      principal: Principal,
      certificateId: string,
      givenName: string | undefined,
      content: Buffer,
      requestId: string,
    ) => attachFile(db, organizationId, principal, certificateId, givenName, content, requestId),
    list: (organizationId: string, deviceId: number | undefined, paging: PageQuery) =>
      list(db, organizationId, deviceId, paging),
    pdf: (organizationId: string, principal: Principal, certificateId: string, deviceId: number) =>
      pdf(db, organizationId, principal, certificateId, deviceId),
  };
}
