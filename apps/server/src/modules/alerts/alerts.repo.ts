import {
  evaluationSummary,
  NO_DATA_ALERT_TEXTS,
  parseEvaluationDetails,
  SUMMARY_DETAIL_KEYS,
  type TAlert,
  type TAlertEvaluation,
  type TAlertEvent,
  type TAlertNotification,
  type TMonitorType,
} from "@linewatch/contracts";
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, ne, or, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import {
  alertEvents,
  alerts,
  evaluations,
  lines,
  monitors,
  notificationAttempts,
  notificationOutbox,
  resultClassifications,
  signalGroupMembers,
  signals,
  users,
} from "../../db/schema/index.js";

const alertColumns = {
  id: alerts.id,
  lineId: alerts.lineId,
  kind: alerts.kind,
  state: alerts.state,
  monitorId: monitors.id,
  monitorName: monitors.name,
  monitorType: monitors.type,
  openedAt: alerts.openedAt,
  lastSeenAt: alerts.lastSeenAt,
  count: alerts.count,
  rule: alerts.rule,
  score: alerts.score,
  threshold: alerts.threshold,
  resolvedAt: alerts.resolvedAt,
  cause: alerts.cause,
};

/**
 * With the figures its summary reads (contracts SUMMARY_DETAIL_KEYS: MVD p-values and α, SVD's VIF,
 * CAP's Ppk and control hits) from the alert's latest evaluation. Written out with table names, as
 * in lines.service; the keys are the contracts' constants (never user input), hence sql.raw.
 */
const figurePairs = sql.join(
  SUMMARY_DETAIL_KEYS.map((k) => sql`${sql.raw(`'${k}'`)}, e.details->${sql.raw(`'${k}'`)}`),
  sql`, `,
);
const alertColumnsWithFigures = {
  ...alertColumns,
  figures: sql<Record<
    string,
    unknown
  > | null>`(select jsonb_build_object(${figurePairs}) from alert_events ae join evaluations e on e.id = ae.evaluation_id where ae.alert_id = "alerts"."id" order by ae.at desc limit 1)`,
};

type AlertRow = {
  id: string;
  lineId: string;
  kind: TAlert["kind"];
  state: TAlert["state"];
  monitorId: string | null;
  monitorName: string | null;
  monitorType: NonNullable<TAlert["monitor"]>["type"] | null;
  openedAt: Date;
  lastSeenAt: Date;
  count: number;
  rule: string;
  score: number | null;
  threshold: number | null;
  resolvedAt: Date | null;
  cause: string | null;
  figures?: Record<string, unknown> | null;
};

const toAlert = (r: AlertRow): TAlert => ({
  id: r.id,
  lineId: r.lineId,
  kind: r.kind,
  state: r.state,
  monitor:
    r.monitorId && r.monitorName && r.monitorType
      ? { id: r.monitorId, name: r.monitorName, type: r.monitorType }
      : null,
  openedAt: r.openedAt.toISOString(),
  lastSeenAt: r.lastSeenAt.toISOString(),
  count: r.count,
  rule: r.rule,
  score: r.score,
  threshold: r.threshold,
  // One wording per monitor type, with units (an MVD reads by its p-value against α).
  // A no-data alert: hours since the last record against the line's No Data Alert hours.
  summary: r.monitorType
    ? evaluationSummary(r.monitorType, { score: r.score, threshold: r.threshold, details: r.figures })
    : r.score != null && r.threshold != null
      ? NO_DATA_ALERT_TEXTS.summary(r.score, r.threshold)
      : null,
  resolvedAt: r.resolvedAt?.toISOString() ?? null,
  cause: r.cause,
});

export function createAlertsRepo() {
  return {
    async findLine(tx: Tx, customerId: string, lineId: string) {
      const [row] = await tx
        .select({ id: lines.id, windowDays: lines.alertViewingWindowDays })
        .from(lines)
        .where(and(eq(lines.customerId, customerId), eq(lines.id, lineId)));
      return row ?? null;
    },

    /** A line's alerts seen since `since`, plus any still open, newest first. */
    async listForLine(tx: Tx, customerId: string, lineId: string, since: Date): Promise<TAlert[]> {
      const rows = await tx
        .select(alertColumnsWithFigures)
        .from(alerts)
        .leftJoin(monitors, eq(monitors.id, alerts.monitorId))
        .where(
          and(
            eq(alerts.customerId, customerId),
            eq(alerts.lineId, lineId),
            or(gte(alerts.lastSeenAt, since), ne(alerts.state, "RESOLVED")),
          ),
        )
        .orderBy(desc(alerts.openedAt), desc(alerts.id));
      return rows.map(toAlert);
    },

    async find(tx: Tx, customerId: string, alertId: string, opts: { lock?: boolean } = {}) {
      const where = and(eq(alerts.customerId, customerId), eq(alerts.id, alertId));
      const [row] = opts.lock
        ? await tx
            .select(alertColumns)
            .from(alerts)
            .leftJoin(monitors, eq(monitors.id, alerts.monitorId))
            .where(where)
            .for("update", { of: alerts })
        : await tx
            .select(alertColumnsWithFigures)
            .from(alerts)
            .leftJoin(monitors, eq(monitors.id, alerts.monitorId))
            .where(where);
      return row ? toAlert(row) : null;
    },

    async monitorOf(tx: Tx, alertId: string) {
      const [row] = await tx
        .select({
          id: monitors.id,
          lineId: monitors.lineId,
          type: monitors.type,
          filter: monitors.filter,
          useExcludedPartIds: monitors.useExcludedPartIds,
          useExcludedModelNumbers: monitors.useExcludedModelNumbers,
          updatedAt: monitors.updatedAt,
        })
        .from(alerts)
        .innerJoin(monitors, eq(monitors.id, alerts.monitorId))
        .where(eq(alerts.id, alertId));
      return row ?? null;
    },

    async events(tx: Tx, alertId: string): Promise<TAlertEvent[]> {
      const rows = await tx
        .select({
          id: alertEvents.id,
          kind: alertEvents.kind,
          at: alertEvents.at,
          userId: alertEvents.userId,
          userEmail: users.email,
          comment: alertEvents.comment,
          cause: alertEvents.cause,
          evaluationId: alertEvents.evaluationId,
        })
        .from(alertEvents)
        .leftJoin(users, eq(users.id, alertEvents.userId))
        .where(eq(alertEvents.alertId, alertId))
        .orderBy(asc(alertEvents.at), asc(alertEvents.id));
      return rows.map((r) => ({ ...r, at: r.at.toISOString(), userEmail: r.userEmail ?? null }));
    },

    /** The monitor's newest evaluations up to `until`, oldest first, their details as the contracts read them. */
    async evaluations(
      tx: Tx,
      monitor: { id: string; type: TMonitorType },
      until: Date | null,
      limit: number,
    ): Promise<TAlertEvaluation[]> {
      const rows = await tx
        .select({
          id: evaluations.id,
          slot: evaluations.slot,
          evaluatedAt: evaluations.evaluatedAt,
          state: evaluations.state,
          score: evaluations.score,
          threshold: evaluations.threshold,
          details: evaluations.details,
        })
        .from(evaluations)
        .where(and(eq(evaluations.monitorId, monitor.id), until ? lte(evaluations.slot, until) : undefined))
        .orderBy(desc(evaluations.slot))
        .limit(limit);
      return rows.reverse().map((r) => ({
        ...r,
        slot: r.slot.toISOString(),
        evaluatedAt: r.evaluatedAt.toISOString(),
        details: parseEvaluationDetails(monitor.type, r.details),
      }));
    },

    /** The unit of the customer's signal, or null. */
    async signalUnit(tx: Tx, customerId: string, signalId: string): Promise<string | null> {
      const [row] = await tx
        .select({ unit: signals.unit })
        .from(signals)
        .where(and(eq(signals.customerId, customerId), eq(signals.id, signalId)));
      return row?.unit ?? null;
    },

    /** One evaluation of the customer's monitor, or null. */
    async evaluationOf(tx: Tx, customerId: string, monitorId: string, evaluationId: string) {
      const [row] = await tx
        .select({
          id: evaluations.id,
          state: evaluations.state,
          evaluatedAt: evaluations.evaluatedAt,
          trainingSize: evaluations.trainingSize,
          evaluationSize: evaluations.evaluationSize,
          lastRecordTs: evaluations.lastRecordTs,
          details: evaluations.details,
        })
        .from(evaluations)
        .where(
          and(
            eq(evaluations.customerId, customerId),
            eq(evaluations.monitorId, monitorId),
            eq(evaluations.id, evaluationId),
          ),
        );
      return row ?? null;
    },

    async notifications(tx: Tx, alertId: string): Promise<TAlertNotification[]> {
      const outbox = await tx
        .select({
          id: notificationOutbox.id,
          channel: notificationOutbox.channel,
          state: notificationOutbox.state,
          deliveredAt: notificationOutbox.deliveredAt,
          lastError: notificationOutbox.lastError,
        })
        .from(notificationOutbox)
        .where(eq(notificationOutbox.alertId, alertId))
        .orderBy(asc(notificationOutbox.channel));
      if (outbox.length === 0) return [];
      const attempts = await tx
        .select({
          outboxId: notificationAttempts.outboxId,
          at: notificationAttempts.at,
          httpStatus: notificationAttempts.httpStatus,
          error: notificationAttempts.error,
          durationMs: notificationAttempts.durationMs,
        })
        .from(notificationAttempts)
        .where(
          inArray(
            notificationAttempts.outboxId,
            outbox.map((o) => o.id),
          ),
        )
        .orderBy(asc(notificationAttempts.at));
      return outbox.map((o) => ({
        channel: o.channel,
        state: o.state,
        deliveredAt: o.deliveredAt?.toISOString() ?? null,
        lastError: o.lastError,
        attempts: attempts
          .filter((a) => a.outboxId === o.id)
          .map((a) => ({
            at: a.at.toISOString(),
            httpStatus: a.httpStatus,
            error: a.error,
            durationMs: a.durationMs,
          })),
      }));
    },

    /** Result signals of the given signals (their result_signal_id), within the customer. */
    async resultSignalsOf(
      tx: Tx,
      customerId: string,
      signalIds: string[],
      groupIds: string[],
    ): Promise<string[]> {
      const memberIds =
        groupIds.length > 0
          ? (
              await tx
                .select({ id: signalGroupMembers.signalId })
                .from(signalGroupMembers)
                .where(inArray(signalGroupMembers.groupId, groupIds))
            ).map((r) => r.id)
          : [];
      const ids = [...new Set([...signalIds, ...memberIds])];
      if (ids.length === 0) return [];
      const rows = await tx
        .selectDistinct({ id: signals.resultSignalId })
        .from(signals)
        .where(
          and(
            eq(signals.customerId, customerId),
            inArray(signals.id, ids),
            isNotNull(signals.resultSignalId),
          ),
        );
      return rows.map((r) => r.id as string);
    },

    /** Distinct failure modes of the classifications of the given result signals, or of the whole line. */
    async failureModes(
      tx: Tx,
      customerId: string,
      scope: { resultSignalIds: string[] } | { lineId: string },
    ) {
      const where =
        "lineId" in scope
          ? and(eq(signals.lineId, scope.lineId), eq(resultClassifications.customerId, customerId))
          : and(
              inArray(resultClassifications.signalId, scope.resultSignalIds),
              eq(resultClassifications.customerId, customerId),
            );
      const rows = await tx
        .selectDistinct({ failureMode: resultClassifications.failureMode })
        .from(resultClassifications)
        .innerJoin(signals, eq(signals.id, resultClassifications.signalId))
        .where(and(where, isNotNull(resultClassifications.failureMode)));
      return rows.map((r) => r.failureMode as string);
    },
  };
}
export type AlertsRepo = ReturnType<typeof createAlertsRepo>;
