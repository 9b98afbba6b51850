CREATE TABLE "tag_day_sets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"chunk" integer NOT NULL,
	"bits" bit(8192) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_state_sets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"chunk" integer NOT NULL,
	"bits" bit(8192) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tag_day_sets" ADD CONSTRAINT "tag_day_sets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_state_sets" ADD CONSTRAINT "tag_state_sets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tag_day_sets_org_day_idx" ON "tag_day_sets" USING btree ("organization_id","day","chunk");--> statement-breakpoint
CREATE INDEX "tag_state_sets_org_idx" ON "tag_state_sets" USING btree ("organization_id","kind","chunk");--> statement-breakpoint
-- The running and idle tags of a range (issue 13, docs/decisions/
-- list-performance.md, "Thirteenth pass"): the tags with a record created in
-- it, united from one bit set per UTC day instead of counted distinct over
-- the range's records. A tag is bit (id & 8191) of set (id >> 13).
CREATE FUNCTION tag_set_of(tag bigint) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (tag >> 13)::integer $$;
--> statement-breakpoint
CREATE FUNCTION tag_bit_of(tag bigint) RETURNS bit(8192)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT set_bit(B'0'::bit(8192), (tag & 8191)::integer, 1)::bit(8192) $$;
--> statement-breakpoint
-- The UTC day of an instant, whatever the session's time zone.
CREATE FUNCTION tag_day_of(t timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (t AT TIME ZONE 'UTC')::date $$;
--> statement-breakpoint
-- One day's set of one organization written again from its records, holding
-- the organization's fold lock (the fold takes it too, or skips): the rows it
-- deletes are those its statement sees, and a row another transaction appends
-- meanwhile stays beside the new one, so no tag of a record is ever lost.
CREATE FUNCTION tag_days_recount(org uuid, d date, set_no integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('tag_day_sets:' || org::text, 0));
  DELETE FROM tag_day_sets WHERE organization_id = org AND day = d AND chunk = set_no;
  INSERT INTO tag_day_sets (organization_id, day, chunk, bits)
  SELECT org, d, set_no, bit_or(tag_bit_of(t.tag_id))
  FROM (SELECT DISTINCT r.tag_id FROM records r
    WHERE r.organization_id = org
      AND r.created >= (d::timestamp AT TIME ZONE 'UTC') AND r.created < ((d + 1)::timestamp AT TIME ZONE 'UTC')
      AND tag_set_of(r.tag_id) = set_no) t
  HAVING count(*) > 0;
END $$;
--> statement-breakpoint
-- Inserted records (one statement, one record or a COPY of many): their tags' bits, appended.
CREATE FUNCTION tag_days_of_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_day_sets (organization_id, day, chunk, bits)
  SELECT c.organization_id, c.day, tag_set_of(c.tag_id), bit_or(tag_bit_of(c.tag_id))
  FROM (SELECT DISTINCT n.organization_id, tag_day_of(n.created) AS day, n.tag_id FROM changed n) c
  GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Deleted records: their days' sets recounted (an organization being deleted takes its rows with it).
CREATE FUNCTION tag_days_of_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  g record;
BEGIN
  FOR g IN SELECT DISTINCT c.organization_id AS org, tag_day_of(c.created) AS d, tag_set_of(c.tag_id) AS s
    FROM changed c
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
    ORDER BY 1, 2, 3
  LOOP
    PERFORM tag_days_recount(g.org, g.d, g.s);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A record moved to another organization, tag or UTC day (the app never does;
-- the statements of an administrator might): out of the old day's set by a
-- recount, its bit appended to the new one.
CREATE FUNCTION tag_days_of_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id) THEN
    PERFORM tag_days_recount(OLD.organization_id, tag_day_of(OLD.created), tag_set_of(OLD.tag_id));
  END IF;
  INSERT INTO tag_day_sets (organization_id, day, chunk, bits)
  VALUES (NEW.organization_id, tag_day_of(NEW.created), tag_set_of(NEW.tag_id), tag_bit_of(NEW.tag_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER records_tag_days_insert AFTER INSERT ON records REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tag_days_of_insert();--> statement-breakpoint
CREATE TRIGGER records_tag_days_delete AFTER DELETE ON records REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tag_days_of_delete();--> statement-breakpoint
CREATE TRIGGER records_tag_days_update AFTER UPDATE ON records FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.tag_id IS DISTINCT FROM NEW.tag_id
    OR tag_day_of(OLD.created) IS DISTINCT FROM tag_day_of(NEW.created))
  EXECUTE FUNCTION tag_days_of_update();--> statement-breakpoint
-- Tags inserted or deleted: each flips its bit in its organization's 'tags'
-- set, and in 'running' when it runs. XOR rows commute, so concurrent writes
-- need no lock.
CREATE FUNCTION tag_states_of_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_state_sets (organization_id, kind, chunk, bits)
  SELECT c.organization_id, k.kind, tag_set_of(c.id), bit_xor(tag_bit_of(c.id))
  FROM changed c CROSS JOIN (VALUES ('tags'), ('running')) AS k(kind)
  WHERE (k.kind = 'tags' OR c.running)
    AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)
  GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A tag moved to another organization, started or stopped: the XOR of its
-- sets before and after (a bit in both cancels out).
CREATE FUNCTION tag_states_of_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.id IS DISTINCT FROM NEW.id THEN
    RAISE EXCEPTION 'a tag''s id does not change (tag_state_sets)';
  END IF;
  INSERT INTO tag_state_sets (organization_id, kind, chunk, bits)
  SELECT v.org, v.kind, tag_set_of(NEW.id), tag_bit_of(NEW.id)
  FROM (VALUES (OLD.organization_id, 'tags', true), (OLD.organization_id, 'running', OLD.running),
      (NEW.organization_id, 'tags', true), (NEW.organization_id, 'running', NEW.running))
    AS v(org, kind, present)
  WHERE v.present AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = v.org)
  GROUP BY v.org, v.kind
  HAVING count(*) % 2 = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tags_states_insert AFTER INSERT ON tags REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tag_states_of_statement();--> statement-breakpoint
CREATE TRIGGER tags_states_delete AFTER DELETE ON tags REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tag_states_of_statement();--> statement-breakpoint
CREATE TRIGGER tags_states_update AFTER UPDATE ON tags FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.running IS DISTINCT FROM NEW.running OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION tag_states_of_update();--> statement-breakpoint
-- The data already there (the triggers above hold records and tags against
-- writes until this migration commits).
INSERT INTO tag_day_sets (organization_id, day, chunk, bits)
SELECT c.organization_id, c.day, tag_set_of(c.tag_id), bit_or(tag_bit_of(c.tag_id))
FROM (SELECT DISTINCT r.organization_id, tag_day_of(r.created) AS day, r.tag_id FROM records r) c
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO tag_state_sets (organization_id, kind, chunk, bits)
SELECT t.organization_id, k.kind, tag_set_of(t.id), bit_xor(tag_bit_of(t.id))
FROM tags t CROSS JOIN (VALUES ('tags'), ('running')) AS k(kind)
WHERE k.kind = 'tags' OR t.running
GROUP BY 1, 2, 3;
--> statement-breakpoint
-- The statistics of a range sum a month's hours (about 700 rows): with their
-- counts in the index they come from a few index pages, not a heap page each.
DROP INDEX "record_hour_deltas_org_hour_idx";--> statement-breakpoint
CREATE INDEX "record_hour_deltas_org_hour_idx" ON "record_hour_deltas" USING btree ("organization_id","hour")
  INCLUDE ("records", "alarm_records", "active_records", "scans");
