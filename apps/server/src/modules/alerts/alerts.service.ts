// Alerts as users see and handle them (docs/monitoring.md "Alerts"): any signed-in user of the
// customer lists, acknowledges, comments and resolves; every change is an alert event with who
// and when. The worker moves state by itself in worker/alerts/apply.ts.
import {
  ALERT_EVALUATIONS_MAX,
  ALERT_MESSAGES,
  parseStoredMonitorFilter,
  ratioOf,
  type TAlert,
  type TAlertCauses,
  type TAlertCommentBody,
  type TAlertDetail,
  type TAlertEvent,
  type TAlertResolveBody,
  type TEvaluationValues,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { AppError, badRequest, conflict } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { Window } from "../evaluation/evaluate.js";
import { loadWindow, WindowError } from "../evaluation/window.read.js";
import { lineNotFound } from "../lines/lines.service.js";
import { capValues, svdValues } from "./alerts.fns.js";
import { createAlertsRepo } from "./alerts.repo.js";
import { alertsStore } from "./alerts.store.js";

const DAY_MS = 86_400_000;
const alertNotFound = () => new AppError("NOT_FOUND", ALERT_MESSAGES.notFound);
const evaluationNotFound = () => new AppError("NOT_FOUND", ALERT_MESSAGES.evaluationNotFound);

/** The signals a monitor's filter names (requirements.md monitor-forms §3: signal_uuids, signal_group_uuids). */
function filterIds(filter: unknown, key: "signal_uuids" | "signal_group_uuids"): string[] {
  const v = (filter as Record<string, unknown> | null)?.[key];
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && uuid.test(x)) : [];
}

export function createAlertsService(deps: {
  db: Db;
  now?: () => Date;
  /** MVD_QUERY_MAX_RECORD_COUNT: the largest window read again for an evaluation's values. */
  maxRecordCount: number;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createAlertsRepo();

  /** Locks the customer's alert for a change; another customer's alert is not found. */
  async function lockAlert(tx: Tx, ctx: AuthContext, alertId: string): Promise<TAlert> {
    const alert = await repo.find(tx, ctx.customerId, alertId, { lock: true });
    if (!alert) throw alertNotFound();
    return alert;
  }

  async function get(ctx: AuthContext, alertId: string): Promise<TAlertDetail> {
    return db.transaction(async (tx) => {
      const alert = await repo.find(tx, ctx.customerId, alertId);
      if (!alert) throw alertNotFound();
      const until = alert.resolvedAt ? new Date(alert.resolvedAt) : null;
      // One after another: a transaction is one connection.
      const events = await repo.events(tx, alertId);
      // A no-data alert has no monitor, so no evaluations.
      const evaluations = alert.monitor
        ? await repo.evaluations(tx, alert.monitor, until, ALERT_EVALUATIONS_MAX)
        : [];
      const notifications = await repo.notifications(tx, alertId);
      return { ...alert, events, evaluations, notifications };
    });
  }

  return {
    /** A line's alerts inside its alert viewing window (by last seen) and any still open, newest first. */
    async listForLine(ctx: AuthContext, lineId: string): Promise<TAlert[]> {
      const line = await repo.findLine(db, ctx.customerId, lineId);
      if (!line) throw lineNotFound();
      const since = new Date(now().getTime() - line.windowDays * DAY_MS);
      return repo.listForLine(db, ctx.customerId, lineId, since);
    },

    get,

    /** OPEN → ACKNOWLEDGED; an acknowledged or resolved alert answers 409. */
    async acknowledge(ctx: AuthContext, alertId: string): Promise<TAlert> {
      await db.transaction(async (tx) => {
        const alert = await lockAlert(tx, ctx, alertId);
        if (alert.state === "RESOLVED") throw conflict(ALERT_MESSAGES.alreadyResolved);
        if (alert.state === "ACKNOWLEDGED") throw conflict(ALERT_MESSAGES.alreadyAcknowledged);
        await alertsStore.userAction(tx, alertId, { kind: "ACKNOWLEDGED", userId: ctx.userId, at: now() });
      });
      return (await repo.find(db, ctx.customerId, alertId)) as TAlert;
    },

    /** A comment on an alert in any state (a resolved alert's history can still be annotated). */
    async comment(ctx: AuthContext, alertId: string, body: TAlertCommentBody): Promise<TAlertEvent> {
      const id = await db.transaction(async (tx) => {
        await lockAlert(tx, ctx, alertId);
        return alertsStore.userAction(tx, alertId, {
          kind: "COMMENTED",
          userId: ctx.userId,
          at: now(),
          comment: body.comment,
        });
      });
      const events = await repo.events(db, alertId);
      return events.find((e) => e.id === id) as TAlertEvent;
    },

    /** OPEN or ACKNOWLEDGED → RESOLVED with an optional cause and comment; a resolved alert answers 409. */
    async resolve(ctx: AuthContext, alertId: string, body: TAlertResolveBody): Promise<TAlert> {
      await db.transaction(async (tx) => {
        const alert = await lockAlert(tx, ctx, alertId);
        if (alert.state === "RESOLVED") throw conflict(ALERT_MESSAGES.alreadyResolved);
        const at = now();
        const cause = body.cause || null;
        await alertsStore.userAction(tx, alertId, {
          kind: "RESOLVED",
          userId: ctx.userId,
          at,
          cause,
          comment: body.comment || null,
        });
      });
      return (await repo.find(db, ctx.customerId, alertId)) as TAlert;
    },

    /**
     * The values an SVD or CAP evaluation of the alert's monitor judged, read again: the newest
     * sample_size records (at most maxRecordCount) matching the monitor's filter up to the
     * evaluation's newest record, split as the worker splits them. The monitor's current settings
     * are used (isMonitorChanged says whether they changed after the evaluation).
     */
    async evaluationValues(
      ctx: AuthContext,
      alertId: string,
      evaluationId: string,
    ): Promise<TEvaluationValues> {
      const alert = await repo.find(db, ctx.customerId, alertId);
      if (!alert) throw alertNotFound();
      const monitor = await repo.monitorOf(db, alertId);
      const ev = monitor && (await repo.evaluationOf(db, ctx.customerId, monitor.id, evaluationId));
      if (!monitor || !ev) throw evaluationNotFound();
      if (monitor.type === "mvd") throw badRequest(ALERT_MESSAGES.valuesNotForMvd);
      let filter: ReturnType<typeof parseStoredMonitorFilter>;
      try {
        filter = parseStoredMonitorFilter(monitor.filter);
      } catch (err) {
        throw badRequest(err instanceof Error ? err.message : String(err));
      }
      const limit = Math.min(filter.sample_size, deps.maxRecordCount);
      let window: Window = { signals: [], references: [], records: [] };
      if (ev.lastRecordTs && limit > 0) {
        try {
          window = await loadWindow(db, {
            customerId: ctx.customerId,
            lineId: monitor.lineId,
            type: monitor.type,
            filter,
            useExcludedPartIds: monitor.useExcludedPartIds,
            useExcludedModelNumbers: monitor.useExcludedModelNumbers,
            // Record times are read to the millisecond: 1 ms wider and one record more; the
            // records past the evaluation's newest are dropped after (splitEvaluationWindow).
            period: {
              from: null,
              to: new Date(ev.lastRecordTs.getTime() + 1),
              limit: limit + 1,
              anchor: "end",
            },
          });
        } catch (err) {
          if (err instanceof WindowError)
            throw new AppError(err.code === "NOT_FOUND" ? "NOT_FOUND" : "BAD_REQUEST", err.message);
          throw err;
        }
      }
      const settings = {
        limit,
        sampleSize: filter.sample_size,
        ratio: ratioOf(filter),
        isMonitorChanged: monitor.updatedAt.getTime() > ev.evaluatedAt.getTime(),
        unit: window.signals[0] ? await repo.signalUnit(db, ctx.customerId, window.signals[0].id) : null,
      };
      return monitor.type === "svd" ? svdValues(window, ev, settings) : capValues(window, ev, settings);
    },

    /**
     * Failure modes offered as causes: the distinct non-empty failure modes of the result
     * classifications of the monitor's signals' result signals; of the whole line when the
     * monitor's signals have no result signal.
     */
    async causes(ctx: AuthContext, alertId: string): Promise<TAlertCauses> {
      const alert = await repo.find(db, ctx.customerId, alertId);
      if (!alert) throw alertNotFound();
      const monitor = await repo.monitorOf(db, alertId);
      if (!monitor) throw alertNotFound();
      const resultSignalIds = await repo.resultSignalsOf(
        db,
        ctx.customerId,
        filterIds(monitor.filter, "signal_uuids"),
        filterIds(monitor.filter, "signal_group_uuids"),
      );
      const modes = await repo.failureModes(
        db,
        ctx.customerId,
        resultSignalIds.length > 0 ? { resultSignalIds } : { lineId: monitor.lineId },
      );
      const causes = [...new Set(modes.map((m) => m.trim()).filter((m) => m.length > 0))];
      return { causes: causes.sort((a, b) => a.localeCompare(b)) };
    },
  };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
