ALTER TABLE "record_count_deltas" ADD COLUMN "tags_with_records" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The number of tags with a record (the rows of tag_latest_records), kept with the
-- organization's other counts (issue 13, docs/decisions/list-performance.md, "Ninth
-- pass"): `GET records/?latest=true` counted the organization's rows of that table on
-- every page. Rows the upsert of a new record's tag inserts count +1 (an upsert's
-- insert transition table holds only the rows it inserted, not those it updated), rows
-- a recompute deletes -1. Rows of an organization being deleted are not counted.
CREATE FUNCTION tag_latest_counts_of_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  sign bigint := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO record_count_deltas (organization_id, tags_with_records)
  SELECT c.organization_id, sign * count(*)
  FROM changed c
  WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
  GROUP BY c.organization_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tag_latest_records_counts_insert AFTER INSERT ON tag_latest_records
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tag_latest_counts_of_statement();--> statement-breakpoint
CREATE TRIGGER tag_latest_records_counts_delete AFTER DELETE ON tag_latest_records
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tag_latest_counts_of_statement();--> statement-breakpoint
-- An organization never changes on a row of tag_latest_records (it is half its key;
-- a moved record's tags are deleted and inserted again): refused, so the count cannot drift.
CREATE FUNCTION tag_latest_records_keep_organization() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'tag_latest_records: the organization of a row does not change';
END $$;
--> statement-breakpoint
CREATE TRIGGER tag_latest_records_keep_organization BEFORE UPDATE OF organization_id ON tag_latest_records
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION tag_latest_records_keep_organization();--> statement-breakpoint
-- The rows already there (the triggers above hold the table against writes until this commits).
INSERT INTO record_count_deltas (organization_id, tags_with_records)
SELECT organization_id, count(*) FROM tag_latest_records GROUP BY organization_id;
