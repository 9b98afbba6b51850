-- The search box's serial numbers (issue 13, docs/decisions/list-performance.md
-- "Search"): record_tag_serials holds every suffix of the lower-cased serial
-- number of each (organization, tag, serial number) its records carry, so the
-- tags whose serial number contains a word are one btree range, and the
-- records are then found by tag id; the records' own trigram index no longer
-- carries the serial number (its digit trigrams made every search of a serial
-- number read most of the index).
CREATE TABLE "record_tag_serials" (
	"organization_id" uuid NOT NULL,
	"suffix" text COLLATE "C" NOT NULL,
	"tag_id" bigint NOT NULL,
	CONSTRAINT "record_tag_serials_organization_id_suffix_tag_id_pk" PRIMARY KEY("organization_id","suffix","tag_id")
);
--> statement-breakpoint
DROP INDEX "records_search_idx";--> statement-breakpoint
ALTER TABLE "record_tag_serials" ADD CONSTRAINT "record_tag_serials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "records_search_fields_idx" ON "records" USING gin (("id"::text || E'\n' || "primary_reference" || E'\n' || "secondary_reference" || E'\n' || "shipping_reference" || E'\n' || "program_name" || E'\n' || "carrier" || E'\n' || "product_designation" || E'\n' || "po_number") extensions.gin_trgm_ops);--> statement-breakpoint
-- Kept in the transaction that writes the record: inserted records, and a
-- record whose organization, tag or serial number changes (rows are never
-- removed; a stale row costs one index probe, and the search still tests the
-- record's own serial number).
CREATE FUNCTION record_tag_serials_of_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_tag_serials (organization_id, suffix, tag_id)
    SELECT DISTINCT s.organization_id, substr(s.serial, i), s.tag_id
      FROM (SELECT DISTINCT organization_id, tag_id, lower(tag_serial_number) AS serial FROM changed) s,
           generate_series(1, length(s.serial)) i
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION record_tag_serials_of_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_tag_serials (organization_id, suffix, tag_id)
    SELECT DISTINCT NEW.organization_id, substr(lower(NEW.tag_serial_number), i), NEW.tag_id
      FROM generate_series(1, length(lower(NEW.tag_serial_number))) i
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER records_tag_serials_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION record_tag_serials_of_insert();--> statement-breakpoint
CREATE TRIGGER records_tag_serials_update AFTER UPDATE OF organization_id, tag_id, tag_serial_number ON records
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.tag_id IS DISTINCT FROM NEW.tag_id
    OR OLD.tag_serial_number IS DISTINCT FROM NEW.tag_serial_number)
  EXECUTE FUNCTION record_tag_serials_of_update();--> statement-breakpoint
INSERT INTO record_tag_serials (organization_id, suffix, tag_id)
  SELECT DISTINCT s.organization_id, substr(s.serial, i), s.tag_id
    FROM (SELECT DISTINCT organization_id, tag_id, lower(tag_serial_number) AS serial FROM records) s,
         generate_series(1, length(s.serial)) i
  ON CONFLICT DO NOTHING;
