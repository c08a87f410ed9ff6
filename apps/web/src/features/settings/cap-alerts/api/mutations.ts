import {
  MONITOR_MESSAGES,
  monitorToTask,
  type TMonitor,
  type TMonitorRule,
  type TPatchMonitorBody,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../../shared/api/client";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { invalidateMonitors, saveMonitorRules } from "../../../monitors/api/mutations";
import { capAlertsKeys } from "./keys";

const patchMonitor = (id: string, body: TPatchMonitorBody) =>
  api<TMonitor>("PATCH", `/api/monitors/${encodeURIComponent(id)}`, body);

/**
 * The Monitor checkbox (spec settings §4 "Monitor active flag"): a signal without a monitor gets
 * one (POST /api/monitors {signalId}, then switched on: the new cap defaults have it off); an
 * existing one flips. A duplicate answer (409) names the existing monitor, which is switched on.
 */
async function toggleMonitor(v: { signalId: string; monitor: TMonitor | null }): Promise<TMonitor> {
  if (v.monitor) return patchMonitor(v.monitor.monitor_uuid, { active: !v.monitor.active });
  let id: string;
  try {
    id = (await api<{ id: string }>("POST", "/api/monitors", { signalId: v.signalId })).id;
  } catch (err) {
    const existing =
      err instanceof ApiError && err.status === 409 ? (err.body as { task_uuid?: string }) : null;
    if (!existing?.task_uuid) throw err;
    id = existing.task_uuid;
  }
  return patchMonitor(id, { active: true });
}

function useInvalidate(lineId: string | null) {
  const qc = useQueryClient();
  return (monitorId: string | null) => {
    if (!lineId) return;
    invalidateMonitors(qc, { monitorId, lineId, plantId: null });
    void qc.invalidateQueries({ queryKey: capAlertsKeys.status(lineId) });
  };
}

/** Failures show the page's dialog (spec settings §8 "Capability"), not a snackbar. */
export function useToggleCapMonitor(lineId: string | null) {
  const invalidate = useInvalidate(lineId);
  return useMutation({
    mutationFn: toggleMonitor,
    onSettled: (m, _e, v) => invalidate(m?.monitor_uuid ?? v.monitor?.monitor_uuid ?? null),
  });
}

/** Exclude Challenge Parts / Exclude Model Numbers (PATCH /api/monitors/{id}). */
export function usePatchCapMonitor(lineId: string | null) {
  const invalidate = useInvalidate(lineId);
  return useMutation({
    mutationFn: (v: { monitorId: string; body: TPatchMonitorBody }) => patchMonitor(v.monitorId, v.body),
    onSettled: (_m, _e, v) => invalidate(v.monitorId),
  });
}

/** PATCH /api/notifications/monitor-rules/{monitorId}: 'Alert rules saved' or 'Error saving alert rules'. */
export function useSaveCapRules(lineId: string | null) {
  const invalidate = useInvalidate(lineId);
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { monitorId: string; rules: TMonitorRule[] }) => saveMonitorRules(v.monitorId, v.rules),
    onSuccess: () => snackbar(MONITOR_MESSAGES.rulesSaved),
    onError: () => snackbar(MONITOR_MESSAGES.errorSavingRules, { severity: "error" }),
    onSettled: (_r, _e, v) => invalidate(v.monitorId),
  });
}

/**
 * A cap monitor's data filters on this page: the operation count (spec monitor-forms §2 "Cap
 * monitors": ALL, FIRST, LAST per part), its challenge ranges (ibid.) and the Western Electric
 * rules 2–4 it also breaches on (issue #14). PUT /api/tasks with the monitor as it is and the changed filter fields.
 */
export function useSetCapFilter(lineId: string | null) {
  const invalidate = useInvalidate(lineId);
  return useMutation({
    mutationFn: (v: {
      monitor: TMonitor;
      change: Partial<Pick<TMonitor["monitor_filter"], "op_count" | "run_rules" | "challenge_ranges">>;
    }) =>
      api<TMonitor>(
        "PUT",
        "/api/tasks",
        monitorToTask({ ...v.monitor, monitor_filter: { ...v.monitor.monitor_filter, ...v.change } }),
      ),
    onSettled: (_m, _e, v) => invalidate(v.monitor.monitor_uuid),
  });
}
