import {
  monitorToTask,
  type TMonitor,
  type TMonitorRule,
  type TTaskCreateBody,
  type TTaskUpdateBody,
} from "@linewatch/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client";
import { lineOverviewKeys } from "../../line-overview/api/keys";
import { monitorKeys } from "./keys";

type MonitorInput = Parameters<typeof monitorToTask>[0];

/** POST /api/tasks: the created task mapped back to a monitor (spec §7). */
export const createMonitor = (m: MonitorInput) =>
  api<TMonitor>("POST", "/api/tasks", monitorToTask(m) as TTaskCreateBody);

/** PUT /api/tasks: status only (spec §7). */
export const updateMonitor = (m: MonitorInput) =>
  api<unknown>("PUT", "/api/tasks", monitorToTask(m) as TTaskUpdateBody);

export const saveMonitorRules = (monitorId: string, rules: TMonitorRule[]) =>
  api<TMonitorRule[]>("PATCH", `/api/notifications/monitor-rules/${monitorId}`, rules);

/** The monitor list cache is invalidated after create and update (spec §4). */
export function invalidateMonitor(qc: QueryClient, monitorId: string | null, lineId: string) {
  void qc.invalidateQueries({ queryKey: monitorKeys.all });
  void qc.invalidateQueries({ queryKey: lineOverviewKeys.monitors(lineId) });
  if (monitorId) {
    void qc.invalidateQueries({ queryKey: monitorKeys.byId(monitorId) });
    void qc.invalidateQueries({ queryKey: monitorKeys.rules(monitorId) });
  }
}
