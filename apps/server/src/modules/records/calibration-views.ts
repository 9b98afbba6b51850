import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { DEFAULT_CALIBRATION_DUE_SOON_DAYS } from '@coldtrace/domain';
import { calibrationCertificateDevices, calibrationCertificates } from '../../db/schema-reports';
import { organizationSettings } from '../../db/schema-shipments';

/** A tag's calibration in the record and tag views (record-views.ts, lists/tags-list.ts). */

/** A constant in the SQL text, not a bound parameter (a named page statement's text holds its values as placeholders). */
const dueSoonDefault = sql.raw(String(Math.trunc(DEFAULT_CALIBRATION_DUE_SOON_DAYS)));

/**
 * The tag's calibration at an instant (issue 14 item 7): the due date of the
 * certificate in force then in the tag's organization (the latest calibrated
 * at or before it, as certificateInForce of @coldtrace/domain), the
 * organization's due-soon window and the instant itself, as three fields of
 * the select (the view's `CalibrationAt`). One JSON object built by a
 * subquery around them cost PostgreSQL 5 µs a row more, a tenth of a records
 * page (list-performance.md, "Record view").
 */
export const calibrationAt = (
  organizationId: SQL | AnyColumn,
  tagId: SQL | AnyColumn,
  at: SQL,
) => ({
  // Decoded as a timestamp with time zone (any such column's decoder does).
  at: sql<Date>`${at}`.mapWith(calibrationCertificateDevices.calibrationDue),
  dueSoonDays: sql<number>`coalesce((SELECT s.calibration_due_soon_days FROM ${organizationSettings} s WHERE s.organization_id = ${organizationId}), ${dueSoonDefault}::int)`,
  due: sql<Date | null>`(SELECT d.calibration_due
  FROM ${calibrationCertificateDevices} d
  JOIN ${calibrationCertificates} c ON c.id = d.certificate_id AND c.organization_id = d.organization_id
  WHERE d.organization_id = ${organizationId} AND d.tag_id = ${tagId} AND coalesce(d.calibration_timestamp, c.created) <= ${at}
  ORDER BY coalesce(d.calibration_timestamp, c.created) DESC, c.created DESC, c.id DESC
  LIMIT 1)`.mapWith(calibrationCertificateDevices.calibrationDue),
});
