CREATE TABLE "record_hour_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"records" bigint DEFAULT 0 NOT NULL,
	"alarm_records" bigint DEFAULT 0 NOT NULL,
	"active_records" bigint DEFAULT 0 NOT NULL,
	"scans" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "records_org_created_idx";--> statement-breakpoint
ALTER TABLE "record_hour_deltas" ADD CONSTRAINT "record_hour_deltas_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_hour_deltas_org_hour_idx" ON "record_hour_deltas" USING btree ("organization_id","hour");--> statement-breakpoint
CREATE INDEX "alarms_org_start_idx" ON "alarms" USING btree ("organization_id","start_time","record_id") WHERE "alarms"."dismissed" = false;--> statement-breakpoint
CREATE INDEX "records_org_created_idx" ON "records" USING btree ("organization_id","created","tag_id");--> statement-breakpoint
-- Statistics of a range (issue 13, docs/decisions/list-performance.md, "Ninth
-- pass"): the counts of record_count_deltas by the UTC hour the records were
-- created in. A record counts in the hour of its created time; a scan in its
-- record's hour, when the record is of the scan's organization (as the
-- statistics count scans). Rows of an organization being deleted are not
-- counted (its rows go with it).
-- The UTC hour of an instant (whatever the session's time zone; PostgreSQL 13 has no date_bin).
CREATE FUNCTION record_hour_of(t timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_trunc('hour', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
$$;
--> statement-breakpoint
-- Inserted and deleted records and scans: the statement triggers of migration
-- 0007 (records_counts_*, scans_counts_*) now also write one row per
-- statement, organization and hour here, so an insert runs one count trigger,
-- not two. A scan deleted with its record (cascade) is not found by its hour
-- (its record is gone): the record's own delete took it out
-- (record_hours_of_record_delete). The tags' branch is 0007's as it was.
CREATE OR REPLACE FUNCTION record_counts_of_statement() RETURNS trigger
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
    INSERT INTO record_hour_deltas (organization_id, hour, records, alarm_records, active_records)
    SELECT c.organization_id, record_hour_of(c.created), sign * count(*),
      sign * count(*) FILTER (WHERE c.computed_status = 'Alarm'), sign * count(*) FILTER (WHERE c.active)
    FROM changed c
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    GROUP BY 1, 2;
  ELSIF TG_TABLE_NAME = 'scans' THEN
    INSERT INTO record_count_deltas (organization_id, scans)
    SELECT c.organization_id, sign * count(*)
    FROM changed c
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    GROUP BY c.organization_id;
    INSERT INTO record_hour_deltas (organization_id, hour, scans)
    SELECT c.organization_id, record_hour_of(r.created), sign * count(*)
    FROM changed c
    JOIN records r ON r.id = c.record_id AND r.organization_id = c.organization_id
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    GROUP BY 1, 2;
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
-- A record about to be deleted: its scans out of its hour (they go with it).
CREATE FUNCTION record_hours_of_record_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id) THEN
    INSERT INTO record_hour_deltas (organization_id, hour, scans)
    SELECT OLD.organization_id, record_hour_of(OLD.created), -count(*)
    FROM scans s
    WHERE s.record_id = OLD.id AND s.organization_id = OLD.organization_id
    HAVING count(*) > 0;
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
-- An updated record that changes what is counted or where (organization,
-- created time, computed status, active flag): out of its old hour, into its
-- new one; its scans move with it when its organization or hour changed.
CREATE FUNCTION record_hours_of_record_update() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  moved boolean := OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR record_hour_of(OLD.created) IS DISTINCT FROM record_hour_of(NEW.created);
BEGIN
  INSERT INTO record_hour_deltas (organization_id, hour, records, alarm_records, active_records, scans)
  SELECT OLD.organization_id, record_hour_of(OLD.created), -1, -(OLD.computed_status = 'Alarm')::int,
    -(OLD.active)::int,
    CASE WHEN moved THEN -(SELECT count(*) FROM scans s
      WHERE s.record_id = OLD.id AND s.organization_id = OLD.organization_id) ELSE 0 END
  WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id)
  UNION ALL
  SELECT NEW.organization_id, record_hour_of(NEW.created), 1, (NEW.computed_status = 'Alarm')::int,
    (NEW.active)::int,
    CASE WHEN moved THEN (SELECT count(*) FROM scans s
      WHERE s.record_id = NEW.id AND s.organization_id = NEW.organization_id) ELSE 0 END
  WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = NEW.organization_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An updated scan that changes its organization or its record: out of the old record's hour, into the new one's.
CREATE FUNCTION record_hours_of_scan_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_hour_deltas (organization_id, hour, scans)
  SELECT OLD.organization_id, record_hour_of(r.created), -1
  FROM records r
  WHERE r.id = OLD.record_id AND r.organization_id = OLD.organization_id
    AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id)
  UNION ALL
  SELECT NEW.organization_id, record_hour_of(r.created), 1
  FROM records r
  WHERE r.id = NEW.record_id AND r.organization_id = NEW.organization_id
    AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = NEW.organization_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER records_hours_before_delete BEFORE DELETE ON records
  FOR EACH ROW EXECUTE FUNCTION record_hours_of_record_delete();--> statement-breakpoint
CREATE TRIGGER records_hours_update AFTER UPDATE ON records FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.created IS DISTINCT FROM NEW.created
    OR OLD.computed_status IS DISTINCT FROM NEW.computed_status
    OR OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION record_hours_of_record_update();--> statement-breakpoint
CREATE TRIGGER scans_hours_update AFTER UPDATE ON scans FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.record_id IS DISTINCT FROM NEW.record_id)
  EXECUTE FUNCTION record_hours_of_scan_update();--> statement-breakpoint
-- The data already there, one row per organization and hour (the triggers
-- above hold records and scans against writes until this migration commits).
INSERT INTO record_hour_deltas (organization_id, hour, records, alarm_records, active_records, scans)
SELECT r.organization_id, record_hour_of(r.created), count(*),
  count(*) FILTER (WHERE r.computed_status = 'Alarm'), count(*) FILTER (WHERE r.active),
  coalesce(sum(s.n), 0)
FROM records r
LEFT JOIN (SELECT record_id, organization_id, count(*) AS n FROM scans GROUP BY 1, 2) s
  ON s.record_id = r.id AND s.organization_id = r.organization_id
GROUP BY 1, 2;
