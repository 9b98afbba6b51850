CREATE TABLE "alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	"tag_serial_number" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"above_or_below" text NOT NULL,
	"first_point_idx" integer NOT NULL,
	"last_point_idx" integer NOT NULL,
	"degree_minutes" double precision NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"duration" double precision NOT NULL,
	"high_threshold" double precision,
	"low_threshold" double precision,
	"highest_recorded_temperature" double precision,
	"lowest_recorded_temperature" double precision,
	"number_of_points" integer DEFAULT 0 NOT NULL,
	"resolved" boolean DEFAULT false NOT NULL,
	"acknowledged" boolean DEFAULT false NOT NULL,
	"acknowledged_by_user_id" uuid,
	"acknowledged_at" timestamp with time zone,
	"acknowledge_comment" text,
	"acknowledge_client_type" text,
	"dismissed" boolean DEFAULT false NOT NULL,
	"dismissed_by_user_id" uuid,
	"dismissed_at" timestamp with time zone,
	CONSTRAINT "alarms_key" UNIQUE("record_id","above_or_below","kind","first_point_idx")
);
--> statement-breakpoint
CREATE TABLE "carrier_definitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_samples" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"frame_id" text,
	"temperature" double precision,
	CONSTRAINT "location_samples_record_time_key" UNIQUE("record_id","timestamp","latitude","longitude")
);
--> statement-breakpoint
CREATE TABLE "organization_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"arrival_radius_meters" double precision DEFAULT 1000 NOT NULL,
	"arrival_radius_units" text DEFAULT 'm' NOT NULL,
	"departure_radius_meters" double precision DEFAULT 1000 NOT NULL,
	"departure_radius_units" text DEFAULT 'm' NOT NULL,
	"num_points_to_arrive" integer DEFAULT 2 NOT NULL,
	"num_points_to_depart" integer DEFAULT 2 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_definitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"product_name" text NOT NULL,
	"high_threshold" double precision,
	"low_threshold" double precision,
	"num_consecutive_excursions" integer DEFAULT 1 NOT NULL,
	"cumulative_high_threshold" double precision,
	"cumulative_low_threshold" double precision,
	"cumulative_duration_high" text,
	"cumulative_duration_low" text
);
--> statement-breakpoint
CREATE TABLE "record_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	"tag_serial_number" text NOT NULL,
	"action_type" text NOT NULL,
	"latitude" double precision DEFAULT -91 NOT NULL,
	"longitude" double precision DEFAULT -181 NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" uuid,
	"tag_type" text,
	"mobile_device_type" text,
	"mobile_app_version" text,
	"upload_key" text NOT NULL,
	"reply" jsonb,
	"changes" jsonb,
	CONSTRAINT "record_actions_upload_key" UNIQUE("organization_id","upload_key")
);
--> statement-breakpoint
CREATE TABLE "record_series_chunks" (
	"record_id" bigint NOT NULL,
	"chunk_no" integer NOT NULL,
	"organization_id" uuid NOT NULL,
	"temps" real[] NOT NULL,
	CONSTRAINT "record_series_chunks_record_id_chunk_no_pk" PRIMARY KEY("record_id","chunk_no")
);
--> statement-breakpoint
CREATE TABLE "records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"tag_id" bigint NOT NULL,
	"tag_serial_number" text NOT NULL,
	"tag_type" text NOT NULL,
	"tag_status" text DEFAULT 'XT1_ACTIVE' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"temps_last_updated" timestamp with time zone,
	"primary_reference" text DEFAULT '' NOT NULL,
	"secondary_reference" text DEFAULT '' NOT NULL,
	"shipping_reference" text DEFAULT '' NOT NULL,
	"program_name" text DEFAULT '' NOT NULL,
	"carrier" text DEFAULT '' NOT NULL,
	"product_designation" text DEFAULT '' NOT NULL,
	"po_number" text DEFAULT '' NOT NULL,
	"shipper_location_id" bigint,
	"receiver_location_id" bigint,
	"high_threshold" double precision,
	"low_threshold" double precision,
	"cumulative_high_threshold" double precision,
	"cumulative_low_threshold" double precision,
	"cumulative_duration_high" text,
	"cumulative_duration_low" text,
	"num_consecutive_excursions" integer DEFAULT 1 NOT NULL,
	"start_time_seconds" bigint,
	"stop_time" timestamp with time zone,
	"measurement_interval" integer NOT NULL,
	"calculated_measurement_interval" double precision,
	"transmit_interval" integer,
	"start_delay" integer DEFAULT 0 NOT NULL,
	"highest_recorded_temperature" double precision,
	"lowest_recorded_temperature" double precision,
	"mean_kinetic_temp" double precision,
	"first_point" timestamp with time zone,
	"last_point" timestamp with time zone,
	"number_of_points" integer DEFAULT 0 NOT NULL,
	"series_length" integer DEFAULT 0 NOT NULL,
	"record_duration" double precision,
	"latest_temp" double precision,
	"last_scanned" timestamp with time zone,
	"last_scanned_user_id" uuid,
	"last_action_taken" timestamp with time zone,
	"alarm_recipients" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'OK' NOT NULL,
	"computed_status" text DEFAULT 'OK' NOT NULL,
	"last_latitude" double precision,
	"last_longitude" double precision,
	"memory_health" text,
	"battery_health" text,
	"trip_begin_time" timestamp with time zone,
	"trip_end_time" timestamp with time zone,
	"trip_status" text DEFAULT 'NOT_DEPARTED' NOT NULL,
	"trip_manual" boolean DEFAULT false NOT NULL,
	"report_exists" boolean DEFAULT false NOT NULL,
	"health_reported_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "records_tag_start_key" UNIQUE("tag_id","start_time_seconds")
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"record_id" bigint,
	"tag_id" bigint NOT NULL,
	"tag_serial_number" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" uuid,
	"latitude" double precision,
	"longitude" double precision,
	"highest_recorded_temp" double precision,
	"lowest_recorded_temp" double precision,
	"mean_kinetic_temp" double precision,
	"latest_temp" double precision,
	"excursion_duration_above" double precision,
	"excursion_duration_below" double precision,
	"tag_status" text,
	"measurement_interval" integer,
	"start_delay" integer,
	"high_threshold" double precision,
	"low_threshold" double precision,
	"primary_reference" text DEFAULT '' NOT NULL,
	"secondary_reference" text DEFAULT '' NOT NULL,
	"shipping_reference" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'OK' NOT NULL,
	"mobile_device_type" text,
	"mobile_app_version" text,
	"number_of_points" integer DEFAULT 0 NOT NULL,
	"start_time_seconds" bigint,
	"stop_time" timestamp with time zone,
	"temps_offset_index" integer DEFAULT 0 NOT NULL,
	"temps_length" integer DEFAULT 0 NOT NULL,
	"upload_key" text NOT NULL,
	CONSTRAINT "scans_upload_key" UNIQUE("organization_id","upload_key")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"serial_number" text NOT NULL,
	"tag_type" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"last_record_id" bigint,
	"running" boolean DEFAULT false NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"pending_command" jsonb,
	CONSTRAINT "tags_serial_number_key" UNIQUE("serial_number")
);
--> statement-breakpoint
CREATE TABLE "travel_locations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"origin" boolean DEFAULT false NOT NULL,
	"destination" boolean DEFAULT false NOT NULL,
	"timezone" text
);
--> statement-breakpoint
CREATE TABLE "user_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"expiry" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_acknowledged_by_user_id_users_id_fk" FOREIGN KEY ("acknowledged_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_dismissed_by_user_id_users_id_fk" FOREIGN KEY ("dismissed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_definitions" ADD CONSTRAINT "carrier_definitions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_samples" ADD CONSTRAINT "location_samples_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_samples" ADD CONSTRAINT "location_samples_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD CONSTRAINT "organization_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_definitions" ADD CONSTRAINT "product_definitions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_actions" ADD CONSTRAINT "record_actions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_actions" ADD CONSTRAINT "record_actions_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_actions" ADD CONSTRAINT "record_actions_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_series_chunks" ADD CONSTRAINT "record_series_chunks_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_series_chunks" ADD CONSTRAINT "record_series_chunks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_shipper_location_id_travel_locations_id_fk" FOREIGN KEY ("shipper_location_id") REFERENCES "public"."travel_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_receiver_location_id_travel_locations_id_fk" FOREIGN KEY ("receiver_location_id") REFERENCES "public"."travel_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_last_scanned_user_id_users_id_fk" FOREIGN KEY ("last_scanned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_locations" ADD CONSTRAINT "travel_locations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarms_org_created_idx" ON "alarms" USING btree ("organization_id","created");--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_definitions_org_name_key" ON "carrier_definitions" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "location_samples_record_idx" ON "location_samples" USING btree ("record_id","timestamp");--> statement-breakpoint
CREATE INDEX "product_definitions_org_idx" ON "product_definitions" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "record_actions_record_idx" ON "record_actions" USING btree ("record_id","timestamp");--> statement-breakpoint
CREATE INDEX "records_org_last_action_idx" ON "records" USING btree ("organization_id","last_action_taken" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "records_org_created_idx" ON "records" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "scans_record_idx" ON "scans" USING btree ("record_id","timestamp");--> statement-breakpoint
CREATE INDEX "scans_org_created_idx" ON "scans" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "scans_org_timestamp_idx" ON "scans" USING btree ("organization_id","timestamp");--> statement-breakpoint
CREATE INDEX "tags_org_idx" ON "tags" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "travel_locations_org_idx" ON "travel_locations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "user_tokens_user_idx" ON "user_tokens" USING btree ("user_id");