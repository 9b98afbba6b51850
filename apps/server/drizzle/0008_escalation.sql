-- Escalation (issue 14, docs/decisions/escalation.md): a notification setting can remind its
-- recipients and escalate to a second list while an alarm stays unacknowledged; each
-- reminder or escalation is a notification log entry naming its alarm and step, unique
-- per alarm, setting and step, so a job that runs twice sends once.
ALTER TABLE "notification_log" ADD COLUMN "alarm_id" bigint;--> statement-breakpoint
ALTER TABLE "notification_log" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "remind_after_minutes" integer;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "escalate_after_minutes" integer;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "escalation_emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_log_alarm_step_key" ON "notification_log" USING btree ("alarm_id","setting_id","step") WHERE "notification_log"."step" IS NOT NULL;