CREATE TABLE "audit_review_closures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"period" text NOT NULL,
	"user_id" uuid NOT NULL,
	"printed_name" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"comment" text NOT NULL,
	"client_type" text NOT NULL,
	"second_factor" text,
	"entries" integer NOT NULL,
	"reviewed" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_review_marks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"audit_event_id" bigint NOT NULL,
	"period" text NOT NULL,
	"reviewed_by_user_id" uuid NOT NULL,
	"reviewed_by_name" text NOT NULL,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"comment" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_review_closures" ADD CONSTRAINT "audit_review_closures_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_review_marks" ADD CONSTRAINT "audit_review_marks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_review_closures_period_idx" ON "audit_review_closures" USING btree ("organization_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_review_marks_event_idx" ON "audit_review_marks" USING btree ("organization_id","audit_event_id");--> statement-breakpoint
CREATE INDEX "audit_review_marks_period_idx" ON "audit_review_marks" USING btree ("organization_id","period");