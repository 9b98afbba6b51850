CREATE TABLE "calibration_certificate_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"certificate_id" uuid NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"byte_size" integer NOT NULL,
	"file_name" text NOT NULL,
	"uploaded_by_user_id" uuid NOT NULL,
	"uploaded_by_name" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calibration_certificate_files" ADD CONSTRAINT "calibration_certificate_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calibration_certificate_files" ADD CONSTRAINT "calibration_certificate_files_certificate_id_calibration_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."calibration_certificates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calibration_certificate_files_certificate_idx" ON "calibration_certificate_files" USING btree ("organization_id","certificate_id","id");