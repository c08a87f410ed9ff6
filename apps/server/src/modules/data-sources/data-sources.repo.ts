import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { dataSources } from "../../db/schema/index.js";

const columns = {
  id: dataSources.id,
  name: dataSources.name,
  topic: dataSources.topic,
  createdAt: dataSources.createdAt,
  ingestorId: dataSources.ingestorId,
};

export function createDataSourcesRepo(db: Tx) {
  return {
    listByIngestor(customerId: string, ingestorId: string) {
      return db
        .select(columns)
        .from(dataSources)
        .where(and(eq(dataSources.customerId, customerId), eq(dataSources.ingestorId, ingestorId)))
        .orderBy(asc(dataSources.name));
    },
    async find(customerId: string, id: string) {
      const [row] = await db
        .select(columns)
        .from(dataSources)
        .where(and(eq(dataSources.customerId, customerId), eq(dataSources.id, id)));
      return row;
    },
    async findByName(ingestorId: string, name: string) {
      const [row] = await db
        .select({ id: dataSources.id })
        .from(dataSources)
        .where(and(eq(dataSources.ingestorId, ingestorId), eq(dataSources.name, name)));
      return row;
    },
    async insert(values: { customerId: string; ingestorId: string; name: string; topic: string }) {
      const [row] = await db.insert(dataSources).values(values).returning(columns);
      if (!row) throw new Error("insert returned nothing");
      return row;
    },
    async delete(customerId: string, id: string) {
      await db.delete(dataSources).where(and(eq(dataSources.customerId, customerId), eq(dataSources.id, id)));
    },
  };
}
