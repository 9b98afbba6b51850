-- Tenancy of tags (issue 10): a serial number names a tag within an organization
-- only, and a run of a tag is identified within the organization that recorded it.
ALTER TABLE "records" DROP CONSTRAINT "records_tag_start_key";--> statement-breakpoint
ALTER TABLE "tags" DROP CONSTRAINT "tags_serial_number_key";--> statement-breakpoint
DROP INDEX "tags_org_idx";--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_org_tag_start_key" UNIQUE("organization_id","tag_id","start_time_seconds");--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_org_serial_number_key" UNIQUE("organization_id","serial_number");--> statement-breakpoint
-- A tag moved by the earlier Assign Tags kept the state of its old organization's
-- records: recompute running and last_record_id from its current organization's.
UPDATE "tags" t SET "running" = s.running, "last_record_id" = s.last_record_id
FROM (
  SELECT cur.id,
    EXISTS (
      SELECT 1 FROM "records" r
      WHERE r.tag_id = cur.id AND r.organization_id = cur.organization_id
        AND r.active AND r.start_time_seconds IS NOT NULL
    ) AS running,
    (
      SELECT r.id FROM "records" r
      WHERE r.tag_id = cur.id AND r.organization_id = cur.organization_id
      ORDER BY r.start_time_seconds DESC NULLS FIRST, r.id DESC LIMIT 1
    ) AS last_record_id
  FROM "tags" cur
) s
WHERE t.id = s.id AND (t.running, t.last_record_id) IS DISTINCT FROM (s.running, s.last_record_id);
