import { NO_DATA_ALERT_TEXTS } from "@linewatch/contracts";
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  alertEvents,
  alerts,
  evaluations,
  lines,
  monitors,
  notificationAttempts,
  notificationOutbox,
  plants,
  relianceConfigs,
  teamsWebhooks,
} from "../../db/schema/index.js";
import { NO_DATA_TYPE } from "./messages.js";

export type ClaimedRow = {
  id: string;
  alertId: string;
  channel: "teams" | "etq";
  attempts: number;
  /** The lease this worker holds: a finish only applies while it still holds it. */
  leaseUntil: Date;
};

export type AttemptLog = { at: Date; httpStatus: number | null; error: string | null; durationMs: number };

export function createOutboxRepo(db: Db) {
  /** Ends one attempt: logs it and moves the row, only if this worker's lease still holds it. */
  async function finish(
    row: ClaimedRow,
    attempt: AttemptLog,
    set: Partial<typeof notificationOutbox.$inferInsert>,
    documentId?: string,
  ) {
    await db.transaction(async (tx) => {
      await tx
        .update(notificationOutbox)
        .set({ ...set, attempts: row.attempts + 1, leaseUntil: null })
        .where(
          and(
            eq(notificationOutbox.id, row.id),
            eq(notificationOutbox.state, "PENDING"),
            eq(notificationOutbox.leaseUntil, row.leaseUntil),
          ),
        );
      // The attempt happened whether or not the lease was lost meanwhile: always logged.
      await tx.insert(notificationAttempts).values({ outboxId: row.id, ...attempt });
      // The document exists whether or not the lease was lost: remember it so no retry creates another.
      if (documentId) {
        await tx
          .update(alerts)
          .set({ relianceDocumentId: documentId })
          .where(and(eq(alerts.id, row.alertId), isNull(alerts.relianceDocumentId)));
      }
    });
  }

  return {
    /**
     * Takes up to `limit` due PENDING rows for `leaseMs`: rows another worker holds are skipped
     * (FOR UPDATE SKIP LOCKED), and a lease that ran out (a worker that died) is taken over.
     */
    async claim(now: Date, leaseMs: number, limit: number): Promise<ClaimedRow[]> {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const due = db
        .select({ id: notificationOutbox.id })
        .from(notificationOutbox)
        .where(
          and(
            eq(notificationOutbox.state, "PENDING"),
            lte(notificationOutbox.nextAttemptAt, now),
            or(isNull(notificationOutbox.leaseUntil), lte(notificationOutbox.leaseUntil, now)),
          ),
        )
        .orderBy(asc(notificationOutbox.nextAttemptAt))
        .limit(limit)
        .for("update", { skipLocked: true });
      const rows = await db
        .update(notificationOutbox)
        .set({ leaseUntil })
        .where(inArray(notificationOutbox.id, due))
        .returning({
          id: notificationOutbox.id,
          alertId: notificationOutbox.alertId,
          channel: notificationOutbox.channel,
          attempts: notificationOutbox.attempts,
        });
      return rows.map((r) => ({ ...r, leaseUntil }));
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
      return finish(
        row,
        attempt,
        { state: "DELIVERED", deliveredAt: attempt.at, lastError: null },
        documentId,
      );
    },

    retry(row: ClaimedRow, attempt: AttemptLog, nextAttemptAt: Date) {
      return finish(row, attempt, { nextAttemptAt, lastError: attempt.error });
    },

    failed(row: ClaimedRow, attempt: AttemptLog) {
      return finish(row, attempt, { state: "FAILED", lastError: attempt.error });
    },
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
