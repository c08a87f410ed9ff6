ALTER TABLE "alerts" ALTER COLUMN "monitor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "kind" text DEFAULT 'monitor' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_open_no_data_per_line_uq" ON "alerts" USING btree ("line_id") WHERE "alerts"."kind" = 'no_data' and "alerts"."state" <> 'RESOLVED';