import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { lines, plants, relianceConfigs, teamsWebhooks } from "../../db/schema/index.js";

const webhookColumns = {
  id: teamsWebhooks.id,
  lineId: teamsWebhooks.lineId,
  lastModifiedDateTime: teamsWebhooks.lastModifiedDateTime,
  urlHost: teamsWebhooks.urlHost,
};

const relianceColumns = {
  id: relianceConfigs.id,
  lineId: relianceConfigs.lineId,
  apiHost: relianceConfigs.apiHost,
  clientId: relianceConfigs.clientId,
  tokenEndpoint: relianceConfigs.tokenEndpoint,
  connectionStatus: relianceConfigs.connectionStatus,
  updatedTime: relianceConfigs.updatedTime,
};

/** Every query is scoped by the session's customer: another customer's rows are never seen. */
export function createNotificationsRepo(db: Tx) {
  return {
    async plantExists(customerId: string, plantId: string) {
      const [row] = await db
        .select({ id: plants.id })
        .from(plants)
        .where(and(eq(plants.customerId, customerId), eq(plants.id, plantId)));
      return row != null;
    },

    async line(customerId: string, lineId: string) {
      const [row] = await db
        .select({ id: lines.id, plantId: lines.plantId, name: lines.name })
        .from(lines)
        .where(and(eq(lines.customerId, customerId), eq(lines.id, lineId)));
      return row;
    },

    listWebhooks(customerId: string, plantId: string) {
      return db
        .select(webhookColumns)
        .from(teamsWebhooks)
        .innerJoin(lines, eq(lines.id, teamsWebhooks.lineId))
        .where(and(eq(teamsWebhooks.customerId, customerId), eq(teamsWebhooks.plantId, plantId)))
        .orderBy(asc(lines.name));
    },

    async webhook(customerId: string, id: string) {
      const [row] = await db
        .select({ ...webhookColumns, urlEncrypted: teamsWebhooks.urlEncrypted, lineName: lines.name })
        .from(teamsWebhooks)
        .innerJoin(lines, eq(lines.id, teamsWebhooks.lineId))
        .where(and(eq(teamsWebhooks.customerId, customerId), eq(teamsWebhooks.id, id)));
      return row;
    },

    async upsertWebhook(values: {
      customerId: string;
      plantId: string;
      lineId: string;
      urlEncrypted: string;
      urlHost: string;
      at: Date;
    }) {
      const [row] = await db
        .insert(teamsWebhooks)
        .values({ ...values, lastModifiedDateTime: values.at })
        .onConflictDoUpdate({
          target: teamsWebhooks.lineId,
          set: {
            urlEncrypted: values.urlEncrypted,
            urlHost: values.urlHost,
            lastModifiedDateTime: values.at,
          },
          // line_id is unique across customers; the line was checked to be this customer's.
          setWhere: eq(teamsWebhooks.customerId, values.customerId),
        })
        .returning(webhookColumns);
      return row;
    },

    async deleteWebhook(customerId: string, id: string) {
      const rows = await db
        .delete(teamsWebhooks)
        .where(and(eq(teamsWebhooks.customerId, customerId), eq(teamsWebhooks.id, id)))
        .returning({ id: teamsWebhooks.id });
      return rows.length > 0;
    },

    listReliance(customerId: string, plantId: string) {
      return db
        .select(relianceColumns)
        .from(relianceConfigs)
        .innerJoin(lines, eq(lines.id, relianceConfigs.lineId))
        .where(and(eq(relianceConfigs.customerId, customerId), eq(lines.plantId, plantId)))
        .orderBy(asc(lines.name));
    },

    async reliance(customerId: string, lineId: string) {
      const [row] = await db
        .select({ ...relianceColumns, clientSecretEncrypted: relianceConfigs.clientSecretEncrypted })
        .from(relianceConfigs)
        .where(and(eq(relianceConfigs.customerId, customerId), eq(relianceConfigs.lineId, lineId)));
      return row;
    },

    async upsertReliance(values: {
      customerId: string;
      lineId: string;
      apiHost: string;
      clientId: string;
      tokenEndpoint: string;
      clientSecretEncrypted: string;
      at: Date;
    }) {
      const { at, ...rest } = values;
      // A changed connection has not been tested yet: the status starts again from null.
      const set = { ...rest, connectionStatus: null, updatedTime: at };
      const [row] = await db
        .insert(relianceConfigs)
        .values(set)
        .onConflictDoUpdate({
          target: relianceConfigs.lineId,
          set,
          setWhere: eq(relianceConfigs.customerId, values.customerId),
        })
        .returning(relianceColumns);
      return row;
    },

    async setRelianceStatus(customerId: string, lineId: string, status: "SUCCESS" | "ERROR") {
      await db
        .update(relianceConfigs)
        .set({ connectionStatus: status })
        .where(and(eq(relianceConfigs.customerId, customerId), eq(relianceConfigs.lineId, lineId)));
    },

    async deleteReliance(customerId: string, lineId: string) {
      const rows = await db
        .delete(relianceConfigs)
        .where(and(eq(relianceConfigs.customerId, customerId), eq(relianceConfigs.lineId, lineId)))
        .returning({ id: relianceConfigs.id });
      return rows.length > 0;
    },
  };
}
