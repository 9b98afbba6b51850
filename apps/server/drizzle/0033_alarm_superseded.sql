-- Alarm noise (issue 35 item 4, docs/decisions/alarm-lifecycle.md): an alarm a late
-- upload merged into a longer one records the alarm that absorbed it (close cause
-- MERGED); a superseded alarm awaits no acknowledgement of its own. No-data alarms
-- keep the interval the record was expected to send at.
DROP INDEX "alarms_record_awaiting_idx";--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "superseded_by" bigint;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "expected_interval" double precision;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_superseded_by_alarms_id_fk" FOREIGN KEY ("superseded_by") REFERENCES "public"."alarms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarms_record_awaiting_idx" ON "alarms" USING btree ("record_id","organization_id") WHERE "alarms"."acknowledged" = false AND "alarms"."dismissed" = false AND "alarms"."superseded_by" IS NULL;