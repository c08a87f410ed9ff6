-- Part records partitioned by time (issue 31 §1; docs/decisions/0305-part-records-partitioned-by-month.md).
--
-- part_records becomes a table partitioned by range of ts: one partition a calendar month (UTC),
-- named part_records_pYYYY_MM, created ahead by the worker's housekeeping
-- (db/partitions.ts), and a DEFAULT partition that takes any
-- record no month partition holds yet (a late or far-future timestamp); housekeeping moves those
-- into their month's partition. The primary key (station_id, ts, part_id, op) contains the
-- partition key, so it stays the idempotency key across partitions.
--
-- In place, without copying a record: the existing table is renamed part_records_legacy and
-- attached whole as the partition from MINVALUE to the first day of the month after the later of
-- now and its newest record. Attaching checks that range with one sequential read of the table
-- (200,000 records: 41 ms on PGlite; on a database of hundreds of millions, minutes) and keeps
-- its indexes, which match the new table's and are attached rather than rebuilt. Retention
-- deletes from it in batches and drops it whole once its newest month is past every customer's
-- horizon. An empty table (a new installation) is dropped instead.
--
-- Migrations run at start-up before any role takes records, and every process of one
-- installation waits for them (docs/decisions/0222-migrations-under-a-session-advisory-lock.md).
ALTER TABLE "part_records" RENAME TO "part_records_legacy";--> statement-breakpoint
ALTER TABLE "part_records_legacy" RENAME CONSTRAINT "part_records_station_id_ts_part_id_op_pk" TO "part_records_legacy_pkey";--> statement-breakpoint
ALTER TABLE "part_records_legacy" RENAME CONSTRAINT "part_records_station_id_stations_id_fk" TO "part_records_legacy_station_id_fkey";--> statement-breakpoint
ALTER INDEX "part_records_station_part_idx" RENAME TO "part_records_legacy_station_part_idx";--> statement-breakpoint
CREATE TABLE "part_records" (
	"station_id" uuid NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"part_id" text NOT NULL,
	"op" smallint DEFAULT 1 NOT NULL,
	"model_number" text,
	"num_values" double precision[],
	"text_values" text[],
	CONSTRAINT "part_records_station_id_ts_part_id_op_pk" PRIMARY KEY("station_id","ts","part_id","op")
) PARTITION BY RANGE ("ts");--> statement-breakpoint
ALTER TABLE "part_records" ADD CONSTRAINT "part_records_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "part_records_station_part_idx" ON "part_records" USING btree ("station_id","part_id","ts","op");--> statement-breakpoint
CREATE TABLE "part_records_default" PARTITION OF "part_records" DEFAULT;--> statement-breakpoint
DO $$
DECLARE
	upper_bound timestamptz;
BEGIN
	IF EXISTS (SELECT 1 FROM "part_records_legacy") THEN
		SELECT (date_trunc('month', greatest(now(), max("ts")) AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
			INTO upper_bound FROM "part_records_legacy";
		EXECUTE format('ALTER TABLE "part_records" ATTACH PARTITION "part_records_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', upper_bound);
	ELSE
		DROP TABLE "part_records_legacy";
	END IF;
END $$;
