-- The latest record of each tag in each organization (issue 13, docs/decisions/
-- list-performance.md, "Seventh pass"): GET records/?latest=true read every record
-- of the organization against its newer ones (1.6 s at 1,000,000 records); it now
-- reads this table, kept here by triggers in the transaction that writes records.
CREATE TABLE "tag_latest_records" (
	"organization_id" uuid NOT NULL,
	"tag_id" bigint NOT NULL,
	"record_id" bigint NOT NULL,
	CONSTRAINT "tag_latest_records_organization_id_tag_id_pk" PRIMARY KEY("organization_id","tag_id")
);
--> statement-breakpoint
ALTER TABLE "tag_latest_records" ADD CONSTRAINT "tag_latest_records_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action; --> statement-breakpoint
-- Inserted records raise their tag's row to the statement's highest id. An upsert
-- with GREATEST: two uploads of one tag at once wait on the row and leave the
-- higher id, whichever commits first.
CREATE FUNCTION tag_latest_records_of_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_latest_records AS l (organization_id, tag_id, record_id)
    SELECT organization_id, tag_id, max(id) FROM changed
      GROUP BY organization_id, tag_id ORDER BY organization_id, tag_id
    ON CONFLICT (organization_id, tag_id)
      DO UPDATE SET record_id = GREATEST(l.record_id, EXCLUDED.record_id);
  RETURN NULL;
END $$;--> statement-breakpoint
-- A tag that lost records (deleted, or moved to another organization or tag: the
-- app does neither) is recomputed from the records left. Rows of an organization
-- being deleted are not written (its rows go with it).
CREATE FUNCTION tag_latest_records_recompute(pairs jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tag_latest_records l
    USING jsonb_to_recordset(pairs) AS p(organization_id uuid, tag_id bigint)
    WHERE l.organization_id = p.organization_id AND l.tag_id = p.tag_id;
  INSERT INTO tag_latest_records AS l (organization_id, tag_id, record_id)
    SELECT p.organization_id, p.tag_id, m.id
      FROM jsonb_to_recordset(pairs) AS p(organization_id uuid, tag_id bigint),
        LATERAL (SELECT max(r.id) AS id FROM records r
                  WHERE r.organization_id = p.organization_id AND r.tag_id = p.tag_id) m
      WHERE m.id IS NOT NULL
        AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = p.organization_id)
    ON CONFLICT (organization_id, tag_id)
      DO UPDATE SET record_id = GREATEST(l.record_id, EXCLUDED.record_id);
END $$;--> statement-breakpoint
CREATE FUNCTION tag_latest_records_of_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tag_latest_records_recompute(
    (SELECT jsonb_agg(DISTINCT jsonb_build_object('organization_id', organization_id, 'tag_id', tag_id))
       FROM removed));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION tag_latest_records_of_move() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tag_latest_records_recompute(jsonb_build_array(
    jsonb_build_object('organization_id', OLD.organization_id, 'tag_id', OLD.tag_id),
    jsonb_build_object('organization_id', NEW.organization_id, 'tag_id', NEW.tag_id)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER records_tag_latest_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tag_latest_records_of_insert();--> statement-breakpoint
CREATE TRIGGER records_tag_latest_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tag_latest_records_of_delete();--> statement-breakpoint
CREATE TRIGGER records_tag_latest_move AFTER UPDATE OF organization_id, tag_id ON records
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.tag_id IS DISTINCT FROM NEW.tag_id)
  EXECUTE FUNCTION tag_latest_records_of_move();--> statement-breakpoint
INSERT INTO tag_latest_records (organization_id, tag_id, record_id)
  SELECT organization_id, tag_id, max(id) FROM records GROUP BY organization_id, tag_id;
