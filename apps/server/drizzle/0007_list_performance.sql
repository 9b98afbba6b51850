-- Lists on large organizations (issue 13, docs/decisions/list-performance.md):
-- the indexes the list plans need (default order with its id tie-break, the
-- search box's trigram index, the records' travel locations, the default alarm
-- list) and exact per-organization counts kept by triggers in
-- record_count_deltas (statistics summary, x-total-count of the whole list).
-- pg_trgm is a trusted extension: the database owner may create it, in a
-- schema of its own (its types and functions are not the app's tables; ILIKE
-- itself is built in, so queries need nothing from it but the index).
CREATE SCHEMA IF NOT EXISTS "extensions";--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA "extensions";--> statement-breakpoint
CREATE TABLE "record_count_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"records" bigint DEFAULT 0 NOT NULL,
	"alarm_records" bigint DEFAULT 0 NOT NULL,
	"active_records" bigint DEFAULT 0 NOT NULL,
	"scans" bigint DEFAULT 0 NOT NULL,
	"tags" bigint DEFAULT 0 NOT NULL,
	"running_tags" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "records_org_last_action_idx";--> statement-breakpoint
ALTER TABLE "record_count_deltas" ADD CONSTRAINT "record_count_deltas_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_count_deltas_org_idx" ON "record_count_deltas" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "alarms_org_unacknowledged_idx" ON "alarms" USING btree ("organization_id","start_time" DESC NULLS LAST,"id" DESC NULLS FIRST) WHERE "alarms"."acknowledged" = false AND "alarms"."dismissed" = false;--> statement-breakpoint
CREATE INDEX "records_shipper_location_idx" ON "records" USING btree ("shipper_location_id");--> statement-breakpoint
CREATE INDEX "records_receiver_location_idx" ON "records" USING btree ("receiver_location_id");--> statement-breakpoint
CREATE INDEX "records_search_idx" ON "records" USING gin (("id"::text || E'\n' || "tag_serial_number" || E'\n' || "primary_reference" || E'\n' || "secondary_reference" || E'\n' || "shipping_reference" || E'\n' || "program_name" || E'\n' || "carrier" || E'\n' || "product_designation" || E'\n' || "po_number") extensions.gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "records_org_last_action_idx" ON "records" USING btree ("organization_id","last_action_taken" DESC NULLS LAST,"id" DESC NULLS FIRST);
--> statement-breakpoint
-- One row of changes per statement and organization: inserted and deleted rows
-- of records, scans and tags (transition tables). Rows of an organization being
-- deleted are not counted (its count rows go with it).
CREATE FUNCTION record_counts_of_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  sign bigint := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  IF TG_TABLE_NAME = 'records' THEN
    INSERT INTO record_count_deltas (organization_id, records, alarm_records, active_records)
    SELECT c.organization_id, sign * count(*), sign * count(*) FILTER (WHERE c.computed_status = 'Alarm'),
      sign * count(*) FILTER (WHERE c.active)
    FROM changed c
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    GROUP BY c.organization_id;
  ELSIF TG_TABLE_NAME = 'scans' THEN
    INSERT INTO record_count_deltas (organization_id, scans)
    SELECT c.organization_id, sign * count(*)
    FROM changed c
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    GROUP BY c.organization_id;
  ELSE
    INSERT INTO record_count_deltas (organization_id, tags, running_tags)
    SELECT c.organization_id, sign * count(*), sign * count(*) FILTER (WHERE c.running)
    FROM changed c
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    GROUP BY c.organization_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An updated row that changes what is counted (its organization, a record's
-- computed status or active flag, a tag's running flag): out of the old
-- counts, into the new ones. Other updates do not fire (WHEN below).
CREATE FUNCTION record_counts_of_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'records' THEN
    INSERT INTO record_count_deltas (organization_id, records, alarm_records, active_records) VALUES
      (OLD.organization_id, -1, -(OLD.computed_status = 'Alarm')::int, -(OLD.active)::int),
      (NEW.organization_id, 1, (NEW.computed_status = 'Alarm')::int, (NEW.active)::int);
  ELSIF TG_TABLE_NAME = 'scans' THEN
    INSERT INTO record_count_deltas (organization_id, scans) VALUES
      (OLD.organization_id, -1), (NEW.organization_id, 1);
  ELSE
    INSERT INTO record_count_deltas (organization_id, tags, running_tags) VALUES
      (OLD.organization_id, -1, -(OLD.running)::int),
      (NEW.organization_id, 1, (NEW.running)::int);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER records_counts_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER records_counts_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER records_counts_update AFTER UPDATE ON records FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.computed_status IS DISTINCT FROM NEW.computed_status
    OR OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION record_counts_of_update();--> statement-breakpoint
CREATE TRIGGER scans_counts_insert AFTER INSERT ON scans
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER scans_counts_delete AFTER DELETE ON scans
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER scans_counts_update AFTER UPDATE ON scans FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION record_counts_of_update();--> statement-breakpoint
CREATE TRIGGER tags_counts_insert AFTER INSERT ON tags
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER tags_counts_delete AFTER DELETE ON tags
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER tags_counts_update AFTER UPDATE ON tags FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.running IS DISTINCT FROM NEW.running)
  EXECUTE FUNCTION record_counts_of_update();--> statement-breakpoint
-- The counts of the data already there: one row per organization.
INSERT INTO record_count_deltas (organization_id, records, alarm_records, active_records, scans, tags, running_tags)
SELECT o.id,
  (SELECT count(*) FROM records r WHERE r.organization_id = o.id),
  (SELECT count(*) FROM records r WHERE r.organization_id = o.id AND r.computed_status = 'Alarm'),
  (SELECT count(*) FROM records r WHERE r.organization_id = o.id AND r.active),
  (SELECT count(*) FROM scans s WHERE s.organization_id = o.id),
  (SELECT count(*) FROM tags t WHERE t.organization_id = o.id),
  (SELECT count(*) FROM tags t WHERE t.organization_id = o.id AND t.running)
FROM organizations o;
