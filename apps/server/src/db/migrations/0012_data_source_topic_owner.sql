-- Every MQTT topic belongs to one plant (docs/decisions.md): a data source's topic filter may not
-- overlap a data source's of another plant's ingestor, or one customer's source would read
-- another's records. The service checks the overlap (MQTT wildcards, topicFiltersOverlap) after
-- taking this transaction-scoped advisory lock, so two creates — whoever's — run the check and
-- the insert one after the other. The trigger below takes the same lock and refuses what SQL
-- can see without the wildcard rules: the exact topic of another plant's source, from any
-- writer. Two sources of one plant may share a topic, so a unique index on the topic cannot say
-- this. Its unique_violation names the constraint 'data_sources_topic_owner', which the service
-- answers with the usual 409.
--
-- Rows already stored are not checked (a trigger only sees new writes), so no existing data can
-- make this migration fail; topic ownership was checked before every insert until now.
CREATE FUNCTION "data_sources_topic_owner"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Namespace 7320 (data source topics), key 0: the lock every topic write takes, until commit.
  PERFORM pg_advisory_xact_lock(7320, 0);
  IF EXISTS (
    SELECT 1 FROM "data_sources"
    WHERE "topic" = NEW."topic" AND "ingestor_id" <> NEW."ingestor_id"
  ) THEN
    RAISE EXCEPTION USING
      ERRCODE = 'unique_violation',
      CONSTRAINT = 'data_sources_topic_owner',
      TABLE = 'data_sources',
      MESSAGE = 'the topic belongs to a data source of another plant';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "data_sources_topic_owner" BEFORE INSERT OR UPDATE OF "topic", "ingestor_id" ON "data_sources"
  FOR EACH ROW EXECUTE FUNCTION "data_sources_topic_owner"();
