import { EVALUATION_STATES, type TCapMonitorStatus, type TEvaluationState } from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { LinesService } from "../lines/lines.service.js";
import { createCapAlertsRepo } from "./cap-alerts.repo.js";

const stateOf = (s: string | null): TEvaluationState | null =>
  s !== null && (EVALUATION_STATES as readonly string[]).includes(s) ? (s as TEvaluationState) : null;

/** What the Cap Alerts grid shows of each cap monitor beyond its settings (issue #14). */
export function createCapAlertsService(deps: { db: Db; lines: LinesService }) {
  const repo = createCapAlertsRepo(deps.db);
  return {
    async status(ctx: AuthContext, lineId: string): Promise<TCapMonitorStatus[]> {
      await deps.lines.get(ctx, lineId);
      return (await repo.status(ctx.customerId, lineId)).map((r) => {
        const ppk = r.ppk === null ? null : Number(r.ppk);
        return {
          monitorId: r.monitor_id,
          lastState: stateOf(r.state),
          ppk: ppk !== null && Number.isFinite(ppk) ? ppk : null,
          latestAlertId: r.alert_id,
        };
      });
    },
  };
}
export type CapAlertsService = ReturnType<typeof createCapAlertsService>;
