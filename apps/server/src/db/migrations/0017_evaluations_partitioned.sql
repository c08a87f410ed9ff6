-- Evaluations partitioned by month of their slot (issue 31 §1;
-- docs/decisions/0305-part-records-partitioned-by-month.md), as part records are by migration 0016:
-- evaluations_pYYYY_MM created ahead by the worker's housekeeping (db/partitions.ts), a DEFAULT
-- partition for a slot no month partition holds, and the existing table attached in place as
-- evaluations_legacy. A partitioned table's primary key must hold the partition key: it becomes
-- (id, slot) — ids are random, so an id alone stays unique — and the old table's key is rebuilt
-- to match before it is attached (one index build; the attach then checks the range with one
-- sequential read). The (monitor_id, slot) unique index holds the partition key already.
ALTER TABLE "evaluations" RENAME TO "evaluations_legacy";--> statement-breakpoint
ALTER TABLE "evaluations_legacy" DROP CONSTRAINT "evaluations_pkey";--> statement-breakpoint
ALTER TABLE "evaluations_legacy" ADD CONSTRAINT "evaluations_legacy_pkey" PRIMARY KEY ("id", "slot");--> statement-breakpoint
ALTER TABLE "evaluations_legacy" RENAME CONSTRAINT "evaluations_customer_id_customers_id_fk" TO "evaluations_legacy_customer_id_fkey";--> statement-breakpoint
ALTER TABLE "evaluations_legacy" RENAME CONSTRAINT "evaluations_monitor_id_monitors_id_fk" TO "evaluations_legacy_monitor_id_fkey";--> statement-breakpoint
ALTER INDEX "evaluations_monitor_slot_uq" RENAME TO "evaluations_legacy_monitor_slot_uq";--> statement-breakpoint
CREATE TABLE "evaluations" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
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
	"details" jsonb,
	CONSTRAINT "evaluations_id_slot_pk" PRIMARY KEY("id","slot")
) PARTITION BY RANGE ("slot");--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluations_monitor_slot_uq" ON "evaluations" USING btree ("monitor_id","slot");--> statement-breakpoint
CREATE TABLE "evaluations_default" PARTITION OF "evaluations" DEFAULT;--> statement-breakpoint
DO $$
DECLARE
	upper_bound timestamptz;
BEGIN
	IF EXISTS (SELECT 1 FROM "evaluations_legacy") THEN
		SELECT (date_trunc('month', greatest(now(), max("slot")) AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
			INTO upper_bound FROM "evaluations_legacy";
		EXECUTE format('ALTER TABLE "evaluations" ATTACH PARTITION "evaluations_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', upper_bound);
	ELSE
		DROP TABLE "evaluations_legacy";
	END IF;
END $$;
