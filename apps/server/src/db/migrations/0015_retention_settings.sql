CREATE TABLE "retention_settings" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"part_records_days" integer,
	"evaluations_days" integer,
	"resolved_alerts_days" integer,
	"audit_log_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "retention_settings" ADD CONSTRAINT "retention_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_events_evaluation_idx" ON "alert_events" USING btree ("evaluation_id") WHERE "alert_events"."evaluation_id" is not null;--> statement-breakpoint
CREATE INDEX "alerts_resolved_customer_idx" ON "alerts" USING btree ("customer_id","resolved_at") WHERE "alerts"."state" = 'RESOLVED';