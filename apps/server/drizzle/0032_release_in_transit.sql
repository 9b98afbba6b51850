-- Release decision rules (issue 35, docs/decisions/disposition.md): the reason
-- a release was signed before the trip ended, and the organization setting that
-- allows it (off by default).
ALTER TABLE "record_dispositions" ADD COLUMN "transit_reason" text;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "allow_release_in_transit" boolean DEFAULT false NOT NULL;