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
 *
 * A message's topic is matched to its data source once, by `resolve`, where the message arrives
 * (the embedded broker's authorizePublish, the MQTT client's handleMessage); the source travels
 * with the message from there. Storing asks only whether that source still exists (`has`).
 */
export function createSourceDirectory(db: Db) {
  let sources: IngestSource[] = [];
  let ids = new Set<string>();
  let refreshing: Promise<IngestSource[]> | undefined;
  return {
    current: () => sources,
    /** The data source a message's topic belongs to: the oldest whose filter matches it. */
    resolve: (topic: string): IngestSource | undefined => sources.find((s) => topicMatches(s.topic, topic)),
    /** Whether the data source is still there (not deleted since its message arrived). */
    has: (id: string) => ids.has(id),
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
          ids = new Set(rows.map((r) => r.id));
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
