// No-data alerts (issue: Line Management's No Data Alert hours): a line whose last ingested time
// plus its No Data Alert hours has passed gets an alert in the same lifecycle as a monitor's
// (acknowledge, comment, resolve; notified to the line's Teams and ETQ channels through the
// outbox), and the alert resolves itself once records arrive again. 0 hours (or none) turns it
// off; an inactive line raises none. Run by every worker each poll: the partial unique index
// (one open no-data alert per line) makes two workers' checks open it once. The rule is
// alerts.lifecycle's noDataStep; every write goes through the alerts store.
import { NO_DATA_RULE } from "@linewatch/contracts";
import { and, eq, gt, isNotNull, ne, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { alerts, lines } from "../../db/schema/index.js";
import { noDataStep } from "../../modules/alerts/alerts.lifecycle.js";
import { alertsStore } from "../../modules/alerts/alerts.store.js";

/** The no-data alerts opened and resolved by one check, with their lines. */
export type NoDataOutcome = {
  opened: { id: string; lineId: string }[];
  resolved: { id: string; lineId: string }[];
};

/**
 * One check at `now`: loads the lines that could need a no-data alert (an active line with hours
 * and a record) or have one open, steps each (alerts.lifecycle noDataStep) and writes the step
 * through the alerts store, in one transaction.
 */
export async function checkNoData(db: Db, now: Date): Promise<NoDataOutcome> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        lineId: lines.id,
        customerId: lines.customerId,
        active: lines.active,
        thresholdHours: lines.ingestionThresholdHours,
        lastIngestedTime: lines.lastIngestedTime,
        openAlertId: alerts.id,
      })
      .from(lines)
      .leftJoin(
        alerts,
        and(eq(alerts.lineId, lines.id), eq(alerts.kind, "no_data"), ne(alerts.state, "RESOLVED")),
      )
      .where(
        or(
          and(
            eq(lines.active, true),
            gt(lines.ingestionThresholdHours, 0),
            isNotNull(lines.lastIngestedTime),
          ),
          isNotNull(alerts.id),
        ),
      )
      // One order for every worker: two checks at once take the lines' locks alike (no deadlock).
      .orderBy(lines.id);
    const outcome: NoDataOutcome = { opened: [], resolved: [] };
    for (const row of rows) {
      const step = noDataStep(row, row.openAlertId !== null, now);
      if (step.kind === "opened") {
        const opening = {
          customerId: row.customerId,
          lineId: row.lineId,
          kind: "no_data" as const,
          monitorId: null,
          rule: NO_DATA_RULE,
          score: step.score,
          threshold: step.threshold,
          evaluationId: null,
        };
        const id = await alertsStore.open(tx, opening, now);
        // Null: another worker's check opened it first.
        if (id === null) continue;
        // One notification per configured channel of the line, as a monitor's alert gets.
        await alertsStore.enqueueNotifications(
          tx,
          { id, customerId: row.customerId, lineId: row.lineId },
          now,
        );
        outcome.opened.push({ id, lineId: row.lineId });
      } else if (step.kind === "auto-resolved" && row.openAlertId !== null) {
        if (await alertsStore.autoResolve(tx, row.openAlertId, now))
          outcome.resolved.push({ id: row.openAlertId, lineId: row.lineId });
      } else if (step.kind === "still-silent" && row.openAlertId !== null) {
        await alertsStore.touch(tx, row.openAlertId, step.score, now);
      }
    }
    return outcome;
  });
}

/**
 * How often a worker checks for no-data lines (every poll would be needless work): half a minute
 * of the worker's clock — WORKER_MINUTE_MS scales it as it scales a monitor's minute.
 */
export const NO_DATA_CHECK_MS = 30_000;

/** NO_DATA_CHECK_MS on a worker whose minute lasts `minuteMs` (WORKER_MINUTE_MS). */
export const noDataCheckInterval = (minuteMs: number) => Math.round((NO_DATA_CHECK_MS * minuteMs) / 60_000);
