import { topicMatches } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { dataSources, ingestors } from "../db/schema/index.js";

export type IngestSource = {
  id: string;
  topic: string;
  customerId: string;
  plantId: string;
  ingestorId: string;
};

/**
 * Every data source with its plant, re-read from the database on request, so changes made by any
 * process take effect within one refresh.
 */
export function createSourceDirectory(db: Db) {
  let sources: IngestSource[] = [];
  let refreshing: Promise<IngestSource[]> | undefined;
  return {
    current: () => sources,
    match: (topic: string) => sources.find((s) => topicMatches(s.topic, topic)),
    refresh(): Promise<IngestSource[]> {
      refreshing ??= db
        .select({
          id: dataSources.id,
          topic: dataSources.topic,
          customerId: dataSources.customerId,
          ingestorId: dataSources.ingestorId,
          plantId: ingestors.plantId,
        })
        .from(dataSources)
        .innerJoin(ingestors, eq(ingestors.id, dataSources.ingestorId))
        .orderBy(dataSources.createdAt)
        .then((rows) => {
          sources = rows;
          return rows;
        })
        .finally(() => {
          refreshing = undefined;
        });
      return refreshing;
    },
  };
}
export type SourceDirectory = ReturnType<typeof createSourceDirectory>;
