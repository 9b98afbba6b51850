-- Calibration lifecycle (issue 14 item 7, docs/decisions/calibration-lifecycle.md):
-- each calibrated device of a certificate has a due date; certificates
-- uploaded before this migration are due 12 months (the default validity)
-- after their calibration time, else their upload time. The organization
-- settings gain the validity, the due-soon window and what starting a shipment
-- on an expired tag does; a record keeps the warning of such a start.
ALTER TABLE "calibration_certificate_devices" ADD COLUMN "calibration_due" timestamp with time zone;--> statement-breakpoint
UPDATE "calibration_certificate_devices" d SET "calibration_due" = coalesce(d."calibration_timestamp", c."created") + interval '12 months' FROM "calibration_certificates" c WHERE c."id" = d."certificate_id";--> statement-breakpoint
ALTER TABLE "calibration_certificate_devices" ALTER COLUMN "calibration_due" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "calibration_validity_months" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "calibration_due_soon_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "expired_calibration_start" text DEFAULT 'WARN' NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "calibration_warning" text;
