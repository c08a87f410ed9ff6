ALTER TABLE "login_failures" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "login_failures_address_at_idx" ON "login_failures" USING btree ("client_address","at");