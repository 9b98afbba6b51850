-- Alarm lifecycle (issue 11): an alarm is never deleted and, once closed, never
-- opened again; it keeps the cause, reason, who and when of its closing. A record
-- keeps the inputs its trip is detected from (docs/decisions/alarm-lifecycle.md).
ALTER TABLE "alarms" DROP CONSTRAINT "alarms_key";--> statement-breakpoint
DROP INDEX "alarm_signatures_alarm_key";--> statement-breakpoint
ALTER TABLE "alarm_signatures" ADD COLUMN "purpose" text DEFAULT 'ACKNOWLEDGE' NOT NULL;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "state" text DEFAULT 'OPEN' NOT NULL;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "closed_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "close_cause" text;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "close_reason" text;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "dismiss_reason" text;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "trip_inputs" jsonb;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_closed_by_user_id_users_id_fk" FOREIGN KEY ("closed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_key" ON "alarms" USING btree ("record_id","above_or_below","kind","first_point_idx") WHERE "alarms"."state" = 'OPEN';--> statement-breakpoint
CREATE INDEX "alarms_record_idx" ON "alarms" USING btree ("record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_signatures_alarm_key" ON "alarm_signatures" USING btree ("alarm_id","purpose");--> statement-breakpoint
-- Alarms closed ("resolved") before closing was recorded: the cause is unknown.
UPDATE "alarms" SET "state" = 'CLOSED', "close_cause" = 'UNRECORDED',
  "close_reason" = 'Closed before Coldtrace kept closing reasons; the audit trail holds the change that closed it'
WHERE "resolved";--> statement-breakpoint
ALTER TABLE "alarms" DROP COLUMN "resolved";--> statement-breakpoint
-- Every record keeps the origin, destination and geo-fence it is evaluated with today.
UPDATE "records" r SET "trip_inputs" = jsonb_build_object(
  'origin', CASE WHEN o.id IS NULL THEN NULL
    ELSE jsonb_build_object('id', o.id, 'latitude', o.latitude, 'longitude', o.longitude) END,
  'destination', CASE WHEN d.id IS NULL THEN NULL
    ELSE jsonb_build_object('id', d.id, 'latitude', d.latitude, 'longitude', d.longitude) END,
  'geo_fence', jsonb_build_object(
    'arrival_radius_meters', COALESCE(s.arrival_radius_meters, 1000),
    'departure_radius_meters', COALESCE(s.departure_radius_meters, 1000),
    'num_points_to_arrive', COALESCE(s.num_points_to_arrive, 2),
    'num_points_to_depart', COALESCE(s.num_points_to_depart, 2)))
FROM "records" x
LEFT JOIN "travel_locations" o ON o.id = x.shipper_location_id AND o.organization_id = x.organization_id
LEFT JOIN "travel_locations" d ON d.id = x.receiver_location_id AND d.organization_id = x.organization_id
LEFT JOIN "organization_settings" s ON s.organization_id = x.organization_id
WHERE r.id = x.id;
--> statement-breakpoint
-- A run ended by the tag's next run before that set its stop time: stopped when the
-- next run (of the same tag, in the same organization) started.
UPDATE "records" r SET "stop_time" = to_timestamp(n.next_start)
FROM (
  SELECT x.id, (
    SELECT min(y.start_time_seconds) FROM "records" y
    WHERE y.organization_id = x.organization_id AND y.tag_id = x.tag_id
      AND y.start_time_seconds > x.start_time_seconds
  ) AS next_start
  FROM "records" x
  WHERE NOT x.active AND x.stop_time IS NULL AND x.start_time_seconds IS NOT NULL
) n
WHERE r.id = n.id AND n.next_start IS NOT NULL;
