CREATE TABLE "mqtt_credentials" (
	"ingestor_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"password_hash" text NOT NULL,
	"password_set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_connected_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mqtt_credentials" ADD CONSTRAINT "mqtt_credentials_ingestor_id_ingestors_id_fk" FOREIGN KEY ("ingestor_id") REFERENCES "public"."ingestors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mqtt_credentials" ADD CONSTRAINT "mqtt_credentials_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;