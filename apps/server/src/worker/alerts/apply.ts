// Moves alert state after each stored evaluation (docs/monitoring.md "Alerts"): the worker calls
// applyEvaluation inside the transaction that stored the evaluation, so the evaluation, the alert
// change, its event and its outbox rows commit together or not at all. Load (the monitor, its open
// alert, its rules' history) → step (alerts.lifecycle alertStep) → store (alerts.store).
import { and, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";
import { alerts, evaluations, monitorRules, monitors } from "../../db/schema/index.js";
import { alertStep } from "../../modules/alerts/alerts.lifecycle.js";
import {
  type AlertRule,
  type EvaluationPoint,
  type FiringRule,
  firingRule,
  runsNeeded,
  secondsNeeded,
} from "../../modules/alerts/alerts.rules.js";
import { alertsStore, type NotificationChannel } from "../../modules/alerts/alerts.store.js";

/** The stored evaluation the worker hands over (the row `insert … returning()` gives). */
export type StoredEvaluation = Pick<
  typeof evaluations.$inferSelect,
  "id" | "monitorId" | "slot" | "state" | "score" | "threshold"
>;

export type ApplyOutcome =
  | { kind: "opened"; alertId: string; rule: FiringRule; channels: NotificationChannel[] }
  | { kind: "fired"; alertId: string; rule: FiringRule }
  | { kind: "auto-resolved"; alertId: string }
  | { kind: "clean"; alertId: string; cleanStreak: number }
  | { kind: "none" };

/**
 * The worker's onEvaluated hook (WorkerOptions["onEvaluated"]), bound to a clock. It answers what
 * happened to the alert, which the worker logs once the transaction has committed.
 */
export type OnEvaluated = (tx: Tx, evaluation: StoredEvaluation) => Promise<ApplyOutcome | undefined>;

export function createOnEvaluated(deps: { now?: () => Date } = {}): OnEvaluated {
  const now = deps.now ?? (() => new Date());
  return (tx, evaluation) => applyEvaluation(tx, evaluation, { now: now() });
}

/**
 * Loads the counted history the monitor's rules need, newest last. Rules look at evaluation
 * slots (the scheduled times, one frequency apart) rather than evaluated_at, which carries the
 * worker's delay: the time rule's window is then exact.
 */
async function loadHistory(tx: Tx, ev: StoredEvaluation, rules: AlertRule[]): Promise<EvaluationPoint[]> {
  const counted = ["OK", "BREACH"] as ("OK" | "BREACH")[];
  const cols = { id: evaluations.id, state: evaluations.state, slot: evaluations.slot };
  const upTo = and(eq(evaluations.monitorId, ev.monitorId), lte(evaluations.slot, ev.slot));
  const lastRuns = await tx
    .select(cols)
    .from(evaluations)
    .where(and(upTo, inArray(evaluations.state, counted)))
    .orderBy(desc(evaluations.slot))
    .limit(runsNeeded(rules));
  const seconds = secondsNeeded(rules);
  const inWindow =
    seconds > 0
      ? await tx
          .select(cols)
          .from(evaluations)
          .where(
            and(
              upTo,
              eq(evaluations.state, "BREACH"),
              gte(evaluations.slot, new Date(ev.slot.getTime() - seconds * 1000)),
            ),
          )
      : [];
  const byId = new Map([...lastRuns, ...inWindow].map((r) => [r.id, r]));
  // The evaluation itself decides whether anything fires, even if the caller has not stored it.
  byId.set(ev.id, { id: ev.id, state: ev.state, slot: ev.slot });
  return [...byId.values()]
    .sort((a, b) => a.slot.getTime() - b.slot.getTime())
    .map((r) => ({ state: r.state, evaluatedAt: r.slot }));
}

/**
 * Applies one stored evaluation of a monitor to its alert (docs/monitoring.md "Alerts"; the
 * lifecycle itself is alerts.lifecycle.ts's alertStep, which the backtest replays):
 * - fires (alerts.rules.ts firingRule): opens an alert unless one is open (OPEN or ACKNOWLEDGED), with
 *   its OPENED event and one outbox row per configured channel of the line (a Teams webhook →
 *   'teams', a Reliance configuration → 'etq'); an open alert instead gets count + 1, last seen,
 *   the new score and threshold, a reset clean streak and a FIRED event.
 * - a breach that does not fire leaves the alert open and resets its clean streak.
 * - OK adds one to the open alert's clean streak; the 3rd in a row resolves it (AUTO_RESOLVED).
 * - NO_DATA and ERROR neither count towards nor reset the clean streak: no data is no evidence
 *   that the process recovered, nor that it still breaches.
 */
export async function applyEvaluation(
  tx: Tx,
  ev: StoredEvaluation,
  opts: { now: Date },
): Promise<ApplyOutcome> {
  const { now } = opts;
  // The monitor and its open alert (locked), in one statement: this runs for every evaluation.
  const [row] = rowsOf<{
    customer_id: string;
    line_id: string;
    alert_id: string | null;
    clean_streak: number | null;
  }>(
    await tx.execute(sql`
      select m.customer_id, m.line_id, a.id as alert_id, a.clean_streak
      from ${monitors} m
      left join lateral (select al.id, al.clean_streak from ${alerts} al
        where al.monitor_id = m.id and al.state <> 'RESOLVED' for update) a on true
      where m.id = ${ev.monitorId}`),
  );
  if (!row) return { kind: "none" };
  const monitor = { customerId: String(row.customer_id), lineId: String(row.line_id) };
  const open =
    row.alert_id == null ? undefined : { id: String(row.alert_id), cleanStreak: Number(row.clean_streak) };

  // Only a breach can fire: the rules and their history are read for breaches alone.
  let rule: FiringRule | null = null;
  if (ev.state === "BREACH") {
    const rules = await tx
      .select({
        type: monitorRules.type,
        active: monitorRules.active,
        runs: monitorRules.runs,
        breaches: monitorRules.breaches,
        seconds: monitorRules.seconds,
      })
      .from(monitorRules)
      .where(eq(monitorRules.monitorId, ev.monitorId));
    rule = firingRule(rules, await loadHistory(tx, ev, rules));
  }
  const step = alertStep(open ?? null, ev.state, rule);
  const alertId = open?.id as string;
  switch (step.kind) {
    case "opened": {
      const opening = {
        ...monitor,
        kind: "monitor" as const,
        monitorId: ev.monitorId,
        rule: step.rule,
        score: ev.score,
        threshold: ev.threshold,
        evaluationId: ev.id,
      };
      // The monitor's open alert was locked above: none can appear before this transaction ends.
      const id = await alertsStore.open(tx, opening, now);
      if (id === null) throw new Error(`an alert of monitor ${ev.monitorId} opened concurrently`);
      const channels = await alertsStore.enqueueNotifications(tx, { id, ...monitor }, now);
      return { kind: "opened", alertId: id, rule: step.rule, channels };
    }
    case "fired":
      await alertsStore.fire(
        tx,
        alertId,
        { score: ev.score, threshold: ev.threshold, evaluationId: ev.id },
        now,
      );
      return { kind: "fired", alertId, rule: step.rule };
    case "clean":
      await alertsStore.setCleanStreak(tx, alertId, step.cleanStreak);
      return { kind: "clean", alertId, cleanStreak: step.cleanStreak };
    case "auto-resolved":
      await alertsStore.autoResolve(tx, alertId, now, { cleanStreak: step.cleanStreak, evaluationId: ev.id });
      return { kind: "auto-resolved", alertId };
    case "none":
      return { kind: "none" };
  }
}
