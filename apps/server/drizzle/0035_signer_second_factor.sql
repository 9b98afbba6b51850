CREATE TABLE "user_recovery_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_second_factors" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret_encrypted" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_used_step" bigint,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alarm_signatures" ADD COLUMN "second_factor" text;--> statement-breakpoint
ALTER TABLE "record_dispositions" ADD COLUMN "second_factor" text;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "second_factor_for_signers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD COLUMN "second_factor_for_administrators" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_recovery_codes" ADD CONSTRAINT "user_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_second_factors" ADD CONSTRAINT "user_second_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_recovery_codes_user_idx" ON "user_recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
-- Custom (issue 37 item 7, docs/decisions/second-factor.md): the second factor a
-- signature was given with is one of two values, and it is part of the signature's
-- digest in the evidence chain. Only when present: a signature without one (every
-- row before this migration) keeps the content, and so the digest, it had.
ALTER TABLE "alarm_signatures" ADD CONSTRAINT "alarm_signatures_second_factor_check"
  CHECK ("second_factor" IN ('totp', 'recovery_code'));
--> statement-breakpoint
ALTER TABLE "record_dispositions" ADD CONSTRAINT "record_dispositions_second_factor_check"
  CHECK ("second_factor" IN ('totp', 'recovery_code'));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evidence_content(r alarm_signatures) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'alarm_id', r.alarm_id, 'record_id', r.record_id, 'user_id', r.user_id,
    'printed_name', r.printed_name, 'signed_at', evidence_time(r.signed_at),
    'meaning', r.meaning, 'comment', r.comment, 'client_type', r.client_type,
    'purpose', r.purpose)
  || CASE WHEN r.second_factor IS NULL THEN '{}'::jsonb
     ELSE jsonb_build_object('second_factor', r.second_factor) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evidence_content(r record_dispositions) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'record_id', r.record_id, 'decision', r.decision, 'comment', r.comment,
    'meaning', r.meaning, 'user_id', r.user_id, 'printed_name', r.printed_name,
    'signed_at', evidence_time(r.signed_at), 'client_type', r.client_type,
    'transit_reason', r.transit_reason)
  || CASE WHEN r.second_factor IS NULL THEN '{}'::jsonb
     ELSE jsonb_build_object('second_factor', r.second_factor) END
$$;
