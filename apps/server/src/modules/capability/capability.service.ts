import { CAPABILITY_MESSAGES, type TCapabilityQuery, type TCapabilityView } from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError, badRequest } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import { loadWindow, WindowError } from "../evaluation/window.read.js";
import type { LinesService } from "../lines/lines.service.js";
import { capabilityView } from "./capability.fns.js";

/**
 * The capability view of a signal over a period (issue #14): the period's records read by the cap
 * window query (the signal, its limit formulas' references, the line's SPC limits), at most
 * maxRecordCount of them (the newest), and the view computed from all of them (capability.fns.ts).
 * Scoped to the session's customer: another customer's line or signal is "not found".
 */
export function createCapabilityService(deps: {
  db: Db;
  lines: LinesService;
  /** MVD_QUERY_MAX_RECORD_COUNT: the most records a view reads. */
  maxRecordCount: number;
}) {
  return {
    async view(
      ctx: AuthContext,
      lineId: string,
      signalId: string,
      query: TCapabilityQuery,
    ): Promise<TCapabilityView> {
      await deps.lines.get(ctx, lineId);
      const from = new Date(query.from);
      const to = new Date(query.to);
      if (!(from < to)) throw badRequest(CAPABILITY_MESSAGES.order);
      let window: Awaited<ReturnType<typeof loadWindow>>;
      try {
        window = await loadWindow(deps.db, {
          customerId: ctx.customerId,
          lineId,
          type: "cap",
          filter: {
            signal_uuids: [signalId],
            signal_group_uuids: [],
            part_attributes: [],
            sample_size: deps.maxRecordCount,
            pass_fail_filter: [],
            evaluation_ratio: 0,
            part_numbers: [],
            part_groups: [],
          },
          // One more than the view reads: it tells whether the period holds more.
          period: { from, to, limit: deps.maxRecordCount + 1, anchor: "end" },
        });
      } catch (err) {
        if (err instanceof WindowError)
          throw new AppError(err.code === "NOT_FOUND" ? "NOT_FOUND" : "BAD_REQUEST", err.message);
        throw err;
      }
      const isTruncated = window.records.length > deps.maxRecordCount;
      if (isTruncated) window = { ...window, records: window.records.slice(1) };
      return capabilityView(window, { from, to, isTruncated });
    },
  };
}
export type CapabilityService = ReturnType<typeof createCapabilityService>;
