import { eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { ingestors, mqttCredentials } from "../../db/schema/index.js";

/** What the embedded broker needs to check a CONNECT and to keep checking the connection. */
export type BrokerCredential = {
  ingestorId: string;
  customerId: string;
  plantId: string;
  passwordHash: string;
};

export function createMqttCredentialsRepo(db: Tx) {
  return {
    async find(ingestorId: string) {
      const [row] = await db
        .select({
          username: mqttCredentials.ingestorId,
          passwordSetAt: mqttCredentials.passwordSetAt,
          lastConnectedAt: mqttCredentials.lastConnectedAt,
        })
        .from(mqttCredentials)
        .where(eq(mqttCredentials.ingestorId, ingestorId));
      return row;
    },

    /** Sets a new password hash (the first or a replacement). */
    async setPassword(values: { ingestorId: string; customerId: string; passwordHash: string; at: Date }) {
      const [row] = await db
        .insert(mqttCredentials)
        .values({ ...values, passwordSetAt: values.at })
        .onConflictDoUpdate({
          target: mqttCredentials.ingestorId,
          set: { passwordHash: values.passwordHash, passwordSetAt: values.at },
        })
        .returning({
          username: mqttCredentials.ingestorId,
          passwordSetAt: mqttCredentials.passwordSetAt,
          lastConnectedAt: mqttCredentials.lastConnectedAt,
        });
      if (!row) throw new Error("upsert returned nothing");
      return row;
    },

    async forBroker(ingestorId: string): Promise<BrokerCredential | undefined> {
      const [row] = await db
        .select({
          ingestorId: mqttCredentials.ingestorId,
          customerId: mqttCredentials.customerId,
          plantId: ingestors.plantId,
          passwordHash: mqttCredentials.passwordHash,
        })
        .from(mqttCredentials)
        .innerJoin(ingestors, eq(ingestors.id, mqttCredentials.ingestorId))
        .where(eq(mqttCredentials.ingestorId, ingestorId));
      return row;
    },

    /** The current password hash of each of these ingestors (missing = no credential any more). */
    async passwordHashes(ingestorIds: string[]): Promise<Map<string, string>> {
      if (ingestorIds.length === 0) return new Map();
      const rows = await db
        .select({ ingestorId: mqttCredentials.ingestorId, passwordHash: mqttCredentials.passwordHash })
        .from(mqttCredentials)
        .where(inArray(mqttCredentials.ingestorId, ingestorIds));
      return new Map(rows.map((r) => [r.ingestorId, r.passwordHash]));
    },

    async touch(ingestorId: string, at: Date) {
      await db
        .update(mqttCredentials)
        .set({ lastConnectedAt: at })
        .where(eq(mqttCredentials.ingestorId, ingestorId));
    },
  };
}
export type MqttCredentialsRepo = ReturnType<typeof createMqttCredentialsRepo>;
