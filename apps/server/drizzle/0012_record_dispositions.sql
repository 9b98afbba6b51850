CREATE TABLE "record_dispositions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"decision" text NOT NULL,
	"comment" text NOT NULL,
	"meaning" text NOT NULL,
	"user_id" uuid NOT NULL,
	"printed_name" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"client_type" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_dispositions" ADD CONSTRAINT "record_dispositions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_dispositions" ADD CONSTRAINT "record_dispositions_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_dispositions_record_idx" ON "record_dispositions" USING btree ("organization_id","record_id","id");--> statement-breakpoint
-- Release decisions are append-only for every role, the application's
-- included (21 CFR Part 11: a signed decision is superseded, never edited).
CREATE FUNCTION record_dispositions_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'record_dispositions is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER record_dispositions_no_update_delete
  BEFORE UPDATE OR DELETE ON record_dispositions
  FOR EACH ROW EXECUTE FUNCTION record_dispositions_refuse_change();
--> statement-breakpoint
CREATE TRIGGER record_dispositions_no_truncate
  BEFORE TRUNCATE ON record_dispositions
  FOR EACH STATEMENT EXECUTE FUNCTION record_dispositions_refuse_change();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON record_dispositions FROM PUBLIC;
