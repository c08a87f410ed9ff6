CREATE TABLE "alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"comment" text,
	"cause" text,
	"evaluation_id" uuid
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"state" text DEFAULT 'OPEN' NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"rule" text NOT NULL,
	"score" double precision,
	"threshold" double precision,
	"clean_streak" integer DEFAULT 0 NOT NULL,
	"resolved_at" timestamp with time zone,
	"cause" text,
	"reliance_document_id" text
);
--> statement-breakpoint
CREATE TABLE "evaluations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"score" double precision,
	"threshold" double precision,
	"training_size" integer,
	"evaluation_size" integer,
	"last_record_ts" timestamp with time zone,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "monitor_rules" (
	"monitor_id" uuid NOT NULL,
	"type" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"runs" integer,
	"breaches" integer,
	"seconds" integer,
	CONSTRAINT "monitor_rules_monitor_id_type_pk" PRIMARY KEY("monitor_id","type")
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"plant_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"frequency" integer NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"alert_threshold" text DEFAULT 'medium' NOT NULL,
	"use_excluded_part_ids" boolean DEFAULT false NOT NULL,
	"use_excluded_model_numbers" boolean DEFAULT false NOT NULL,
	"filter" jsonb NOT NULL,
	"filter_md5" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_run_at" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_evaluated_at" timestamp with time zone,
	"last_state" text
);
--> statement-breakpoint
CREATE TABLE "notification_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"outbox_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"error" text,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"alert_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reliance_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"api_host" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_encrypted" text NOT NULL,
	"token_endpoint" text NOT NULL,
	"connection_status" text,
	"updated_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reliance_configs_line_id_unique" UNIQUE("line_id")
);
--> statement-breakpoint
CREATE TABLE "spc_limits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"signal_id" uuid NOT NULL,
	"model_number" text DEFAULT '*' NOT NULL,
	"lsl_formula" text,
	"lcl_formula" text,
	"ucl_formula" text,
	"usl_formula" text
);
--> statement-breakpoint
CREATE TABLE "teams_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"plant_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"url_encrypted" text NOT NULL,
	"url_host" text NOT NULL,
	"last_modified_date_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_webhooks_line_id_unique" UNIQUE("line_id")
);
--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_rules" ADD CONSTRAINT "monitor_rules_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_outbox_id_notification_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."notification_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reliance_configs" ADD CONSTRAINT "reliance_configs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reliance_configs" ADD CONSTRAINT "reliance_configs_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spc_limits" ADD CONSTRAINT "spc_limits_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spc_limits" ADD CONSTRAINT "spc_limits_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spc_limits" ADD CONSTRAINT "spc_limits_signal_id_signals_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD CONSTRAINT "teams_webhooks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD CONSTRAINT "teams_webhooks_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD CONSTRAINT "teams_webhooks_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_events_alert_idx" ON "alert_events" USING btree ("alert_id","at");--> statement-breakpoint
CREATE INDEX "alerts_line_opened_idx" ON "alerts" USING btree ("line_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_open_per_monitor_uq" ON "alerts" USING btree ("monitor_id") WHERE "alerts"."state" <> 'RESOLVED';--> statement-breakpoint
CREATE UNIQUE INDEX "evaluations_monitor_slot_uq" ON "evaluations" USING btree ("monitor_id","slot");--> statement-breakpoint
CREATE UNIQUE INDEX "monitors_line_type_name_uq" ON "monitors" USING btree ("line_id","type","name");--> statement-breakpoint
CREATE INDEX "monitors_line_md5_idx" ON "monitors" USING btree ("line_id","filter_md5");--> statement-breakpoint
CREATE INDEX "monitors_due_idx" ON "monitors" USING btree ("next_run_at") WHERE "monitors"."active";--> statement-breakpoint
CREATE INDEX "notification_attempts_outbox_idx" ON "notification_attempts" USING btree ("outbox_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_outbox_alert_channel_uq" ON "notification_outbox" USING btree ("alert_id","channel");--> statement-breakpoint
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox" USING btree ("next_attempt_at") WHERE "notification_outbox"."state" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "spc_limits_signal_model_uq" ON "spc_limits" USING btree ("signal_id","model_number");