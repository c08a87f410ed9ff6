import {
  CAPABILITY_BOUNDS,
  CAPABILITY_MESSAGES,
  type TCapabilityQuery,
  type TCapabilityView,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError, badRequest } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import { StatsBudgetError, type StatsPool } from "../evaluation/stats-pool.js";
import { packWindow } from "../evaluation/window.pack.js";
import { singleSignalFilter } from "../evaluation/window.plan.js";
import { loadPeriodSample, WindowError } from "../evaluation/window.read.js";
import type { LinesService } from "../lines/lines.service.js";

/**
 * The capability view of a signal over a period (issue #14): the period's records read by the cap
 * window query (the signal, its limit formulas' references, the line's SPC limits) — all of them
 * up to CAPABILITY_BOUNDS.maxRecords, a sample of equal stretches of the period beyond
 * (loadPeriodSample, issue 31 §4: a month of a busy station whole would take seconds) — and the
 * view computed from all of those (capability.fns.ts).
 * Scoped to the session's customer: another customer's line or signal is "not found". The view is
 * computed on a statistics thread (stats-pool.ts) within STATS_REQUEST_CPU_MS of CPU time, and
 * stops when the request's client goes away.
 */
export function createCapabilityService(deps: {
  db: Db;
  lines: LinesService;
  /** The most records a view reads; default CAPABILITY_BOUNDS.maxRecords. */
  maxRecords?: number;
  stats: StatsPool;
  /** STATS_REQUEST_CPU_MS: the CPU time one view's statistics may take. */
  cpuBudgetMs: number;
}) {
  const maxRecords = deps.maxRecords ?? CAPABILITY_BOUNDS.maxRecords;
  return {
    async view(
      ctx: AuthContext,
      lineId: string,
      signalId: string,
      query: TCapabilityQuery,
      opts: { signal?: AbortSignal } = {},
    ): Promise<TCapabilityView> {
      await deps.lines.get(ctx, lineId);
      const from = new Date(query.from);
      const to = new Date(query.to);
      if (!(from < to)) throw badRequest(CAPABILITY_MESSAGES.order);
      let sample: Awaited<ReturnType<typeof loadPeriodSample>>;
      try {
        sample = await loadPeriodSample(
          deps.db,
          {
            customerId: ctx.customerId,
            lineId,
            type: "cap",
            filter: {
              ...singleSignalFilter(signalId, maxRecords),
              // One model number's records (a CAP alert's, say), read by the query itself.
              part_numbers: query.model ? [query.model] : [],
            },
          },
          { from, to },
          { max: maxRecords, stretches: CAPABILITY_BOUNDS.stretches },
          { signal: opts.signal },
        );
      } catch (err) {
        if (err instanceof WindowError)
          throw new AppError(err.code === "NOT_FOUND" ? "NOT_FOUND" : "BAD_REQUEST", err.message);
        throw err;
      }
      const { window, isSampled: isTruncated } = sample;
      const { packed, transfer } = await packWindow(window);
      try {
        return await deps.stats.run(
          "capability",
          { window: packed, period: { from, to, isTruncated } },
          transfer,
          { cpuBudgetMs: deps.cpuBudgetMs, signal: opts.signal },
        );
      } catch (err) {
        if (err instanceof StatsBudgetError)
          throw badRequest(CAPABILITY_MESSAGES.tooLong(Math.round(err.budgetMs / 1000)));
        throw err;
      }
    },
  };
}
export type CapabilityService = ReturnType<typeof createCapabilityService>;
