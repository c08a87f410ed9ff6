// The one writer of alert state (issue 30): alerts, their events, the notification outbox and its
// delivery attempts are written here and nowhere else (alerts.store.test.ts scans the server for
// writes to those tables). The rules that decide what to write are pure and live beside it:
// alerts.lifecycle.ts (a monitor's evaluation: alertStep; a line's silence: noDataStep). The
// worker's apply.ts and no-data.ts load, step and call this store; alerts.service.ts calls it
// for the user's actions; the notifier for deliveries.
import type { TAlert } from "@linewatch/contracts";
import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import {
  alertEvents,
  alerts,
  notificationAttempts,
  notificationOutbox,
  relianceConfigs,
  teamsWebhooks,
} from "../../db/schema/index.js";

export type NotificationChannel = "teams" | "etq";

/** What opens an alert: a monitor's firing rule, or a line's silence (kind 'no_data', no monitor). */
export type AlertOpening = {
  customerId: string;
  lineId: string;
  kind: TAlert["kind"];
  monitorId: string | null;
  rule: string;
  score: number | null;
  threshold: number | null;
  /** The evaluation that fired (a no-data alert has none). */
  evaluationId: string | null;
};

/** A delivery the notifier holds: an outbox row under this worker's lease. */
export type ClaimedNotification = {
  id: string;
  alertId: string;
  channel: NotificationChannel;
  attempts: number;
  /** The lease this worker holds: a finish only applies while it still holds it. */
  leaseUntil: Date;
};

export type DeliveryAttempt = {
  at: Date;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
};

/** How a delivery attempt ended: delivered, to be tried again at a time, or given up. */
export type DeliveryResult =
  | { state: "DELIVERED"; documentId?: string }
  | { state: "RETRY"; nextAttemptAt: Date }
  | { state: "FAILED" };

/** A user's action on an alert (alerts.service checks the alert and the user first). */
export type UserAction =
  | { kind: "ACKNOWLEDGED"; userId: string; at: Date }
  | { kind: "COMMENTED"; userId: string; at: Date; comment: string }
  | { kind: "RESOLVED"; userId: string; at: Date; comment: string | null; cause: string | null };

export const alertsStore = {
  /**
   * Opens an alert with its OPENED event, or does nothing when one is already open for its monitor
   * (or, for a no-data alert, its line): the partial unique indexes decide between two workers.
   * Returns the new alert's id, or null.
   */
  async open(tx: Tx, opening: AlertOpening, at: Date): Promise<string | null> {
    const [alert] = await tx
      .insert(alerts)
      .values({
        customerId: opening.customerId,
        lineId: opening.lineId,
        kind: opening.kind,
        monitorId: opening.monitorId,
        state: "OPEN",
        openedAt: at,
        lastSeenAt: at,
        count: 1,
        rule: opening.rule,
        score: opening.score,
        threshold: opening.threshold,
      })
      .onConflictDoNothing()
      .returning({ id: alerts.id });
    if (!alert) return null;
    await tx
      .insert(alertEvents)
      .values({ alertId: alert.id, at, kind: "OPENED", evaluationId: opening.evaluationId });
    return alert.id;
  },

  /** A rule fired again on the open alert: count + 1, last seen, the new figures, clean streak 0. */
  async fire(
    tx: Tx,
    alertId: string,
    firing: { score: number | null; threshold: number | null; evaluationId: string },
    at: Date,
  ): Promise<void> {
    await tx
      .update(alerts)
      .set({
        count: sql`${alerts.count} + 1`,
        lastSeenAt: at,
        score: firing.score,
        threshold: firing.threshold,
        cleanStreak: 0,
      })
      .where(eq(alerts.id, alertId));
    await tx.insert(alertEvents).values({ alertId, at, kind: "FIRED", evaluationId: firing.evaluationId });
  },

  async setCleanStreak(tx: Tx, alertId: string, cleanStreak: number): Promise<void> {
    await tx.update(alerts).set({ cleanStreak }).where(eq(alerts.id, alertId));
  },

  /**
   * The alert resolves itself (AUTO_RESOLVED): a monitor's third clean evaluation, or records
   * again on a silent line. Only an alert still open moves, so two workers resolve it once; true
   * when this call resolved it.
   */
  async autoResolve(
    tx: Tx,
    alertId: string,
    at: Date,
    opts: { cleanStreak?: number; evaluationId?: string | null } = {},
  ): Promise<boolean> {
    const moved = await tx
      .update(alerts)
      .set({
        state: "RESOLVED",
        resolvedAt: at,
        ...(opts.cleanStreak === undefined ? {} : { cleanStreak: opts.cleanStreak }),
      })
      .where(and(eq(alerts.id, alertId), ne(alerts.state, "RESOLVED")))
      .returning({ id: alerts.id });
    if (moved.length === 0) return false;
    await tx
      .insert(alertEvents)
      .values({ alertId, at, kind: "AUTO_RESOLVED", evaluationId: opts.evaluationId ?? null });
    return true;
  },

  /** A silent line's open alert: the hours since its last record, seen now. */
  async touch(tx: Tx, alertId: string, score: number | null, at: Date): Promise<void> {
    await tx.update(alerts).set({ score, lastSeenAt: at }).where(eq(alerts.id, alertId));
  },

  /**
   * One outbox row per channel configured on the alert's line (a Teams webhook → 'teams', a
   * Reliance configuration → 'etq'), in the caller's transaction (a durable outbox: the alert and
   * its notifications commit together). Returns the channels.
   */
  async enqueueNotifications(
    tx: Tx,
    alert: { id: string; customerId: string; lineId: string },
    at: Date,
  ): Promise<NotificationChannel[]> {
    const [teams] = await tx
      .select({ id: teamsWebhooks.id })
      .from(teamsWebhooks)
      .where(eq(teamsWebhooks.lineId, alert.lineId));
    const [etq] = await tx
      .select({ id: relianceConfigs.id })
      .from(relianceConfigs)
      .where(eq(relianceConfigs.lineId, alert.lineId));
    const channels: NotificationChannel[] = [
      ...(teams ? ["teams" as const] : []),
      ...(etq ? ["etq" as const] : []),
    ];
    if (channels.length > 0) {
      await tx
        .insert(notificationOutbox)
        .values(
          channels.map((channel) => ({
            customerId: alert.customerId,
            alertId: alert.id,
            channel,
            nextAttemptAt: at,
          })),
        )
        .onConflictDoNothing();
    }
    return channels;
  },

  /** A user acknowledges, comments on or resolves an alert: its state (where it moves) and the event. */
  async userAction(tx: Tx, alertId: string, action: UserAction): Promise<string> {
    if (action.kind === "ACKNOWLEDGED")
      await tx.update(alerts).set({ state: "ACKNOWLEDGED" }).where(eq(alerts.id, alertId));
    else if (action.kind === "RESOLVED")
      await tx
        .update(alerts)
        .set({ state: "RESOLVED", resolvedAt: action.at, cause: action.cause })
        .where(eq(alerts.id, alertId));
    const [row] = await tx
      .insert(alertEvents)
      .values({ alertId, ...action })
      .returning({ id: alertEvents.id });
    if (!row) throw new Error("alert event insert returned no row");
    return row.id;
  },

  /**
   * Takes up to `limit` due PENDING outbox rows for `leaseMs`: rows another worker holds are
   * skipped (FOR UPDATE SKIP LOCKED), and a lease that ran out (a worker that died) is taken over.
   */
  async claimNotifications(
    db: Db,
    now: Date,
    leaseMs: number,
    limit: number,
  ): Promise<ClaimedNotification[]> {
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

  /**
   * Ends one delivery attempt: logs it, and moves the outbox row only while this worker's lease
   * still holds it. An ETQ document created is remembered on the alert whether or not the lease
   * was lost meanwhile, so no retry creates a second one.
   */
  async finishDelivery(
    db: Db,
    row: ClaimedNotification,
    attempt: DeliveryAttempt,
    result: DeliveryResult,
  ): Promise<void> {
    const set =
      result.state === "DELIVERED"
        ? { state: "DELIVERED" as const, deliveredAt: attempt.at, lastError: null }
        : result.state === "RETRY"
          ? { nextAttemptAt: result.nextAttemptAt, lastError: attempt.error }
          : { state: "FAILED" as const, lastError: attempt.error };
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
      await tx.insert(notificationAttempts).values({ outboxId: row.id, ...attempt });
      const documentId = result.state === "DELIVERED" ? result.documentId : undefined;
      if (documentId) {
        await tx
          .update(alerts)
          .set({ relianceDocumentId: documentId })
          .where(and(eq(alerts.id, row.alertId), isNull(alerts.relianceDocumentId)));
      }
    });
  },

  /**
   * Retention (issue 31 §2, modules/retention): up to `limit` of the customer's alerts resolved
   * before `cutoff`, oldest first. Only RESOLVED alerts: an open or acknowledged alert is never
   * due, whatever its age.
   */
  async resolvedBefore(db: Db, customerId: string, cutoff: Date, limit: number): Promise<string[]> {
    const rows = await db
      .select({ id: alerts.id })
      .from(alerts)
      .where(
        and(eq(alerts.customerId, customerId), eq(alerts.state, "RESOLVED"), lt(alerts.resolvedAt, cutoff)),
      )
      .orderBy(asc(alerts.resolvedAt), asc(alerts.id))
      .limit(limit);
    return rows.map((r) => r.id);
  },

  /**
   * Retention: one batch of at most `limit` rows of `table` hanging on these alerts, in a
   * statement of its own (rows another run holds are skipped). The caller clears delivery attempts,
   * then outbox rows, then events, so that the alerts' own delete cascades to nothing and no
   * statement holds its locks for long. Answers how many went.
   */
  async deleteAlertChildrenBatch(
    db: Db,
    table: "notificationAttempts" | "notificationOutbox" | "alertEvents",
    alertIds: string[],
    limit: number,
  ): Promise<number> {
    if (table === "notificationAttempts") {
      const outboxOf = db
        .select({ id: notificationOutbox.id })
        .from(notificationOutbox)
        .where(inArray(notificationOutbox.alertId, alertIds));
      const due = db
        .select({ id: notificationAttempts.id })
        .from(notificationAttempts)
        .where(inArray(notificationAttempts.outboxId, outboxOf))
        .limit(limit)
        .for("update", { skipLocked: true });
      const gone = await db
        .delete(notificationAttempts)
        .where(inArray(notificationAttempts.id, due))
        .returning({ id: notificationAttempts.id });
      return gone.length;
    }
    if (table === "notificationOutbox") {
      const due = db
        .select({ id: notificationOutbox.id })
        .from(notificationOutbox)
        .where(inArray(notificationOutbox.alertId, alertIds))
        .limit(limit)
        .for("update", { skipLocked: true });
      const gone = await db
        .delete(notificationOutbox)
        .where(inArray(notificationOutbox.id, due))
        .returning({ id: notificationOutbox.id });
      return gone.length;
    }
    const due = db
      .select({ id: alertEvents.id })
      .from(alertEvents)
      .where(inArray(alertEvents.alertId, alertIds))
      .limit(limit)
      .for("update", { skipLocked: true });
    const gone = await db
      .delete(alertEvents)
      .where(inArray(alertEvents.id, due))
      .returning({ id: alertEvents.id });
    return gone.length;
  },

  /**
   * Retention: deletes these alerts of the customer that are still RESOLVED before `cutoff` (the
   * check again, in the statement); what still hangs on one (a comment added meanwhile) goes with
   * it by the foreign keys' cascade. Answers how many went.
   */
  async deleteResolved(db: Db, customerId: string, alertIds: string[], cutoff: Date): Promise<number> {
    const gone = await db
      .delete(alerts)
      .where(
        and(
          inArray(alerts.id, alertIds),
          eq(alerts.customerId, customerId),
          eq(alerts.state, "RESOLVED"),
          lt(alerts.resolvedAt, cutoff),
        ),
      )
      .returning({ id: alerts.id });
    return gone.length;
  },
};
