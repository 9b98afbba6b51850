-- The record view's lookups per row read from small or covering indexes
-- (issue 13, docs/decisions/list-performance.md, "Twenty-first pass"): a
-- record's scan ids in order from the index alone (no sort, no row read), and
-- whether an alarm awaits acknowledgement from the few such alarms.
DROP INDEX "scans_record_idx";--> statement-breakpoint
CREATE INDEX "alarms_record_awaiting_idx" ON "alarms" USING btree ("record_id","organization_id") WHERE "alarms"."acknowledged" = false AND "alarms"."dismissed" = false;--> statement-breakpoint
CREATE INDEX "scans_record_idx" ON "scans" USING btree ("record_id","timestamp","id","organization_id");