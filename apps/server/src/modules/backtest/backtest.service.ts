/**
 * Backtest (issue #18 §1): what a monitor — its settings as a create takes them, or a saved one —
 * would have done over a period: each slot's state, score and threshold and the alerts that would
 * have opened and resolved, by the worker's own code (backtest.replay.ts). Stores nothing. Scoped
 * to the session's customer: another customer's monitor, line or signal is "not found".
 *
 * Reads the line's catalog, the window before the period, then the period's records in time order
 * a page at a time (openRecordSpan), each page handed to the replay on a statistics thread
 * (stats-pool.ts) as it is read (issue 31 §4): the windows slide over them there within
 * BACKTEST_CPU_MS of CPU time, and neither side holds the month (a month of a station writing
 * 5,000 parts an hour is 3.7 M records). The caller hears the replay's progress (the slot it has
 * reached) and may stop it (its client went away, or the user cancelled): the reading stops too.
 */

import { MessageChannel } from "node:worker_threads";
import {
  BACKTEST_BOUNDS,
  BACKTEST_MESSAGES,
  createBacktestSchemas,
  fromServerAlertThreshold,
  parseStoredMonitorFilter,
  storedFilterOf,
  type TBacktest,
  type TMonitorRule,
  type TMonitorType,
  type TStoredMonitorFilter,
  type TTaskCreate,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { AlertThreshold } from "@linewatch/stats";
import type { Db } from "../../db/client.js";
import { AppError, badRequest } from "../../errors.js";
import type { AlertRule } from "../alerts/alerts.rules.js";
import type { AuthContext } from "../auth/auth.service.js";
import type {
  ReplayFeedAnswer,
  ReplayFeedMessage,
  StatsProgress,
  StatsTasks,
} from "../evaluation/stats.tasks.js";
import { StatsBudgetError, type StatsPool } from "../evaluation/stats-pool.js";
import { packRecords, packWindow } from "../evaluation/window.pack.js";
import { openRecordSpan, WindowError } from "../evaluation/window.read.js";
import { createMonitorsRepo } from "../monitors/monitors.repo.js";
import { monitorNotFound, ruleValuesOf } from "../monitors/monitors.service.js";
import { slotsOf } from "./backtest.replay.js";

export type BacktestInput = {
  task?: TTaskCreate;
  monitor_uuid?: string;
  rules?: TMonitorRule[];
  period?: { from?: string; to?: string; days?: number };
};

const DAY_MS = 86_400_000;
/** Chunks (pages of the read) sent to the replay and not yet replayed, at most. */
const FEED_AHEAD = 2;

/** A failure reading the records, in the product's words. */
function readError(err: unknown): unknown {
  if (err instanceof WindowError)
    return new AppError(err.code === "NOT_FOUND" ? "NOT_FOUND" : "BAD_REQUEST", err.message);
  return err;
}

type Subject = {
  lineId: string;
  type: TMonitorType;
  alertThreshold: AlertThreshold;
  filter: TStoredMonitorFilter;
  frequency: number;
  useExcludedPartIds: boolean;
  useExcludedModelNumbers: boolean;
  rules: AlertRule[];
  /** A saved monitor's next slot: the backtest's slots fall on its grid. */
  gridAt: Date | null;
};

export function createBacktestService(deps: {
  db: Db;
  now?: () => Date;
  /** MVD_QUERY_MAX_RECORD_COUNT: the largest sample size a task's settings may ask for. */
  maxRecordCount: number;
  /** The most records one backtest reads; default BACKTEST_BOUNDS.maxRecords. */
  maxRecords?: number;
  stats: StatsPool;
  /** BACKTEST_CPU_MS: the CPU time one backtest's replay may take. */
  cpuBudgetMs: number;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const maxRecords = deps.maxRecords ?? BACKTEST_BOUNDS.maxRecords;
  const repo = createMonitorsRepo(db);

  async function subjectOf(ctx: AuthContext, input: BacktestInput): Promise<Subject> {
    const formRules = input.rules?.map(ruleValuesOf);
    if (input.task) {
      const t = input.task;
      if (t.task_details.cust_uuid !== ctx.customerId)
        throw new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);
      return {
        lineId: t.task_details.line_uuid,
        type: t.task_type,
        alertThreshold: fromServerAlertThreshold(t.task_details.alert_threshold),
        filter: storedFilterOf(t.task_details),
        frequency: t.frequency,
        useExcludedPartIds: t.task_details.use_excluded_part_ids,
        useExcludedModelNumbers: t.task_details.use_excluded_model_numbers,
        rules: formRules ?? [],
        gridAt: null,
      };
    }
    const row = await repo.find(ctx.customerId, input.monitor_uuid as string);
    if (!row) throw monitorNotFound();
    return {
      lineId: row.lineId,
      type: row.type,
      alertThreshold: row.alertThreshold as AlertThreshold,
      // Read as the worker reads it (lenient with older rows).
      filter: parseStoredMonitorFilter(row.filter),
      frequency: row.frequency,
      useExcludedPartIds: row.useExcludedPartIds,
      useExcludedModelNumbers: row.useExcludedModelNumbers,
      rules: formRules ?? (await repo.rules(row.id)),
      gridAt: row.nextRunAt ?? null,
    };
  }

  /** (from, to]: to defaults to now (on a saved monitor's grid), from to `days` (7) before; ≤ 31 days. */
  function periodOf(input: BacktestInput, s: Subject): { from: Date; to: Date } {
    const p = input.period ?? {};
    let to = p.to ? new Date(p.to) : now();
    const days = p.days ?? BACKTEST_BOUNDS.defaultDays;
    const from = p.from ? new Date(p.from) : new Date(to.getTime() - days * DAY_MS);
    if (s.gridAt) {
      const step = s.frequency * 60_000;
      const off = (((to.getTime() - s.gridAt.getTime()) % step) + step) % step;
      to = new Date(to.getTime() - off);
    }
    if (from.getTime() >= to.getTime()) throw badRequest(BACKTEST_MESSAGES.periodOrder);
    if (to.getTime() - from.getTime() > BACKTEST_BOUNDS.maxDays * DAY_MS)
      throw badRequest(BACKTEST_MESSAGES.periodTooLong);
    return { from, to };
  }

  return {
    /** The body schema with this server's records range (MVD_QUERY_MAX_RECORD_COUNT). */
    schemas: createBacktestSchemas(deps.maxRecordCount),

    async backtest(
      ctx: AuthContext,
      input: BacktestInput,
      opts: { signal?: AbortSignal; onProgress?: (p: StatsProgress) => void } = {},
    ): Promise<TBacktest> {
      const subject = await subjectOf(ctx, input);
      const { from, to } = periodOf(input, subject);
      let span: Awaited<ReturnType<typeof openRecordSpan>>;
      try {
        span = await openRecordSpan(
          db,
          {
            customerId: ctx.customerId,
            lineId: subject.lineId,
            type: subject.type,
            filter: subject.filter,
            useExcludedPartIds: subject.useExcludedPartIds,
            useExcludedModelNumbers: subject.useExcludedModelNumbers,
          },
          { from, to, before: subject.filter.sample_size },
          { signal: opts.signal },
        );
      } catch (err) {
        throw readError(err);
      }
      const slots = slotsOf(from, to, subject.frequency);
      const width = span.window.signals.length + span.window.references.length;
      const { packed, transfer } = await packWindow(span.window);
      // The period's records go to the replay as they are read (issue 31 §4): a chunk is read
      // while the thread replays the one before, and at most FEED_AHEAD chunks wait for it.
      const feed = new MessageChannel();
      let periodRecords = 0;
      let failure: unknown = null;
      let isStopped = false;
      let wake: (() => void) | null = null;
      let unanswered = 0;
      feed.port1.on("message", (_m: ReplayFeedAnswer) => {
        unanswered--;
        wake?.();
      });
      const running = deps.stats.run(
        "replay",
        {
          monitor: {
            type: subject.type,
            alertThreshold: subject.alertThreshold,
            filter: subject.filter,
            frequency: subject.frequency,
            rules: subject.rules,
          },
          window: packed,
          slots: slots.map((d) => d.getTime()),
          feed: feed.port2,
        },
        [...transfer, feed.port2],
        { cpuBudgetMs: deps.cpuBudgetMs, signal: opts.signal, onProgress: opts.onProgress },
      );
      const stop = () => {
        isStopped = true;
        wake?.();
      };
      running.then(stop, stop);
      const post = (m: ReplayFeedMessage, list: ArrayBuffer[] = []) => {
        if (!isStopped) feed.port1.postMessage(m, list);
      };
      const feeding = (async () => {
        try {
          for await (const chunk of span.chunks) {
            if (isStopped) break;
            periodRecords += chunk.length;
            if (periodRecords > maxRecords) throw badRequest(BACKTEST_MESSAGES.tooManyRecords(maxRecords));
            const c = packRecords(chunk, width);
            post({ type: "records", records: c.packed }, c.transfer);
            unanswered++;
            while (unanswered >= FEED_AHEAD && !isStopped)
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
            wake = null;
          }
          post({ type: "end" });
        } catch (err) {
          failure = err;
          post({ type: "fail" });
        }
      })();
      let replay: StatsTasks["replay"]["result"];
      try {
        replay = await running;
      } catch (err) {
        await feeding;
        if (failure) throw readError(failure);
        if (err instanceof StatsBudgetError)
          throw badRequest(BACKTEST_MESSAGES.tooLong(Math.round(err.budgetMs / 1000)));
        throw err;
      } finally {
        stop();
        feed.port1.close();
      }
      await feeding;
      const iso = (d: Date | null) => (d ? d.toISOString() : null);
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        frequency: subject.frequency,
        records: span.window.records.length + periodRecords,
        slots: replay.slots.map((s, i) => ({ slot: (slots[i] as Date).toISOString(), ...s })),
        alerts: replay.alerts.map((a) => ({
          opened_at: a.openedAt.toISOString(),
          resolved_at: iso(a.resolvedAt),
          last_seen_at: a.lastSeenAt.toISOString(),
          rule: a.rule,
          count: a.count,
          score: a.score,
          threshold: a.threshold,
        })),
        summary: {
          evaluations: replay.slots.length,
          breaches: replay.slots.filter((s) => s.state === "BREACH").length,
          alerts_opened: replay.alerts.length,
        },
      };
    },
  };
}

export type BacktestService = ReturnType<typeof createBacktestService>;
