import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { challengeParts, lineFeeders, lines, modelNumbers, plants } from "../../db/schema/index.js";

/** Advisory lock namespace (the first key of pg_advisory_xact_lock(int, int)): a customer's feeder graph. */
const LOCK_FEEDERS = 7310;

export function createLinesRepo(db: Tx) {
  return {
    /**
     * Serialises changes of one customer's feeder graph until the transaction ends: the cycle check
     * reads the graph after taking it, so two updates that together close a cycle see each other.
     */
    async lockFeederGraph(customerId: string) {
      await db.execute(sql`select pg_advisory_xact_lock(${LOCK_FEEDERS}, hashtext(${customerId}))`);
    },

    /** Which lines feed which, for every line of the customer but `exceptLineId`. */
    async fedByGraph(customerId: string, exceptLineId: string): Promise<Map<string, string[]>> {
      const rows = await db
        .select({ lineId: lineFeeders.lineId, feederLineId: lineFeeders.feederLineId })
        .from(lineFeeders)
        .where(and(eq(lineFeeders.customerId, customerId), ne(lineFeeders.lineId, exceptLineId)));
      const graph = new Map<string, string[]>();
      for (const r of rows) graph.set(r.lineId, [...(graph.get(r.lineId) ?? []), r.feederLineId]);
      return graph;
    },

    /** How many of these ids are lines of the customer. */
    async countLines(customerId: string, ids: readonly string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db
        .select({ id: lines.id })
        .from(lines)
        .where(and(eq(lines.customerId, customerId), inArray(lines.id, [...ids])));
      return rows.length;
    },

    async replaceFeeders(customerId: string, lineId: string, feederIds: readonly string[]) {
      await db.delete(lineFeeders).where(eq(lineFeeders.lineId, lineId));
      if (feederIds.length)
        await db
          .insert(lineFeeders)
          .values(feederIds.map((feederLineId) => ({ customerId, lineId, feederLineId })));
    },

    async update(customerId: string, lineId: string, set: Partial<typeof lines.$inferInsert>) {
      if (Object.keys(set).length === 0) return;
      await db
        .update(lines)
        .set(set)
        .where(and(eq(lines.customerId, customerId), eq(lines.id, lineId)));
    },

    /** Every plant of the customer with its lines, by name. */
    async plantsWithLines(customerId: string) {
      return db
        .select({
          plantId: plants.id,
          plantName: plants.name,
          id: lines.id,
          name: lines.name,
          friendlyName: lines.friendlyName,
        })
        .from(lines)
        .innerJoin(plants, eq(plants.id, lines.plantId))
        .where(eq(lines.customerId, customerId))
        .orderBy(asc(plants.name), asc(lines.name));
    },

    async challengePartIds(lineId: string): Promise<string[]> {
      const rows = await db
        .select({ v: challengeParts.partId })
        .from(challengeParts)
        .where(eq(challengeParts.lineId, lineId))
        .orderBy(asc(challengeParts.partId));
      return rows.map((r) => r.v);
    },

    async modelNumberValues(lineId: string): Promise<string[]> {
      const rows = await db
        .select({ v: modelNumbers.value })
        .from(modelNumbers)
        .where(eq(modelNumbers.lineId, lineId))
        .orderBy(asc(modelNumbers.value));
      return rows.map((r) => r.v);
    },
  };
}
