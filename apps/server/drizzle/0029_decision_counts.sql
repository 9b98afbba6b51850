ALTER TABLE "record_count_deltas" ADD COLUMN "released_records" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "record_count_deltas" ADD COLUMN "quarantined_records" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "record_count_deltas" ADD COLUMN "rejected_records" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The records of each latest decision, counted (issue 13, docs/decisions/
-- list-performance.md, "Thirteenth pass"): All Records filtered by Released
-- counted its matches (977,527 of 1,000,000, 1.1-1.4 s a page). A row of
-- record_latest_decisions counts for its organization while its record is in
-- that organization. Its rows are only inserted or updated (decisions are
-- append-only, and a record or an organization with a decision cannot be
-- deleted), and a record moving to another organization moves what counts.
CREATE FUNCTION decision_counts_of_latest() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO record_count_deltas (organization_id, released_records, quarantined_records, rejected_records)
    SELECT n.organization_id, count(*) FILTER (WHERE n.decision = 'RELEASED'),
      count(*) FILTER (WHERE n.decision = 'QUARANTINED'), count(*) FILTER (WHERE n.decision = 'REJECTED')
    FROM decided n
    JOIN records r ON r.id = n.record_id AND r.organization_id = n.organization_id
    GROUP BY n.organization_id;
  ELSE
    INSERT INTO record_count_deltas (organization_id, released_records, quarantined_records, rejected_records)
    SELECT n.organization_id,
      count(*) FILTER (WHERE n.decision = 'RELEASED') - count(*) FILTER (WHERE o.decision = 'RELEASED'),
      count(*) FILTER (WHERE n.decision = 'QUARANTINED') - count(*) FILTER (WHERE o.decision = 'QUARANTINED'),
      count(*) FILTER (WHERE n.decision = 'REJECTED') - count(*) FILTER (WHERE o.decision = 'REJECTED')
    FROM decided n
    JOIN undecided o ON o.organization_id = n.organization_id AND o.record_id = n.record_id
    JOIN records r ON r.id = n.record_id AND r.organization_id = n.organization_id
    WHERE o.decision IS DISTINCT FROM n.decision
    GROUP BY n.organization_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER record_latest_decisions_counts_insert AFTER INSERT ON record_latest_decisions
  REFERENCING NEW TABLE AS decided FOR EACH STATEMENT EXECUTE FUNCTION decision_counts_of_latest();--> statement-breakpoint
CREATE TRIGGER record_latest_decisions_counts_update AFTER UPDATE ON record_latest_decisions
  REFERENCING OLD TABLE AS undecided NEW TABLE AS decided FOR EACH STATEMENT
  EXECUTE FUNCTION decision_counts_of_latest();--> statement-breakpoint
-- The row keys of record_latest_decisions do not change (a trigger refuses it):
-- the counts above follow a row by its key.
CREATE FUNCTION record_latest_decisions_refuse_rekey() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the organization and record of a latest decision do not change';
END $$;
--> statement-breakpoint
CREATE TRIGGER record_latest_decisions_no_rekey BEFORE UPDATE ON record_latest_decisions FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.record_id IS DISTINCT FROM NEW.record_id)
  EXECUTE FUNCTION record_latest_decisions_refuse_rekey();--> statement-breakpoint
-- A record moved to another organization (the app never does): its latest
-- decision in the old organization stops counting there, its latest in the
-- new one (if it had one there before) counts again.
CREATE FUNCTION decision_counts_of_record_move() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_count_deltas (organization_id, released_records, quarantined_records, rejected_records)
  SELECT l.organization_id, v.sign * (l.decision = 'RELEASED')::int,
    v.sign * (l.decision = 'QUARANTINED')::int, v.sign * (l.decision = 'REJECTED')::int
  FROM (VALUES (OLD.organization_id, -1), (NEW.organization_id, 1)) AS v(org, sign)
  JOIN record_latest_decisions l ON l.organization_id = v.org AND l.record_id = NEW.id
  WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = v.org);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER records_decision_counts_move AFTER UPDATE ON records FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION decision_counts_of_record_move();--> statement-breakpoint
-- The decisions already there (the triggers above hold the tables against writes until this commits).
INSERT INTO record_count_deltas (organization_id, released_records, quarantined_records, rejected_records)
SELECT l.organization_id, count(*) FILTER (WHERE l.decision = 'RELEASED'),
  count(*) FILTER (WHERE l.decision = 'QUARANTINED'), count(*) FILTER (WHERE l.decision = 'REJECTED')
FROM record_latest_decisions l
JOIN records r ON r.id = l.record_id AND r.organization_id = l.organization_id
GROUP BY l.organization_id;
