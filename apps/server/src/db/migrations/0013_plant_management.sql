-- Plant management (issue 28 §1): plants can be deactivated (kept with their lines and records,
-- offered in no plant picker), and a customer's plant names are unique ignoring letter case, by
-- an index so that two creates at once cannot both pass (the service answers its violation 409).
--
-- Names that already differ only in case (possible until now: the old index compared them as
-- written) would make the new index fail to build; every such plant but the oldest gets its id's
-- first 8 characters appended, so no existing data can make this migration fail.
DROP INDEX "plants_customer_name_uq";--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "plants" AS p SET "name" = p."name" || ' (' || left(p."id"::text, 8) || ')'
WHERE EXISTS (
  SELECT 1 FROM "plants" AS o
  WHERE o."customer_id" = p."customer_id" AND lower(o."name") = lower(p."name")
    AND (o."created_at", o."id") < (p."created_at", p."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "plants_customer_name_ci_uq" ON "plants" USING btree ("customer_id",lower("name"));
