-- Running aggregates of a record's series (issue 13, docs/decisions/incremental-recompute.md):
-- derived data the ingest module folds appended points into; a missing row is
-- rebuilt by a full recompute, so existing records need no backfill. The
-- application role gets its rights from the default privileges (db/roles.ts).
CREATE TABLE "record_aggregates" (
	"record_id" bigint PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"state" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_aggregates" ADD CONSTRAINT "record_aggregates_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_aggregates" ADD CONSTRAINT "record_aggregates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;