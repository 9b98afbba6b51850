import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations, roles, users } from './schema';
import { orgRef, timestamptz } from './columns';

/**
 * Reports, calibration certificates and data display rules (issue 6, items
 * 5 to 7). Every table carries `organization_id`; every read is scoped by it.
 * Decisions: docs/decisions/reports.md, docs/decisions/data-display-rules.md.
 */

/** PostgreSQL `bytea` as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

/**
 * A generated report file. The row is the job's "done" mark: the job
 * (`report.generate`) does nothing for a row already `ready`. The file is
 * kept in `content` (a 100,000-point CSV is a few MB; TOAST compresses it).
 * `degrees_unit` and `time_zone` are the requesting user's at request time.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: orgRef(),
    /** The record (by value, like the audit trail: the file outlives nothing it needs). */
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: ['pdf', 'csv', 'xlsx', 'dossier'] }).notNull(),
    status: text('status', { enum: ['queued', 'ready', 'failed'] })
      .notNull()
      .default('queued'),
    fileName: text('file_name').notNull(),
    degreesUnit: text('degrees_unit', { enum: ['C', 'F'] }).notNull(),
    timeZone: text('time_zone').notNull(),
    content: bytea('content'),
    byteSize: integer('byte_size'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    created: timestamptz('created').notNull().defaultNow(),
    completedAt: timestamptz('completed_at'),
    error: text('error'),
  },
  (t) => [index('reports_org_record_idx').on(t.organizationId, t.recordId, t.created)],
);

/** A calibration certificate: model, equipment and specifications (spec "Certificate"). */
export const calibrationCertificates = pgTable(
  'calibration_certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: orgRef(),
    modelName: text('model_name').notNull(),
    equipment: jsonb('equipment')
      .$type<CalibrationEquipmentItem[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    specifications: jsonb('specifications')
      .$type<CalibrationSpecificationItem[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdByName: text('created_by_name').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
  },
  (t) => [index('calibration_certificates_org_idx').on(t.organizationId, t.created)],
);

/** The devices (tags) a certificate calibrates ("calibrated_devices"). */
export const calibrationCertificateDevices = pgTable(
  'calibration_certificate_devices',
  {
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => calibrationCertificates.id, { onDelete: 'cascade' }),
    organizationId: orgRef(),
    tagId: bigint('tag_id', { mode: 'number' }).notNull(),
    tagType: text('tag_type'),
    calibrationTimestamp: timestamptz('calibration_timestamp'),
    /**
     * When the next calibration is due (issue 14 item 7): as the certificate
     * states it, else the calibration (or upload) time plus the organization's
     * validity in months at the upload. Fixed at the upload.
     */
    calibrationDue: timestamptz('calibration_due').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.certificateId, t.tagId] }),
    index('calibration_certificate_devices_tag_idx').on(t.organizationId, t.tagId),
  ],
);

/**
 * The calibration lab's own signed certificate (a PDF) attached to a
 * certificate (issue 35; docs/decisions/calibration-files.md). Append-only for
 * the application role (db/roles.ts): a replacement is a new row, the
 * certificate's PDF is its newest row (highest id), the older ones stay. The
 * file is kept in the database, with the rest of the evidence. Who uploaded
 * is kept by value, like the audit trail.
 */
export const calibrationCertificateFiles = pgTable(
  'calibration_certificate_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** A certificate with a lab PDF cannot be deleted (`restrict`). */
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => calibrationCertificates.id, { onDelete: 'restrict' }),
    content: bytea('content').notNull(),
    /** SHA-256 of `content`, hex. */
    sha256: text('sha256').notNull(),
    byteSize: integer('byte_size').notNull(),
    fileName: text('file_name').notNull(),
    uploadedByUserId: uuid('uploaded_by_user_id').notNull(),
    uploadedByName: text('uploaded_by_name').notNull(),
    uploadedAt: timestamptz('uploaded_at').notNull().defaultNow(),
  },
  (t) => [
    index('calibration_certificate_files_certificate_idx').on(
      t.organizationId,
      t.certificateId,
      t.id,
    ),
  ],
);

/**
 * A data display rule: for one role of the organization, or for all of it
 * (`role_id` null), the unit and decimals temperatures are shown with and the
 * record fields hidden. One rule per role (and one organization-wide).
 */
export const dataDisplayRules = pgTable(
  'data_display_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: orgRef(),
    roleId: uuid('role_id').references(() => roles.id, { onDelete: 'cascade' }),
    degreesUnit: text('degrees_unit', { enum: ['C', 'F'] }),
    temperatureDecimals: integer('temperature_decimals').notNull().default(1),
    hiddenFields: text('hidden_fields')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created: timestamptz('created').notNull().defaultNow(),
    lastModified: timestamptz('last_modified').notNull().defaultNow(),
  },
  (t) => [
    unique('data_display_rules_org_role_key').on(t.organizationId, t.roleId).nullsNotDistinct(),
  ],
);

export interface CalibrationEquipmentItem {
  manufacturer?: string | undefined;
  model?: string | undefined;
  description?: string | null | undefined;
  serial_number?: string | undefined;
}

export interface CalibrationSpecificationItem {
  temperature_range_low?: number | undefined;
  temperature_range_high?: number | undefined;
  dut_error?: number | undefined;
}

export type ReportRow = typeof reports.$inferSelect;
export type CalibrationCertificateRow = typeof calibrationCertificates.$inferSelect;
export type CalibrationCertificateFileRow = typeof calibrationCertificateFiles.$inferSelect;
export type DataDisplayRuleRow = typeof dataDisplayRules.$inferSelect;
