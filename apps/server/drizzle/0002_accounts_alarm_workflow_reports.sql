CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_by_user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"permission_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_keys_prefix_unique" UNIQUE("prefix")
);
--> statement-breakpoint
CREATE TABLE "alarm_mail_event_alarms" (
	"alarm_id" bigint PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_mail_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"notification_type" text NOT NULL,
	"event_key" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"alarm_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"notification_type" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"destination" text,
	"to_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"cc_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"bcc_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"sms_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"comment" text,
	"serial_number" text,
	"custom_template_email" text,
	"custom_template_subject" text,
	"custom_template_sms" text,
	"custom_template_attachment" text,
	"record_id" bigint,
	"event_id" bigint NOT NULL,
	"message_key" text NOT NULL,
	"setting_id" bigint,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"root_rule" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" uuid,
	"product_name" text,
	"carrier_name" text,
	"notification_type" text NOT NULL,
	"status" text NOT NULL,
	"to_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"cc_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"bcc_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"sms_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"comment" text,
	"custom_template_email" text,
	"custom_template_subject" text,
	"custom_template_sms" text,
	"custom_template_attachment" text,
	"origin_location_id" bigint,
	"destination_location_id" bigint
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" uuid,
	"actor_name" text NOT NULL,
	"actor_email" text,
	"client_type" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"record_id" bigint,
	"field" text,
	"old_value" jsonb,
	"new_value" jsonb,
	"reason" text,
	"request_id" text
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid,
	"to" text[] DEFAULT '{}'::text[] NOT NULL,
	"cc" text[] DEFAULT '{}'::text[] NOT NULL,
	"bcc" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"dedupe_key" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "password_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_signatures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"alarm_id" bigint NOT NULL,
	"record_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"printed_name" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"meaning" text NOT NULL,
	"comment" text NOT NULL,
	"client_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"alarm_id" bigint NOT NULL,
	"record_id" bigint NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "calibration_certificate_devices" (
	"certificate_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"tag_id" bigint NOT NULL,
	"tag_type" text,
	"calibration_timestamp" timestamp with time zone,
	CONSTRAINT "calibration_certificate_devices_certificate_id_tag_id_pk" PRIMARY KEY("certificate_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "calibration_certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"model_name" text NOT NULL,
	"equipment" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"specifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_user_id" uuid,
	"created_by_name" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_display_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"role_id" uuid,
	"degrees_unit" text,
	"temperature_decimals" integer DEFAULT 1 NOT NULL,
	"hidden_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_display_rules_org_role_key" UNIQUE NULLS NOT DISTINCT("organization_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"file_name" text NOT NULL,
	"degrees_unit" text NOT NULL,
	"time_zone" text NOT NULL,
	"content" "bytea",
	"byte_size" integer,
	"created_by_user_id" uuid,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_mail_event_alarms" ADD CONSTRAINT "alarm_mail_event_alarms_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_mail_event_alarms" ADD CONSTRAINT "alarm_mail_event_alarms_event_id_alarm_mail_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alarm_mail_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_mail_events" ADD CONSTRAINT "alarm_mail_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_mail_events" ADD CONSTRAINT "alarm_mail_events_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_event_id_alarm_mail_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alarm_mail_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_setting_id_notification_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."notification_settings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_rules" ADD CONSTRAINT "notification_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_origin_location_id_travel_locations_id_fk" FOREIGN KEY ("origin_location_id") REFERENCES "public"."travel_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_destination_location_id_travel_locations_id_fk" FOREIGN KEY ("destination_location_id") REFERENCES "public"."travel_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_tokens" ADD CONSTRAINT "password_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_signatures" ADD CONSTRAINT "alarm_signatures_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_signatures" ADD CONSTRAINT "alarm_signatures_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calibration_certificate_devices" ADD CONSTRAINT "calibration_certificate_devices_certificate_id_calibration_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."calibration_certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calibration_certificate_devices" ADD CONSTRAINT "calibration_certificate_devices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calibration_certificates" ADD CONSTRAINT "calibration_certificates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calibration_certificates" ADD CONSTRAINT "calibration_certificates_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_display_rules" ADD CONSTRAINT "data_display_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_display_rules" ADD CONSTRAINT "data_display_rules_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_organization_idx" ON "api_keys" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_mail_events_key" ON "alarm_mail_events" USING btree ("organization_id","event_key");--> statement-breakpoint
CREATE INDEX "alarm_mail_events_pending_idx" ON "alarm_mail_events" USING btree ("created") WHERE "alarm_mail_events"."processed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_log_event_message_key" ON "notification_log" USING btree ("event_id","message_key");--> statement-breakpoint
CREATE INDEX "notification_log_org_created_idx" ON "notification_log" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "notification_log_record_idx" ON "notification_log" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "notification_rules_org_idx" ON "notification_rules" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "notification_settings_org_type_idx" ON "notification_settings" USING btree ("organization_id","notification_type");--> statement-breakpoint
CREATE INDEX "audit_events_org_time_idx" ON "audit_events" USING btree ("organization_id","occurred_at");--> statement-breakpoint
CREATE INDEX "audit_events_record_idx" ON "audit_events" USING btree ("organization_id","record_id","occurred_at");--> statement-breakpoint
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("organization_id","entity_type","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe_key" ON "mail_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status","created");--> statement-breakpoint
CREATE UNIQUE INDEX "password_tokens_hash_key" ON "password_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_tokens_user_idx" ON "password_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_signatures_alarm_key" ON "alarm_signatures" USING btree ("alarm_id");--> statement-breakpoint
CREATE INDEX "alarm_signatures_record_idx" ON "alarm_signatures" USING btree ("organization_id","record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_alarm_key" ON "notifications" USING btree ("user_id","alarm_id");--> statement-breakpoint
CREATE INDEX "notifications_user_open_idx" ON "notifications" USING btree ("organization_id","user_id","dismissed_at","created");--> statement-breakpoint
CREATE INDEX "calibration_certificate_devices_tag_idx" ON "calibration_certificate_devices" USING btree ("organization_id","tag_id");--> statement-breakpoint
CREATE INDEX "calibration_certificates_org_idx" ON "calibration_certificates" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "reports_org_record_idx" ON "reports" USING btree ("organization_id","record_id","created");