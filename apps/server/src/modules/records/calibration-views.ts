import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { DEFAULT_CALIBRATION_DUE_SOON_DAYS } from '@coldtrace/domain';
import { calibrationCertificateDevices, calibrationCertificates } from '../../db/schema-reports';
import { organizationSettings } from '../../db/schema-shipments';

/** A tag's calibration in the record and tag views (repository.ts, tag-views.ts). */

/** A constant in the SQL text, not a bound parameter (the record select is rendered once: compiled-select.ts). */
const dueSoonDefault = sql.raw(String(Math.trunc(DEFAULT_CALIBRATION_DUE_SOON_DAYS)));

/**
 * The tag's calibration at an instant (issue 14 item 7): the due date of the
 * certificate in force then in the tag's organization (the latest calibrated
 * at or before it, as certificateInForce of @coldtrace/domain), the
 * organization's due-soon window and the instant itself.
 */
export const calibrationAt = (organizationId: SQL | AnyColumn, tagId: SQL | AnyColumn, at: SQL) =>
  sql<{
    due: string | null;
    due_soon_days: number;
    at: string;
  }>`(SELECT json_build_object('at', a.at, 'due_soon_days', coalesce((SELECT s.calibration_due_soon_days FROM ${organizationSettings} s WHERE s.organization_id = ${organizationId}), ${dueSoonDefault}::int), 'due', (SELECT d.calibration_due
  FROM ${calibrationCertificateDevices} d
  JOIN ${calibrationCertificates} c ON c.id = d.certificate_id AND c.organization_id = d.organization_id
  WHERE d.organization_id = ${organizationId} AND d.tag_id = ${tagId} AND coalesce(d.calibration_timestamp, c.created) <= a.at
  ORDER BY coalesce(d.calibration_timestamp, c.created) DESC, c.created DESC, c.id DESC
  LIMIT 1)) FROM (SELECT ${at} AS at) a)`;

export function calibrationView(c: { due: string | null; due_soon_days: number; at: string }) {
  return {
    due: c.due === null ? null : new Date(c.due),
    dueSoonDays: c.due_soon_days,
    at: new Date(c.at),
  };
}
