DROP INDEX "alarms_open_key";--> statement-breakpoint
ALTER TABLE "product_definitions" ADD COLUMN "stability_budget" jsonb;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "planned_arrival" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_budget_key" ON "alarms" USING btree ("record_id","above_or_below",coalesce("high_threshold", "low_threshold")) WHERE "alarms"."state" = 'OPEN' AND "alarms"."kind" = 'budget';--> statement-breakpoint
CREATE INDEX "records_org_shipping_ref_idx" ON "records" USING btree ("organization_id","shipping_reference") WHERE "records"."shipping_reference" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_key" ON "alarms" USING btree ("record_id","above_or_below","kind","first_point_idx") WHERE "alarms"."state" = 'OPEN' AND "alarms"."kind" <> 'budget';