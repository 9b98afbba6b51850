-- GET records/?latest=true in its default order (newest last action first, then the
-- record; issue 13, docs/decisions/list-performance.md, "Eighth pass"): the page's
-- record ids from this index, where PostgreSQL merged every latest record with the
-- records to sort them (45 ms a page at 50,000 tags).
CREATE INDEX "tag_latest_records_record_order_idx" ON "tag_latest_records" USING btree ("organization_id","last_action_taken" DESC NULLS LAST,"record_id" DESC NULLS LAST);
