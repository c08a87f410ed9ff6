import { and, asc, count, countDistinct, desc, eq, gt, gte, isNotNull, ne } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import {
  alerts,
  lines,
  notificationAttempts,
  notificationOutbox,
  plants,
  relianceConfigs,
  teamsWebhooks,
} from "../../db/schema/index.js";

export type TestOutcomeRow = { at: Date; ok: boolean; httpStatus: number | null; message: string };

/** The last test's columns, cleared when the integration is saved again (a new URL is untested). */
const noTest = { lastTestAt: null, lastTestOk: null, lastTestHttpStatus: null, lastTestMessage: null };
const testSet = (t: TestOutcomeRow) => ({
  lastTestAt: t.at,
  lastTestOk: t.ok,
  lastTestHttpStatus: t.httpStatus,
  lastTestMessage: t.message,
});

const webhookColumns = {
  id: teamsWebhooks.id,
  lineId: teamsWebhooks.lineId,
  lastModifiedDateTime: teamsWebhooks.lastModifiedDateTime,
  urlHost: teamsWebhooks.urlHost,
  lastTestAt: teamsWebhooks.lastTestAt,
  lastTestOk: teamsWebhooks.lastTestOk,
  lastTestHttpStatus: teamsWebhooks.lastTestHttpStatus,
  lastTestMessage: teamsWebhooks.lastTestMessage,
};

const relianceColumns = {
  id: relianceConfigs.id,
  lineId: relianceConfigs.lineId,
  apiHost: relianceConfigs.apiHost,
  clientId: relianceConfigs.clientId,
  tokenEndpoint: relianceConfigs.tokenEndpoint,
  connectionStatus: relianceConfigs.connectionStatus,
  updatedTime: relianceConfigs.updatedTime,
  lastTestAt: relianceConfigs.lastTestAt,
  lastTestOk: relianceConfigs.lastTestOk,
  lastTestHttpStatus: relianceConfigs.lastTestHttpStatus,
  lastTestMessage: relianceConfigs.lastTestMessage,
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

    /** The line's webhook with its encrypted URL (the audit log compares the old URL to the new). */
    async webhookOfLine(customerId: string, lineId: string) {
      const [row] = await db
        .select({
          id: teamsWebhooks.id,
          urlEncrypted: teamsWebhooks.urlEncrypted,
          urlHost: teamsWebhooks.urlHost,
        })
        .from(teamsWebhooks)
        .where(and(eq(teamsWebhooks.customerId, customerId), eq(teamsWebhooks.lineId, lineId)));
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
            ...noTest,
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
      const set = { ...rest, connectionStatus: null, updatedTime: at, ...noTest };
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

    async setWebhookTest(customerId: string, id: string, outcome: TestOutcomeRow) {
      await db
        .update(teamsWebhooks)
        .set(testSet(outcome))
        .where(and(eq(teamsWebhooks.customerId, customerId), eq(teamsWebhooks.id, id)));
    },

    /** The connection status and the test's outcome, together. */
    async setRelianceTest(customerId: string, lineId: string, outcome: TestOutcomeRow) {
      await db
        .update(relianceConfigs)
        .set({ connectionStatus: outcome.ok ? "SUCCESS" : "ERROR", ...testSet(outcome) })
        .where(and(eq(relianceConfigs.customerId, customerId), eq(relianceConfigs.lineId, lineId)));
    },

    async deleteReliance(customerId: string, lineId: string) {
      const rows = await db
        .delete(relianceConfigs)
        .where(and(eq(relianceConfigs.customerId, customerId), eq(relianceConfigs.lineId, lineId)))
        .returning({ id: relianceConfigs.id });
      return rows.length > 0;
    },

    /**
     * Delivery health of a plant's lines on one channel: each line's last attempt, its failed
     * attempts since `since`, and its open alerts whose notification is still pending after a
     * failed attempt. Lines with none of these are left out.
     */
    async deliveryHealth(customerId: string, plantId: string, channel: "teams" | "etq", since: Date) {
      const scope = and(
        eq(notificationOutbox.customerId, customerId),
        eq(notificationOutbox.channel, channel),
        eq(lines.plantId, plantId),
      );
      const last = await db
        .selectDistinctOn([alerts.lineId], {
          lineId: alerts.lineId,
          at: notificationAttempts.at,
          httpStatus: notificationAttempts.httpStatus,
          error: notificationAttempts.error,
        })
        .from(notificationAttempts)
        .innerJoin(notificationOutbox, eq(notificationOutbox.id, notificationAttempts.outboxId))
        .innerJoin(alerts, eq(alerts.id, notificationOutbox.alertId))
        .innerJoin(lines, eq(lines.id, alerts.lineId))
        .where(scope)
        .orderBy(alerts.lineId, desc(notificationAttempts.at));
      const failures = await db
        .select({ lineId: alerts.lineId, n: count() })
        .from(notificationAttempts)
        .innerJoin(notificationOutbox, eq(notificationOutbox.id, notificationAttempts.outboxId))
        .innerJoin(alerts, eq(alerts.id, notificationOutbox.alertId))
        .innerJoin(lines, eq(lines.id, alerts.lineId))
        .where(and(scope, isNotNull(notificationAttempts.error), gte(notificationAttempts.at, since)))
        .groupBy(alerts.lineId);
      const retrying = await db
        .select({ lineId: alerts.lineId, n: countDistinct(alerts.id) })
        .from(notificationOutbox)
        .innerJoin(alerts, eq(alerts.id, notificationOutbox.alertId))
        .innerJoin(lines, eq(lines.id, alerts.lineId))
        .where(
          and(
            scope,
            eq(notificationOutbox.state, "PENDING"),
            gt(notificationOutbox.attempts, 0),
            ne(alerts.state, "RESOLVED"),
          ),
        )
        .groupBy(alerts.lineId);
      return { last, failures, retrying };
    },
  };
}
