-- Tenancy of tags (issue 10): a serial number names a tag within an organization
-- only, and a run of a tag is identified within the organization that recorded it.
ALTER TABLE "records" DROP CONSTRAINT "records_tag_start_key";--> statement-breakpoint
ALTER TABLE "tags" DROP CONSTRAINT "tags_serial_number_key";--> statement-breakpoint
DROP INDEX "tags_org_idx";--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_org_tag_start_key" UNIQUE("organization_id","tag_id","start_time_seconds");--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_org_serial_number_key" UNIQUE("organization_id","serial_number");