ALTER TABLE "reliance_configs" ADD COLUMN "last_test_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reliance_configs" ADD COLUMN "last_test_ok" boolean;--> statement-breakpoint
ALTER TABLE "reliance_configs" ADD COLUMN "last_test_http_status" integer;--> statement-breakpoint
ALTER TABLE "reliance_configs" ADD COLUMN "last_test_message" text;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD COLUMN "last_test_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD COLUMN "last_test_ok" boolean;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD COLUMN "last_test_http_status" integer;--> statement-breakpoint
ALTER TABLE "teams_webhooks" ADD COLUMN "last_test_message" text;