/**
 * The monitor worker loop (docs/conventions.md "Worker"): schedule/ claims due monitors, modules/evaluation
 * computes (window query + pure evaluation), the result is stored once per slot and handed to
 * `onEvaluated` (alert rules) inside the same transaction. Several processes share the monitors
 * through row leases (docs/architecture.md "Processes").
 *
 * The statistics run on the statistics threads (stats-pool.ts), the batch's evaluations side by
 * side, each within EVALUATION_CPU_MS of CPU time: this thread stays free to renew the leases of
 * the evaluations running, however long one takes, and one large monitor holds up no other.
 */

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { parseStoredMonitorFilter, type TStoredMonitorFilter } from "@linewatch/contracts";
import type { AlertThreshold } from "@linewatch/stats";
import type { WorkerConfig } from "../config.js";
import type { Db, Tx } from "../db/client.js";
import { describeDbError } from "../db/errors.js";
import { type Logger, silentLogger } from "../lib/logger.js";
import * as metrics from "../lib/metrics.js";
import {
  type EvaluationResult,
  monitorEvaluationSettings,
  type Window,
} from "../modules/evaluation/evaluate.js";
import {
  defaultStatsPool,
  STATS_BUDGET_DEFAULTS,
  StatsBudgetError,
  StatsCancelledError,
  type StatsPool,
} from "../modules/evaluation/stats-pool.js";
import { packWindow } from "../modules/evaluation/window.pack.js";
import { loadWindows } from "../modules/evaluation/window.read.js";
import { checkNoData, noDataCheckInterval } from "./alerts/no-data.js";
import {
  type ClaimedMonitor,
  type CompleteOutcome,
  claimDue,
  completeClaim,
  initialiseSlots,
  type OnEvaluatedHook,
  previousLastRecordTsOf,
  releaseLeases,
  renewLeases,
} from "./schedule/schedule.js";

export type WorkerOptions = {
  db: Db;
  /** The clock (tests pass a fake one). */
  now?: () => Date;
  /** Wait between polls when nothing was due. */
  pollMs: number;
  /** Lease length: a monitor whose worker died is taken over this long after its last renewal. */
  leaseMs: number;
  /** How often the leases of running evaluations are renewed; default a third of leaseMs. */
  leaseRenewMs?: number;
  /**
   * Monitors claimed per poll; default 8. Their windows are loaded together (monitors reading the
   * same records share one query), then each evaluation is stored in its own transaction.
   */
  batchSize?: number;
  /** Length of a frequency minute; default 60 000 (tests shorten it). */
  minuteMs?: number;
  /** Lease owner name; default host:pid:random. */
  owner?: string;
  /** Alert rules: runs in the transaction that stores the evaluation; the alert change it answers is logged. */
  onEvaluated?: OnEvaluatedHook;
  /** The evaluation of a claimed batch; default evaluateClaims (window queries + packages/stats). */
  evaluate?: (db: Db, claims: ClaimedMonitor[]) => Promise<EvaluationResult[]>;
  /**
   * The statistics threads and one evaluation's CPU-time budget (EVALUATION_CPU_MS); default the
   * process's shared pool and STATS_BUDGET_DEFAULTS.evaluationCpuMs.
   */
  stats?: EvaluationStats;
  logger?: Logger;
  /** How often the poll also checks for lines without records (no-data alerts); default half a minute (30 s, scaled by minuteMs), 0 = never. */
  noDataCheckMs?: number;
  /** false: do not poll; the caller drives tick() (tests with a fake clock). Default true. */
  autoStart?: boolean;
};

export type Worker = {
  owner: string;
  /** One poll: claims due monitors and evaluates them; the number of slots handled. */
  tick(): Promise<number>;
  /** Stops polling and waits for the running poll to finish. */
  stop(): Promise<void>;
};

const _sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** While claims come back full, new monitors' first slots are set at most this often (1 s). */
export const INITIALISE_SLOTS_MS = 1_000;

const errorResult = (err: unknown): EvaluationResult => ({
  state: "ERROR",
  reason: err instanceof Error ? err.message : String(err),
  score: null,
  threshold: null,
  trainingSize: null,
  evaluationSize: null,
  lastRecordTs: null,
  details: null,
});

export type EvaluationStats = { pool: StatsPool; cpuBudgetMs: number };

const defaultStats = (): EvaluationStats => ({
  pool: defaultStatsPool(),
  cpuBudgetMs: STATS_BUDGET_DEFAULTS.evaluationCpuMs,
});

/**
 * Window queries + pure evaluations of a batch of claimed monitors, in their order; never throws
 * (ERROR instead). The windows are loaded together (loadWindows: monitors reading the same records
 * share one query) and the previous evaluations' newest record times in one statement; the
 * evaluations run side by side on the statistics threads.
 */
export async function evaluateClaims(
  db: Tx,
  claims: readonly ClaimedMonitor[],
  stats: EvaluationStats = defaultStats(),
  /** Aborted (the worker stops): running evaluations stop and this rejects with StatsCancelledError. */
  signal?: AbortSignal,
): Promise<EvaluationResult[]> {
  const results: EvaluationResult[] = new Array(claims.length);
  const started = performance.now();
  // Each evaluation counted (linewatch_evaluations_total) and timed from the batch's start, its
  // share of the window query included, when its result is known.
  const settle = (index: number, result: EvaluationResult) => {
    results[index] = result;
    const type = claims[index]?.type ?? "unknown";
    metrics.evaluations.inc({ type, outcome: result.state.toLowerCase() });
    metrics.evaluationSeconds.observe({ type }, (performance.now() - started) / 1000);
  };
  const pending: { index: number; claim: ClaimedMonitor; filter: TStoredMonitorFilter }[] = [];
  claims.forEach((claim, index) => {
    try {
      pending.push({ index, claim, filter: parseStoredMonitorFilter(claim.filter) });
    } catch (err) {
      settle(index, errorResult(err));
    }
  });
  try {
    const windows = await loadWindows(
      db,
      pending.map(({ claim, filter }) => ({
        customerId: claim.customerId,
        lineId: claim.lineId,
        type: claim.type,
        filter,
        useExcludedPartIds: claim.useExcludedPartIds,
        useExcludedModelNumbers: claim.useExcludedModelNumbers,
      })),
    );
    const loaded = pending.filter((_, i) => !(windows[i] instanceof Error));
    const previous = await previousLastRecordTsOf(
      db,
      loaded.map((p) => p.claim.id),
    );
    await Promise.all(
      pending.map(async ({ index, claim, filter }, i) => {
        const window = windows[i] as Window | Error;
        if (window instanceof Error) {
          settle(index, errorResult(window));
          return;
        }
        const settings = monitorEvaluationSettings(
          { type: claim.type, alertThreshold: claim.alertThreshold as AlertThreshold, filter },
          previous.get(claim.id) ?? null,
        );
        const { packed, transfer } = await packWindow(window);
        try {
          settle(
            index,
            await stats.pool.run("evaluate", { settings, window: packed }, transfer, {
              cpuBudgetMs: stats.cpuBudgetMs,
              signal,
            }),
          );
        } catch (err) {
          if (err instanceof StatsCancelledError) throw err;
          settle(
            index,
            errorResult(
              err instanceof StatsBudgetError
                ? new Error(
                    `the evaluation needed more than its ${Math.round(err.budgetMs / 1000)} s of computing`,
                  )
                : err,
            ),
          );
        }
      }),
    );
  } catch (err) {
    if (err instanceof StatsCancelledError) throw err;
    // Every pending evaluation is an error then; those not counted yet are counted.
    for (const { index } of pending)
      if (results[index]) results[index] = errorResult(err);
      else settle(index, errorResult(err));
  }
  return results;
}

/** Starts polling; returns at once. */
export function startWorker(opts: WorkerOptions): Worker {
  const now = opts.now ?? (() => new Date());
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const minuteMs = opts.minuteMs ?? 60_000;
  const batchSize = opts.batchSize ?? 8;
  const logger = opts.logger ?? silentLogger;
  const leaseRenewMs = opts.leaseRenewMs ?? opts.leaseMs / 3;
  let stopped = false;
  let wake: (() => void) | undefined;
  // Stopping stops the evaluations running on the statistics threads; their slots are left to the
  // next worker (their leases given up), not stored as errors.
  const stopping = new AbortController();

  // Leases of the evaluations running now, renewed every leaseRenewMs until each one ends: a
  // monitor is taken over only when its worker stops renewing (it died or hangs), never because
  // its evaluation takes longer than one lease.
  const running = new Set<string>();
  let renewTimer: NodeJS.Timeout | undefined;
  let renewal: Promise<void> = Promise.resolve();
  // A lease lost anyway (this worker stalled past it) shows when the evaluation is stored: "lost".
  const renew = () => {
    renewal = renewLeases(opts.db, { owner, monitorIds: [...running], now: now(), leaseMs: opts.leaseMs })
      .then(() => undefined)
      .catch((err) => logger.warn({ reason: describeDbError(err) }, "lease renewal failed"));
  };
  const track = (id: string) => {
    running.add(id);
    if (!renewTimer && leaseRenewMs > 0) {
      renewTimer = setInterval(renew, leaseRenewMs);
      renewTimer.unref();
    }
  };
  const untrack = (id: string) => {
    running.delete(id);
    if (running.size === 0 && renewTimer) {
      clearInterval(renewTimer);
      renewTimer = undefined;
    }
  };

  /** Evaluates the batch together, then stores each evaluation in its own transaction. */
  const runBatch = async (claims: ClaimedMonitor[]): Promise<PromiseSettledResult<CompleteOutcome>[]> => {
    for (const claim of claims) track(claim.id);
    try {
      const stats = opts.stats ?? defaultStats();
      let results: EvaluationResult[];
      try {
        results = await (opts.evaluate ?? ((db, c) => evaluateClaims(db, c, stats, stopping.signal)))(
          opts.db,
          claims,
        );
      } catch (err) {
        if (!(err instanceof StatsCancelledError)) throw err;
        await releaseLeases(opts.db, { owner, monitorIds: claims.map((c) => c.id) });
        return [];
      }
      return await Promise.allSettled(
        claims.map((claim, i) =>
          completeClaim(opts.db, {
            owner,
            claim,
            result: results[i] as EvaluationResult,
            now,
            minuteMs,
            onEvaluated: opts.onEvaluated,
          }).finally(() => untrack(claim.id)),
        ),
      );
    } finally {
      for (const claim of claims) untrack(claim.id);
    }
  };

  const noDataCheckMs = opts.noDataCheckMs ?? noDataCheckInterval(minuteMs);
  let lastNoDataCheck = Number.NEGATIVE_INFINITY;
  // New and re-activated monitors get their first slot when the worker has caught up (the last
  // poll was not a full batch) and at least every INITIALISE_SLOTS_MS while it works through a
  // backlog: not once per claim, which with one monitor a claim was a statement per evaluation.
  let lastInitialise = Number.NEGATIVE_INFINITY;
  let wasFull = false;
  /** A stored evaluation, committed: its lag measured, its alert's change counted and logged. */
  const afterCommit = (c: ClaimedMonitor, stored: Extract<CompleteOutcome, { status: "stored" }>) => {
    const lagMs = stored.evaluation.evaluatedAt.getTime() - c.slot.getTime();
    metrics.evaluationLagSeconds.observe({ type: c.type }, Math.max(0, lagMs) / 1000);
    const a = stored.applied;
    const about = { monitorId: c.id, monitorName: c.name, type: c.type, lineId: c.lineId };
    if (a?.kind === "opened") {
      metrics.alertsChanged.inc({ type: c.type, event: "opened" });
      logger.info(
        {
          ...about,
          alertId: a.alertId,
          rule: a.rule,
          channels: a.channels,
          evaluationId: stored.evaluation.id,
        },
        `alert opened: ${c.name}`,
      );
    } else if (a?.kind === "auto-resolved") {
      metrics.alertsChanged.inc({ type: c.type, event: "resolved" });
      logger.info({ ...about, alertId: a.alertId }, `alert resolved: ${c.name}`);
    }
  };

  const tick = async (): Promise<number> => {
    if (noDataCheckMs > 0 && now().getTime() - lastNoDataCheck >= noDataCheckMs) {
      lastNoDataCheck = now().getTime();
      const nd = await checkNoData(opts.db, now());
      for (const a of nd.opened) {
        metrics.alertsChanged.inc({ type: "no_data", event: "opened" });
        logger.info({ alertId: a.id, lineId: a.lineId, type: "no_data" }, "alert opened: no data");
      }
      for (const a of nd.resolved) {
        metrics.alertsChanged.inc({ type: "no_data", event: "resolved" });
        logger.info({ alertId: a.id, lineId: a.lineId, type: "no_data" }, "alert resolved: records again");
      }
    }
    if (!wasFull || now().getTime() - lastInitialise >= INITIALISE_SLOTS_MS) {
      lastInitialise = now().getTime();
      await initialiseSlots(opts.db, now());
    }
    const claims = await claimDue(opts.db, { owner, now: now(), leaseMs: opts.leaseMs, limit: batchSize });
    wasFull = claims.length >= batchSize;
    if (claims.length === 0) return 0;
    const outcomes = await runBatch(claims);
    outcomes.forEach((o, i) => {
      const c = claims[i];
      const at = { monitorId: c?.id, slot: c?.slot.toISOString() };
      if (o.status === "rejected")
        logger.error({ ...at, reason: describeDbError(o.reason) }, "storing an evaluation failed");
      else if (o.value.status === "lost") logger.info(at, "lease lost, slot left to its new owner");
      else if (o.value.status === "stored" && c) afterCommit(c, o.value);
    });
    return claims.length;
  };

  const loop = (async () => {
    while (!stopped && opts.autoStart !== false) {
      let handled = 0;
      try {
        handled = await tick();
      } catch (err) {
        logger.warn({ reason: describeDbError(err) }, "poll failed");
      }
      if (stopped) break;
      // Full batch: more may be due, poll again at once.
      if (handled < batchSize)
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, opts.pollMs);
        });
    }
  })();

  return {
    owner,
    tick,
    async stop() {
      stopped = true;
      stopping.abort();
      wake?.();
      await loop;
      await renewal;
    },
  };
}

/** The worker of the "worker" role, with its settings from loadConfig. */
export function startWorkerFromConfig(
  db: Db,
  config: WorkerConfig,
  logger: Logger,
  opts: { onEvaluated?: WorkerOptions["onEvaluated"]; stats?: EvaluationStats } = {},
): Worker {
  const worker = startWorker({
    db,
    pollMs: config.pollMs,
    leaseMs: config.leaseMs,
    batchSize: config.batchSize,
    minuteMs: config.minuteMs,
    owner: config.id,
    onEvaluated: opts.onEvaluated,
    stats: opts.stats,
    logger,
  });
  logger.info({ owner: worker.owner }, `worker ${worker.owner} started`);
  return worker;
}
