-- The tag list's latest record of each tag (issue 13, docs/decisions/list-performance.md):
-- one index probe per tag for its highest id, in place of a hash of every record.
CREATE INDEX "records_org_tag_id_idx" ON "records" USING btree ("organization_id","tag_id","id" DESC NULLS LAST);