/**
 * The monitor worker loop (conventions.md "Worker"): schedule/ claims due monitors, evaluate/
 * computes (window query + pure evaluation), the result is stored once per slot and handed to
 * `onEvaluated` (alert rules) inside the same transaction. Several processes share the monitors
 * through row leases (architecture.md "Processes").
 */

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { AlertThreshold } from "@linewatch/stats";
import type { Db, Tx } from "../db/client.js";
import { type EvaluationResult, evaluateMonitor } from "./evaluate/evaluate.js";
import { parseMonitorFilter, ratioOf } from "./evaluate/filter.js";
import { loadWindow } from "./evaluate/window.js";
import {
  type ClaimedMonitor,
  type CompleteOutcome,
  claimDue,
  completeClaim,
  initialiseSlots,
  previousLastRecordTs,
  renewLeases,
  type StoredEvaluation,
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
  /** Monitors claimed (and evaluated concurrently) per poll; default 8. */
  batchSize?: number;
  /** Length of a frequency minute; default 60 000 (tests shorten it). */
  minuteMs?: number;
  /** Lease owner name; default host:pid:random. */
  owner?: string;
  /** Alert rules: runs in the transaction that stores the evaluation. */
  onEvaluated?: (tx: Tx, evaluation: StoredEvaluation) => Promise<void>;
  /** Test knob: wait this long between claiming and evaluating (to kill a worker holding leases). */
  evaluationDelayMs?: number;
  log?: (message: string) => void;
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Window query + pure evaluation of one claimed monitor; never throws (ERROR instead). */
export async function evaluateClaim(db: Tx, claim: ClaimedMonitor): Promise<EvaluationResult> {
  try {
    const filter = parseMonitorFilter(claim.filter);
    const window = await loadWindow(db, {
      customerId: claim.customerId,
      lineId: claim.lineId,
      type: claim.type,
      filter,
      useExcludedPartIds: claim.useExcludedPartIds,
      useExcludedModelNumbers: claim.useExcludedModelNumbers,
    });
    return evaluateMonitor(
      {
        type: claim.type,
        alertThreshold: claim.alertThreshold as AlertThreshold,
        sampleSize: filter.sample_size,
        evaluationRatio: ratioOf(filter),
        previousLastRecordTs: await previousLastRecordTs(db, claim.id),
      },
      window,
    );
  } catch (err) {
    return {
      state: "ERROR",
      reason: err instanceof Error ? err.message : String(err),
      score: null,
      threshold: null,
      trainingSize: null,
      evaluationSize: null,
      lastRecordTs: null,
      details: null,
    };
  }
}

/** Starts polling; returns at once. */
export function startWorker(opts: WorkerOptions): Worker {
  const now = opts.now ?? (() => new Date());
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const minuteMs = opts.minuteMs ?? 60_000;
  const batchSize = opts.batchSize ?? 8;
  const log = opts.log ?? (() => {});
  const leaseRenewMs = opts.leaseRenewMs ?? opts.leaseMs / 3;
  let stopped = false;
  let wake: (() => void) | undefined;

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
      .catch((err) => log(`lease renewal failed: ${err instanceof Error ? err.message : String(err)}`));
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

  const runOne = async (claim: ClaimedMonitor): Promise<CompleteOutcome> => {
    track(claim.id);
    try {
      if (opts.evaluationDelayMs) await sleep(opts.evaluationDelayMs);
      const result = await evaluateClaim(opts.db, claim);
      return await completeClaim(opts.db, {
        owner,
        claim,
        result,
        now,
        minuteMs,
        onEvaluated: opts.onEvaluated,
      });
    } finally {
      untrack(claim.id);
    }
  };

  const tick = async (): Promise<number> => {
    await initialiseSlots(opts.db, now());
    const claims = await claimDue(opts.db, { owner, now: now(), leaseMs: opts.leaseMs, limit: batchSize });
    const outcomes = await Promise.allSettled(claims.map(runOne));
    outcomes.forEach((o, i) => {
      const c = claims[i];
      if (o.status === "rejected") log(`monitor ${c?.id} slot ${c?.slot.toISOString()}: ${String(o.reason)}`);
      else if (o.value.status === "lost") log(`monitor ${c?.id}: lease lost, slot left to its new owner`);
    });
    return claims.length;
  };

  const loop = (async () => {
    while (!stopped && opts.autoStart !== false) {
      let handled = 0;
      try {
        handled = await tick();
      } catch (err) {
        log(`poll failed: ${err instanceof Error ? err.message : String(err)}`);
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
      wake?.();
      await loop;
      await renewal;
    },
  };
}

/** The worker of the "worker" role, with its settings from the environment. */
export function startWorkerFromEnv(
  db: Db,
  log: (m: string) => void,
  opts: { onEvaluated?: WorkerOptions["onEvaluated"]; env?: NodeJS.ProcessEnv } = {},
): Worker {
  const env = opts.env ?? process.env;
  const num = (name: string, dflt: number) => {
    const v = env[name];
    if (v == null || v === "") return dflt;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of 0 or more, got "${v}"`);
    return n;
  };
  const worker = startWorker({
    db,
    pollMs: num("WORKER_POLL_MS", 5_000),
    leaseMs: num("WORKER_LEASE_MS", 120_000),
    batchSize: num("WORKER_BATCH_SIZE", 8),
    minuteMs: num("WORKER_MINUTE_MS", 60_000),
    evaluationDelayMs: num("WORKER_TEST_EVALUATION_DELAY_MS", 0),
    owner: env.WORKER_ID || undefined,
    onEvaluated: opts.onEvaluated,
    log: (m) => log(`worker: ${m}`),
  });
  log(`worker ${worker.owner} started`);
  return worker;
}
