CREATE TABLE "records_awaiting_decision" (
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	CONSTRAINT "records_awaiting_decision_organization_id_record_id_pk" PRIMARY KEY("organization_id","record_id")
);
--> statement-breakpoint
ALTER TABLE "records_awaiting_decision" ADD CONSTRAINT "records_awaiting_decision_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The records without a release decision, kept by triggers (issue 13, the review queue
-- at scale: docs/decisions/review-queue.md, docs/decisions/list-performance.md "Twelfth
-- pass"). "Needs review" tested NOT EXISTS (a decision) on every record of the
-- organization: 2.8 s a call at 1,000,000 records. A record is in this table exactly
-- when it has no row in record_dispositions in its own organization. Decisions are
-- never updated nor deleted (append-only), so a record leaves it only by its first
-- decision, by moving to another organization, or with its deletion (the foreign key).
CREATE FUNCTION records_awaiting_decision_of_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO records_awaiting_decision (organization_id, record_id)
  SELECT n.organization_id, n.id FROM inserted n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER records_awaiting_decision_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
  EXECUTE FUNCTION records_awaiting_decision_of_insert();--> statement-breakpoint
CREATE FUNCTION records_awaiting_decision_of_move() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM records_awaiting_decision
  WHERE organization_id = OLD.organization_id AND record_id = OLD.id;
  INSERT INTO records_awaiting_decision (organization_id, record_id)
  SELECT NEW.organization_id, NEW.id
  WHERE NOT EXISTS (SELECT 1 FROM record_dispositions d
    WHERE d.organization_id = NEW.organization_id AND d.record_id = NEW.id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER records_awaiting_decision_move AFTER UPDATE OF organization_id ON records
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION records_awaiting_decision_of_move();--> statement-breakpoint
CREATE FUNCTION records_awaiting_decision_of_decision() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM records_awaiting_decision w
  USING decided d
  WHERE w.organization_id = d.organization_id AND w.record_id = d.record_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER record_dispositions_awaiting_decision AFTER INSERT ON record_dispositions
  REFERENCING NEW TABLE AS decided FOR EACH STATEMENT
  EXECUTE FUNCTION records_awaiting_decision_of_decision();--> statement-breakpoint
-- The records already there (the triggers above hold the tables against writes until this commits).
INSERT INTO records_awaiting_decision (organization_id, record_id)
SELECT r.organization_id, r.id FROM records r
WHERE NOT EXISTS (SELECT 1 FROM record_dispositions d
  WHERE d.organization_id = r.organization_id AND d.record_id = r.id);
