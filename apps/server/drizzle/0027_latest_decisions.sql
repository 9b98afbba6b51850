CREATE TABLE "record_latest_decisions" (
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"disposition_id" bigint NOT NULL,
	"decision" text NOT NULL,
	CONSTRAINT "record_latest_decisions_organization_id_record_id_pk" PRIMARY KEY("organization_id","record_id")
);
--> statement-breakpoint
CREATE INDEX "record_latest_decisions_decision_idx" ON "record_latest_decisions" USING btree ("organization_id","decision","record_id");--> statement-breakpoint
-- Each record's latest release decision per organization, kept by a trigger (issue 13,
-- docs/decisions/review-queue.md): All Records filtered by a decision read every
-- record's latest decision (3.7 s at 1,000,000 records). Decisions are append-only, so
-- the row only moves to a higher id; two decisions inserted at once for one record (the
-- application takes the record's row lock first, so it does not happen) keep the higher
-- id whatever order they commit in (ON CONFLICT waits for the other and compares).
CREATE FUNCTION record_latest_decisions_of_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_latest_decisions (organization_id, record_id, disposition_id, decision)
  SELECT DISTINCT ON (d.organization_id, d.record_id) d.organization_id, d.record_id, d.id, d.decision
  FROM decided d
  ORDER BY d.organization_id, d.record_id, d.id DESC
  ON CONFLICT (organization_id, record_id) DO UPDATE
    SET disposition_id = EXCLUDED.disposition_id, decision = EXCLUDED.decision
    WHERE record_latest_decisions.disposition_id < EXCLUDED.disposition_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER record_dispositions_latest AFTER INSERT ON record_dispositions
  REFERENCING NEW TABLE AS decided FOR EACH STATEMENT
  EXECUTE FUNCTION record_latest_decisions_of_insert();--> statement-breakpoint
-- The decisions already there (the trigger above holds the table against writes until this commits).
INSERT INTO record_latest_decisions (organization_id, record_id, disposition_id, decision)
SELECT DISTINCT ON (organization_id, record_id) organization_id, record_id, id, decision
FROM record_dispositions
ORDER BY organization_id, record_id, id DESC;
