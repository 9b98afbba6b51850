ALTER TABLE "notification_log" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_log" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "schedule" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_log_setting_period_key" ON "notification_log" USING btree ("setting_id","period") WHERE "notification_log"."period" IS NOT NULL;