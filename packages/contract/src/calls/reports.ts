import { z } from 'zod';
import { defineCall, DOWNLOAD_MEDIA_TYPES, fileBody, fileReply, UPLOAD_MEDIA_TYPES } from '../call';
import {
  ZCalibrationCertificate,
  ZCalibrationCertificateLink,
  ZCalibrationEquipment,
  ZCalibrationSpecification,
} from '../entities/calibration';
import { ZFileReference } from '../entities/records';
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE, zQueryInt } from './devices-query';
import { ZDegreesUnit, ZTagType } from '../enums';
import type { TPermissionName } from '../permissions';

/**
 * Reports (spec section 7, "POST / GET reports/pdf/, csv/, xlsx/"),
 * calibration certificates ("POST calibration/", "GET calibration/pdf/") and
 * data display rules ("GET, POST, PATCH /api/data-display-rules/").
 * Decisions: docs/decisions/reports.md, docs/decisions/data-display-rules.md.
 */

const XT1 = '/api/devices/xt1/';

// ---------------------------------------------------------------- reports

/**
 * `dossier` (issue 37 item 2, beyond the spec): one zip of the record's whole
 * evidence with a manifest signed by the organization's key, which
 * `tools/verify-dossier` checks offline (docs/dossier.md).
 */
export const REPORT_KINDS = ['pdf', 'csv', 'xlsx', 'dossier'] as const;
export const ZReportKind = z.enum(REPORT_KINDS);
export type TReportKind = z.infer<typeof ZReportKind>;

/**
 * Who may generate and download reports: every built-in role (a Viewer, an
 * auditor for instance, reads what was signed). sysReportCreate alone also
 * suffices, for custom roles.
 */
export const REPORT_PERMISSIONS = [
  'sysReportView',
  'sysReportCreate',
] as const satisfies readonly TPermissionName[];

/** Seconds the POST waits for the job before answering (the GET answers 409 until the file is ready). */
export const REPORT_WAIT_SECONDS = 10;

/** "Report generation (record id)". */
export const ZReportRequest = z
  .object({ record_id: z.string().trim().min(1, 'must name a record').max(40) })
  .meta({ id: 'ReportRequest' });
export type TReportRequest = z.infer<typeof ZReportRequest>;

/** "Report fetch (report id)". */
export const ZReportFetchQuery = z.object({
  report_id: z.string().trim().min(1, 'must name a report').max(64),
});

const REPORT_LABEL: Record<TReportKind, string> = {
  pdf: 'PDF',
  csv: 'CSV',
  xlsx: 'XLSX',
  dossier: 'Dossier',
};

function reportCallsOf(kind: TReportKind) {
  const label = REPORT_LABEL[kind];
  const generate = defineCall({
    operationId: `xt1Report${label[0]}${label.slice(1).toLowerCase()}Create`,
    method: 'POST',
    path: `${XT1}reports/${kind}/`,
    summary:
      kind === 'dossier'
        ? 'Generate the signed evidence dossier (zip) of a record'
        : `Generate the ${label} report of a record`,
    description:
      "Queues the report job (in the user's unit and time zone) and waits up to " +
      `${REPORT_WAIT_SECONDS} s for it. localUrl is the GET download call with its report_id, ` +
      "fileName the name to save; url is the same address. Another organization's record answers 404.",
    tag: 'reports',
    auth: 'session',
    scope: 'organization',
    apiKey: 'read',
    permission: REPORT_PERMISSIONS,
    body: ZReportRequest,
    reply: ZFileReference,
  });
  const download = defineCall({
    operationId: `xt1Report${label[0]}${label.slice(1).toLowerCase()}Get`,
    method: 'GET',
    path: `${XT1}reports/${kind}/`,
    summary:
      kind === 'dossier'
        ? 'Download a generated evidence dossier'
        : `Download a generated ${label} report`,
    description:
      'Answers the file (Content-Disposition attachment). 409 CONFLICT while the report is still ' +
      'being generated (Retry-After) or when generation failed; 404 for a report of another ' +
      'organization or of another kind.',
    tag: 'reports',
    auth: 'session',
    scope: 'organization',
    apiKey: 'read',
    permission: REPORT_PERMISSIONS,
    query: ZReportFetchQuery,
    reply: fileReply(DOWNLOAD_MEDIA_TYPES[kind], `The ${label} file`),
    download: DOWNLOAD_MEDIA_TYPES[kind],
  });
  return { generate, download };
}

const pdfReport = reportCallsOf('pdf');
const csvReport = reportCallsOf('csv');
const xlsxReport = reportCallsOf('xlsx');
const dossierReport = reportCallsOf('dossier');
export const xt1ReportPdfCreate = pdfReport.generate;
export const xt1ReportPdfGet = pdfReport.download;
export const xt1ReportCsvCreate = csvReport.generate;
export const xt1ReportCsvGet = csvReport.download;
export const xt1ReportXlsxCreate = xlsxReport.generate;
export const xt1ReportXlsxGet = xlsxReport.download;
export const xt1ReportDossierCreate = dossierReport.generate;
export const xt1ReportDossierGet = dossierReport.download;

/** The generate call of each kind (the web's download buttons). */
export const REPORT_CREATE_CALLS = {
  pdf: xt1ReportPdfCreate,
  csv: xt1ReportCsvCreate,
  xlsx: xt1ReportXlsxCreate,
  dossier: xt1ReportDossierCreate,
} as const;

// ---------------------------------------------------------------- calibration

/** Who may upload calibration certificates (configuration data of the organization). */
export const CALIBRATION_UPLOAD_PERMISSION = 'sysConfigCreate' satisfies TPermissionName;
/** Most devices, equipment and specifications one certificate lists. */
export const MAX_CALIBRATION_ITEMS = 500;

const zText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/**
 * The calibration upload: the spec's Certificate, bounded. model_name and at
 * least one calibrated device (a tag of the organization, by id) are required.
 */
export const ZCalibrationUpload = ZCalibrationCertificate.extend({
  model_name: zText(200).min(1, 'A model name is required'),
  equipment: z
    .array(
      ZCalibrationEquipment.extend({
        manufacturer: zText(200).optional(),
        model: zText(200).optional(),
        description: zText(1000).nullable().optional(),
        serial_number: zText(200).optional(),
      }),
    )
    .max(MAX_CALIBRATION_ITEMS)
    .optional(),
  specifications: z
    .array(
      ZCalibrationSpecification.extend({
        temperature_range_low: z.number().finite().optional(),
        temperature_range_high: z.number().finite().optional(),
        dut_error: z.number().finite().nonnegative().optional(),
      }).refine(
        (s) =>
          s.temperature_range_low === undefined ||
          s.temperature_range_high === undefined ||
          s.temperature_range_low <= s.temperature_range_high,
        { message: 'must not be above temperature_range_high', path: ['temperature_range_low'] },
      ),
    )
    .max(MAX_CALIBRATION_ITEMS)
    .optional(),
  calibrated_devices: z
    .array(
      z.object({
        device_id: z.number().int().positive(),
        tag_type: ZTagType.optional(),
        calibration_timestamp: z.iso.datetime({ offset: true }).nullable().optional(),
        calibration_due: z.iso
          .datetime({ offset: true })
          .optional()
          .describe(
            'When the next calibration is due, as the certificate states it; without it, the ' +
              "calibration time (else the upload time) plus the organization's " +
              'calibration_validity_months (default 12). Must be after calibration_timestamp.',
          ),
      }),
    )
    .min(1, 'must list at least one device')
    .max(MAX_CALIBRATION_ITEMS),
}).meta({ id: 'CalibrationUpload' });
export type TCalibrationUpload = z.infer<typeof ZCalibrationUpload>;

/** The upload's reply: the spec's Certificate link (the first device's PDF) plus the id and each device's link. */
export const ZCalibrationUploadReply = ZCalibrationCertificateLink.extend({
  calibration_pdf_id: z.string(),
  devices: z.array(z.object({ device_id: z.number().int(), pdf_url: z.string() })),
}).meta({ id: 'CalibrationUploadReply' });
export type TCalibrationUploadReply = z.infer<typeof ZCalibrationUploadReply>;

/** Largest calibration lab PDF the server takes (issue 35; docs/decisions/calibration-files.md). */
export const MAX_CALIBRATION_FILE_BYTES = 10 * 1024 * 1024;
/** Longest file name kept with a lab PDF. */
export const MAX_CALIBRATION_FILE_NAME = 200;

/**
 * The calibration lab's own signed certificate attached to a certificate
 * (issue 35, ours): the newest one uploaded. Older ones are kept, never
 * removed (docs/decisions/calibration-files.md).
 */
export const ZCalibrationLabPdf = z
  .object({
    file_name: z.string(),
    sha256: z.string().describe('SHA-256 of the file, hex'),
    size: z.number().int().describe('Bytes'),
    uploaded_at: z.string(),
    uploaded_by_name: z.string().describe('Who attached it'),
  })
  .meta({ id: 'CalibrationLabPdf' });
export type TCalibrationLabPdf = z.infer<typeof ZCalibrationLabPdf>;

/** One certificate of a device, as the record page and Configuration list it (ours, beyond the spec). */
export const ZCalibrationSummary = z
  .object({
    calibration_pdf_id: z.string(),
    device_id: z.number().int(),
    serial_number: z.string().nullable().describe("The tag's serial number"),
    tag_type: ZTagType.nullable(),
    model_name: z.string(),
    calibration_timestamp: z.string().nullable(),
    calibration_due: z.string().describe('When the next calibration is due (issue 14 item 7)'),
    created: z.string(),
    created_by_name: z.string().describe('Who uploaded the certificate'),
    pdf_url: z.string(),
    lab_pdf: ZCalibrationLabPdf.nullable().describe(
      "The calibration lab's PDF attached to the certificate (pdf_url then answers it), or null",
    ),
  })
  .meta({ id: 'CalibrationSummary' });
export type TCalibrationSummary = z.infer<typeof ZCalibrationSummary>;

const zDeviceId = z
  .union([z.number(), z.string()], { error: () => 'must be a tag id (a positive integer)' })
  .transform((value, ctx) => {
    const n =
      typeof value === 'number' ? value : /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a tag id (a positive integer)',
        input: value,
      });
      return z.NEVER;
    }
    return n;
  });

export const xt1CalibrationUpload = defineCall({
  operationId: 'xt1CalibrationUpload',
  method: 'POST',
  path: `${XT1}calibration/`,
  summary: 'Upload a calibration certificate (devices, equipment, specifications)',
  description:
    `Needs ${CALIBRATION_UPLOAD_PERMISSION}. Every calibrated device must be a tag of the ` +
    'organization (404 naming calibrated_devices otherwise). Audited.',
  tag: 'calibration',
  auth: 'session',
  scope: 'organization',
  permission: CALIBRATION_UPLOAD_PERMISSION,
  body: ZCalibrationUpload,
  reply: ZCalibrationUploadReply,
});

export const xt1CalibrationList = defineCall({
  operationId: 'xt1CalibrationList',
  method: 'GET',
  path: `${XT1}calibration/`,
  summary: "A tag's calibration certificates, latest first (ours, for the record page)",
  description:
    "Without device_id: every certificate of every tag of the organization, each tag's " +
    'latest calibration first (Configuration > Calibration). A newer certificate never ' +
    'removes an older one: the list is the history. Paged: page_number is 1-based, ' +
    `page_size ${MAX_PAGE_SIZE} unless told; the total is in the x-total-count header.`,
  tag: 'calibration',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    device_id: zDeviceId.optional(),
    page_number: zQueryInt(1, MAX_PAGE_NUMBER)
      .optional()
      .meta({ description: '1-based page number (default 1)' }),
    page_size: zQueryInt(1, MAX_PAGE_SIZE)
      .optional()
      .meta({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default ${MAX_PAGE_SIZE})` }),
  }),
  reply: z.array(ZCalibrationSummary),
});

export const xt1CalibrationPdf = defineCall({
  operationId: 'xt1CalibrationPdf',
  method: 'GET',
  path: `${XT1}calibration/pdf/`,
  summary: 'A calibration certificate as PDF',
  description:
    'The certificate calibration_pdf_id for the device device_id (which it must list): the ' +
    "calibration lab's PDF last attached to it (xt1CalibrationFileUpload) when there is one, " +
    "else a PDF drawn from the certificate's data. Another organization's certificate or " +
    'device answers 404.',
  tag: 'calibration',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    calibration_pdf_id: z.string().trim().min(1).max(64),
    device_id: zDeviceId,
  }),
  reply: fileReply(DOWNLOAD_MEDIA_TYPES.pdf, 'The PDF file'),
  download: DOWNLOAD_MEDIA_TYPES.pdf,
});

/** The query of the lab PDF upload: the certificate, and the file's name as the user chose it. */
export const ZCalibrationFileQuery = z.object({
  calibration_pdf_id: z.string().trim().min(1, 'must name a certificate').max(64),
  file_name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_CALIBRATION_FILE_NAME, `must be at most ${MAX_CALIBRATION_FILE_NAME} characters`)
    .optional()
    .meta({ description: 'The name to keep with the file (default: calibration-certificate.pdf)' }),
});

export const xt1CalibrationFileUpload = defineCall({
  operationId: 'xt1CalibrationFileUpload',
  method: 'POST',
  path: `${XT1}calibration/file/`,
  summary: "Attach the calibration lab's signed PDF to a certificate",
  description:
    `Needs ${CALIBRATION_UPLOAD_PERMISSION}. The body is the PDF itself (Content-Type ` +
    `application/pdf, at most ${MAX_CALIBRATION_FILE_BYTES} bytes: 413 PAYLOAD_TOO_LARGE ` +
    'beyond); a body that does not start with %PDF- answers 400 naming body. Another ' +
    "organization's certificate answers 404. A later upload replaces it as the certificate's " +
    'PDF; the earlier ones are kept (append-only). Audited with the SHA-256 of the file.',
  tag: 'calibration',
  auth: 'session',
  scope: 'organization',
  permission: CALIBRATION_UPLOAD_PERMISSION,
  query: ZCalibrationFileQuery,
  body: fileBody(UPLOAD_MEDIA_TYPES.pdf, "The calibration lab's certificate (PDF)"),
  upload: UPLOAD_MEDIA_TYPES.pdf,
  reply: z
    .object({ calibration_pdf_id: z.string(), lab_pdf: ZCalibrationLabPdf })
    .meta({ id: 'CalibrationFileUploadReply' }),
});

// ---------------------------------------------------------------- data display rules

/** Record fields a display rule may hide (the rest are always shown). */
export const DISPLAY_RULE_FIELDS = [
  'primary_reference',
  'secondary_reference',
  'shipping_reference',
  'program_name',
  'po_number',
  'carrier',
  'product_designation',
  'shipper_name_address',
  'receiver_name_address',
  'last_latitude',
  'last_longitude',
  'alarm_recipients',
] as const;
export const ZDisplayRuleField = z.enum(DISPLAY_RULE_FIELDS);

/** Who may read and change the display rules: the organization's administrators. */
export const DISPLAY_RULE_EDIT_PERMISSION = 'sysAdminOrgInfo' satisfies TPermissionName;

/**
 * A data display rule (spec: "fields not shown"; ours, docs/decisions/data-display-rules.md):
 * for one role of the organization (role_id) or everyone (role_id null), the
 * unit temperatures are shown in (null: each user's own), the decimals of
 * temperatures (0 to 2) and the record fields hidden.
 */
export const ZDataDisplayRuleView = z
  .object({
    id: z.string(),
    role_id: z.string().nullable(),
    role_name: z.string().nullable(),
    degrees_unit: ZDegreesUnit.nullable(),
    temperature_decimals: z.number().int(),
    hidden_fields: z.array(ZDisplayRuleField),
    created: z.string(),
    last_modified: z.string(),
  })
  .meta({ id: 'DataDisplayRuleView' });
export type TDataDisplayRuleView = z.infer<typeof ZDataDisplayRuleView>;

const zDecimals = z.number().int().min(0, 'must be 0, 1 or 2').max(2, 'must be 0, 1 or 2');
const zHidden = z
  .array(ZDisplayRuleField)
  .max(DISPLAY_RULE_FIELDS.length)
  .refine((fields) => new Set(fields).size === fields.length, 'must not repeat a field');

/** "Data display rule upload" (POST): role_id null or absent means the whole organization. */
export const ZDataDisplayRuleUpload = z
  .object({
    role_id: z.string().trim().min(1).max(64).nullable().optional(),
    degrees_unit: ZDegreesUnit.nullable().optional(),
    temperature_decimals: zDecimals.optional(),
    hidden_fields: zHidden.optional(),
  })
  .strict()
  .meta({ id: 'DataDisplayRuleUpload' });
export type TDataDisplayRuleUpload = z.infer<typeof ZDataDisplayRuleUpload>;

/** PATCH: the rule (rule_id) and the fields to change. */
export const ZDataDisplayRulePatch = z
  .object({
    rule_id: z.string().trim().min(1, 'must name a rule').max(64),
    degrees_unit: ZDegreesUnit.nullable().optional(),
    temperature_decimals: zDecimals.optional(),
    hidden_fields: zHidden.optional(),
  })
  .strict()
  .meta({ id: 'DataDisplayRulePatch' });
export type TDataDisplayRulePatch = z.infer<typeof ZDataDisplayRulePatch>;

const RULES = '/api/data-display-rules/';

export const dataDisplayRulesList = defineCall({
  operationId: 'dataDisplayRulesList',
  method: 'GET',
  path: RULES,
  summary: "The organization's data display rules, and the one that applies to the caller",
  description:
    'Any member may read them (the web app applies them); the rule that applies to the caller is ' +
    'the one of their role, else the organization-wide one.',
  tag: 'data-display-rules',
  auth: 'session',
  scope: 'organization',
  reply: z.object({
    rules: z.array(ZDataDisplayRuleView),
    effective: ZDataDisplayRuleView.nullable(),
  }),
});

export const dataDisplayRulesCreate = defineCall({
  operationId: 'dataDisplayRulesCreate',
  method: 'POST',
  path: RULES,
  summary: 'Create the display rule of a role (or of the whole organization)',
  description: `Needs ${DISPLAY_RULE_EDIT_PERMISSION}. One rule per role: a second answers 409. Audited.`,
  tag: 'data-display-rules',
  auth: 'session',
  scope: 'organization',
  permission: DISPLAY_RULE_EDIT_PERMISSION,
  body: ZDataDisplayRuleUpload,
  reply: ZDataDisplayRuleView,
});

export const dataDisplayRulesUpdate = defineCall({
  operationId: 'dataDisplayRulesUpdate',
  method: 'PATCH',
  path: RULES,
  summary: 'Change a display rule',
  description: `Needs ${DISPLAY_RULE_EDIT_PERMISSION}. Audited, one entry per changed field.`,
  tag: 'data-display-rules',
  auth: 'session',
  scope: 'organization',
  permission: DISPLAY_RULE_EDIT_PERMISSION,
  body: ZDataDisplayRulePatch,
  reply: ZDataDisplayRuleView,
});

export const reportsCalls = [
  xt1ReportPdfCreate,
  xt1ReportPdfGet,
  xt1ReportCsvCreate,
  xt1ReportCsvGet,
  xt1ReportXlsxCreate,
  xt1ReportXlsxGet,
  xt1ReportDossierCreate,
  xt1ReportDossierGet,
  xt1CalibrationUpload,
  xt1CalibrationList,
  xt1CalibrationPdf,
  xt1CalibrationFileUpload,
  dataDisplayRulesList,
  dataDisplayRulesCreate,
  dataDisplayRulesUpdate,
] as const;

/** The link to the PDF of a calibration certificate, for one of its devices (xt1CalibrationPdf). */
export const certificateUrl = (id: string, deviceId: number): string =>
  `${xt1CalibrationPdf.path}?calibration_pdf_id=${encodeURIComponent(id)}&device_id=${deviceId}`;
