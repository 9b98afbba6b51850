import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  notificationLog,
  notificationSettings,
  type NotificationSettingRow,
} from '../../db/schema-alarm-mail';

/**
 * Reads of the scheduled summaries (issue 15, docs/decisions/scheduled-reports.md).
 * The shipments query reads records, alarms and travel locations in one
 * grouped query scoped by the organization (a known boundary exception, like
 * the module's other reads of alarms and locations: the summary needs counts
 * the records module does not offer).
 */

/** Every Summary setting that is not Disabled, of every organization (the hourly job). */
export async function activeSummarySettings(db: Db): Promise<NotificationSettingRow[]> {
  return db
    .select()
    .from(notificationSettings)
    .where(
      and(
        eq(notificationSettings.notificationType, 'Summary'),
        inArray(notificationSettings.status, ['Enabled', 'Test']),
        isNotNull(notificationSettings.schedule),
      ),
    )
    .orderBy(asc(notificationSettings.id));
}

/** Whether the setting's summary of the period was already written. */
export async function summaryWritten(db: Db, settingId: number, period: string): Promise<boolean> {
  const rows = await db
    .select({ id: notificationLog.id })
    .from(notificationLog)
    .where(and(eq(notificationLog.settingId, settingId), eq(notificationLog.period, period)));
  return rows.length > 0;
}

/** The summary's log entry, once per setting and period; answers whether it was written. */
export async function insertSummaryEntry(
  db: Db,
  values: typeof notificationLog.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(notificationLog)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: notificationLog.id });
  return rows.length > 0;
}

/** One shipment of the period with its alarm counts. */
export interface SummaryShipment {
  recordId: number;
  tagSerialNumber: string;
  carrier: string;
  originId: number | null;
  origin: string | null;
  destinationId: number | null;
  destination: string | null;
  alarms: number;
  open: number;
  closed: number;
  acknowledged: number;
}

/**
 * The organization's shipments that started in [from, to) (start: the tag's
 * start time, else when the record was created) and pass the setting's
 * filters (product and carrier ignoring case, origin, destination), with
 * every alarm they raised: open and closed, acknowledged or not, dismissed too.
 */
export async function periodShipments(
  db: Db,
  setting: NotificationSettingRow,
  from: Date,
  to: Date,
): Promise<SummaryShipment[]> {
  const blank = (v: string | null) => v === null || v.trim() === '';
  const product = blank(setting.productName) ? null : setting.productName!.trim().toLowerCase();
  const carrier = blank(setting.carrierName) ? null : setting.carrierName!.trim().toLowerCase();
  const result = await db.execute<{
    record_id: string;
    tag_serial_number: string;
    carrier: string;
    origin_id: string | null;
    origin: string | null;
    destination_id: string | null;
    destination: string | null;
    alarms: number;
    open: number;
    closed: number;
    acknowledged: number;
  }>(sql`
    SELECT r.id AS record_id, r.tag_serial_number, r.carrier,
           r.shipper_location_id AS origin_id, o.name AS origin,
           r.receiver_location_id AS destination_id, d.name AS destination,
           count(a.id)::int AS alarms,
           count(a.id) FILTER (WHERE a.state = 'OPEN')::int AS open,
           count(a.id) FILTER (WHERE a.state = 'CLOSED')::int AS closed,
           count(a.id) FILTER (WHERE a.acknowledged)::int AS acknowledged
      FROM records r
      LEFT JOIN travel_locations o
        ON o.id = r.shipper_location_id AND o.organization_id = r.organization_id
      LEFT JOIN travel_locations d
        ON d.id = r.receiver_location_id AND d.organization_id = r.organization_id
      LEFT JOIN alarms a ON a.record_id = r.id AND a.organization_id = r.organization_id
     WHERE r.organization_id = ${setting.organizationId}
       AND coalesce(to_timestamp(r.start_time_seconds), r.created) >= ${from.toISOString()}::timestamptz
       AND coalesce(to_timestamp(r.start_time_seconds), r.created) < ${to.toISOString()}::timestamptz
       ${product === null ? sql`` : sql`AND lower(trim(r.product_designation)) = ${product}`}
       ${carrier === null ? sql`` : sql`AND lower(trim(r.carrier)) = ${carrier}`}
       ${setting.originLocationId === null ? sql`` : sql`AND r.shipper_location_id = ${setting.originLocationId}`}
       ${setting.destinationLocationId === null ? sql`` : sql`AND r.receiver_location_id = ${setting.destinationLocationId}`}
     GROUP BY r.id, o.name, d.name
     ORDER BY r.id`);
  return result.rows.map((r) => ({
    recordId: Number(r.record_id),
    tagSerialNumber: r.tag_serial_number,
    carrier: r.carrier,
    originId: r.origin_id === null ? null : Number(r.origin_id),
    origin: r.origin,
    destinationId: r.destination_id === null ? null : Number(r.destination_id),
    destination: r.destination,
    alarms: r.alarms,
    open: r.open,
    closed: r.closed,
    acknowledged: r.acknowledged,
  }));
}
