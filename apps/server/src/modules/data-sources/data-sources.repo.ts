import { and, asc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { dataSources } from "../../db/schema/index.js";

/**
 * Advisory lock namespace (the first key of pg_advisory_xact_lock(int, int)) of data source
 * topics; migration 0012's trigger takes the same lock (7320, 0) on every topic write.
 */
const LOCK_TOPICS = 7320;
/** The constraint migration 0012's trigger names when a topic belongs to another plant. */
const TOPIC_OWNER_CONSTRAINT = "data_sources_topic_owner";

const columns = {
  id: dataSources.id,
  name: dataSources.name,
  topic: dataSources.topic,
  createdAt: dataSources.createdAt,
  ingestorId: dataSources.ingestorId,
};

export function createDataSourcesRepo(db: Tx) {
  return {
    /**
     * Serialises topic ownership changes of every customer until the transaction ends: the
     * overlap check reads the other plants' topics after taking it, so two creates racing on
     * overlapping topics see each other.
     */
    async lockTopics() {
      await db.execute(sql`select pg_advisory_xact_lock(${LOCK_TOPICS}, 0)`);
    },
    /** Topics of every other plant's data sources, across customers (topic ownership check). */
    topicsOutsideIngestor(ingestorId: string) {
      return db
        .select({ topic: dataSources.topic })
        .from(dataSources)
        .where(sql`${dataSources.ingestorId} <> ${ingestorId}`);
    },
    listByIngestor(customerId: string, ingestorId: string) {
      return db
        .select(columns)
        .from(dataSources)
        .where(and(eq(dataSources.customerId, customerId), eq(dataSources.ingestorId, ingestorId)))
        .orderBy(asc(sql`lower(${dataSources.name})`), asc(dataSources.id));
    },
    async find(customerId: string, id: string) {
      const [row] = await db
        .select(columns)
        .from(dataSources)
        .where(and(eq(dataSources.customerId, customerId), eq(dataSources.id, id)));
      return row;
    },
    /** A source of the ingestor with this name, ignoring letter case. */
    async findByName(ingestorId: string, name: string) {
      const [row] = await db
        .select({ id: dataSources.id })
        .from(dataSources)
        .where(and(eq(dataSources.ingestorId, ingestorId), sql`lower(${dataSources.name}) = lower(${name})`));
      return row;
    },
    async insert(values: { customerId: string; ingestorId: string; name: string; topic: string }) {
      const [row] = await db.insert(dataSources).values(values).returning(columns);
      if (!row) throw new Error("insert returned nothing");
      return row;
    },
    /** Deletes the source; false when it was not there (already deleted, or another customer's). */
    async delete(customerId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(dataSources)
        .where(and(eq(dataSources.customerId, customerId), eq(dataSources.id, id)))
        .returning({ id: dataSources.id });
      return rows.length > 0;
    },
  };
}

/**
 * PostgreSQL's unique_violation (23505), wherever the driver put it in the error's cause chain:
 * the constraint it names, or undefined when the error is not one.
 */
function uniqueViolation(err: unknown): { constraint?: unknown } | undefined {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === "23505") return e as { constraint?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown): boolean => uniqueViolation(err) !== undefined;

/** Whether the database refused a topic of another plant (migration 0012's trigger). */
export const isTopicOwnerViolation = (err: unknown): boolean =>
  uniqueViolation(err)?.constraint === TOPIC_OWNER_CONSTRAINT;
