import { NO_DATA_ALERT_TEXTS } from "@linewatch/contracts";
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  alertEvents,
  alerts,
  evaluations,
  lines,
  monitors,
  notificationOutbox,
  plants,
  relianceConfigs,
  teamsWebhooks,
} from "../../db/schema/index.js";
import {
  alertsStore,
  type ClaimedNotification,
  type DeliveryAttempt,
} from "../../modules/alerts/alerts.store.js";
import { NO_DATA_TYPE } from "./messages.js";

export type ClaimedRow = ClaimedNotification;
export type AttemptLog = DeliveryAttempt;

/**
 * What the notifier reads for a delivery, and its writes handed to the alerts store (the one
 * writer of the outbox: claims, attempts, the ETQ document id).
 */
export function createOutboxRepo(db: Db) {
  return {
    /** Due PENDING rows under a lease of `leaseMs` (alerts.store claimNotifications). */
    claim(now: Date, leaseMs: number, limit: number): Promise<ClaimedRow[]> {
      return alertsStore.claimNotifications(db, now, leaseMs, limit);
    },

    /** What the message says about the alert, or undefined when the alert is gone. */
    async alertFacts(alertId: string) {
      const [a] = await db
        .select({
          alertId: alerts.id,
          customerId: alerts.customerId,
          lineId: alerts.lineId,
          lineName: sql<string>`coalesce(${lines.friendlyName}, ${lines.displayName}, ${lines.name})`,
          plantName: plants.name,
          monitorId: monitors.id,
          // A no-data alert has no monitor: its messages name it "No data".
          monitorName: sql<string>`coalesce(${monitors.name}, ${NO_DATA_ALERT_TEXTS.title})`,
          monitorType: sql<string>`coalesce(${monitors.type}, ${NO_DATA_TYPE})`,
          rule: alerts.rule,
          score: alerts.score,
          threshold: alerts.threshold,
          openedAt: alerts.openedAt,
          relianceDocumentId: alerts.relianceDocumentId,
        })
        .from(alerts)
        .innerJoin(lines, eq(lines.id, alerts.lineId))
        .innerJoin(plants, eq(plants.id, lines.plantId))
        .leftJoin(monitors, eq(monitors.id, alerts.monitorId))
        .where(eq(alerts.id, alertId));
      if (!a) return undefined;
      // The alert's own latest evaluation, else the monitor's latest.
      const [own] = await db
        .select({ details: evaluations.details })
        .from(alertEvents)
        .innerJoin(evaluations, eq(evaluations.id, alertEvents.evaluationId))
        .where(and(eq(alertEvents.alertId, alertId), isNotNull(alertEvents.evaluationId)))
        .orderBy(desc(alertEvents.at))
        .limit(1);
      const [latest] =
        own || !a.monitorId
          ? [own]
          : await db
              .select({ details: evaluations.details })
              .from(evaluations)
              .where(eq(evaluations.monitorId, a.monitorId as string))
              .orderBy(desc(evaluations.evaluatedAt))
              .limit(1);
      return { ...a, details: latest?.details ?? null };
    },

    /** Rows waiting for delivery or a retry, by channel (metrics; the due index covers them). */
    async pendingByChannel(): Promise<{ channel: string; count: number }[]> {
      const rows = await db
        .select({ channel: notificationOutbox.channel, count: sql<number>`count(*)` })
        .from(notificationOutbox)
        .where(eq(notificationOutbox.state, "PENDING"))
        .groupBy(notificationOutbox.channel);
      return rows.map((r) => ({ channel: r.channel, count: Number(r.count) }));
    },

    async teamsWebhook(lineId: string) {
      const [row] = await db
        .select({ id: teamsWebhooks.id, urlEncrypted: teamsWebhooks.urlEncrypted })
        .from(teamsWebhooks)
        .where(eq(teamsWebhooks.lineId, lineId));
      return row;
    },

    async relianceConfig(lineId: string) {
      const [row] = await db
        .select({
          id: relianceConfigs.id,
          apiHost: relianceConfigs.apiHost,
          clientId: relianceConfigs.clientId,
          tokenEndpoint: relianceConfigs.tokenEndpoint,
          clientSecretEncrypted: relianceConfigs.clientSecretEncrypted,
          updatedTime: relianceConfigs.updatedTime,
        })
        .from(relianceConfigs)
        .where(eq(relianceConfigs.lineId, lineId));
      return row;
    },

    async setRelianceStatus(lineId: string, status: "SUCCESS" | "ERROR") {
      await db
        .update(relianceConfigs)
        .set({ connectionStatus: status })
        .where(eq(relianceConfigs.lineId, lineId));
    },

    delivered(row: ClaimedRow, attempt: AttemptLog, documentId?: string) {
      return alertsStore.finishDelivery(db, row, attempt, { state: "DELIVERED", documentId });
    },

    retry(row: ClaimedRow, attempt: AttemptLog, nextAttemptAt: Date) {
      return alertsStore.finishDelivery(db, row, attempt, { state: "RETRY", nextAttemptAt });
    },

    failed(row: ClaimedRow, attempt: AttemptLog) {
      return alertsStore.finishDelivery(db, row, attempt, { state: "FAILED" });
    },
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
