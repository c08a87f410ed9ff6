import {
  MONITOR_MESSAGES,
  monitorToTask,
  type TMonitor,
  type TMonitorRule,
  type TPatchMonitorBody,
} from "@linewatch/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { invalidateMonitors, saveMonitorRules } from "../../../monitors/api/mutations";
import { capAlertsKeys } from "./keys";

const patchMonitor = (id: string, body: TPatchMonitorBody) =>
  api<TMonitor>("PATCH", `/api/monitors/${encodeURIComponent(id)}`, body);

/**
 * The Monitor checkbox (requirements.md settings §4 "Monitor active flag"): a signal without a monitor gets
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

/** A cap monitor of the line changed: every key that shows monitors, and the page's status. */
function invalidateCap(qc: QueryClient, lineId: string | null, monitorId: string | null) {
  if (!lineId) return;
  invalidateMonitors(qc, { monitorId, lineId, plantId: null });
  void qc.invalidateQueries({ queryKey: capAlertsKeys.status(lineId) });
}

type ToggleVars = { signalId: string; monitor: TMonitor | null };

/** Failures show the page's dialog (requirements.md settings §8 "Capability"), not a snackbar. */
export function useToggleCapMonitor(
  lineId: string | null,
  options?: ResourceMutationOptions<TMonitor, ToggleVars>,
) {
  return useResourceMutation(
    {
      mutationFn: toggleMonitor,
      invalidate: (qc, v, m) => invalidateCap(qc, lineId, m?.monitor_uuid ?? v.monitor?.monitor_uuid ?? null),
      successText: false,
      errorText: false,
    },
    options,
  );
}

type PatchVars = { monitorId: string; body: TPatchMonitorBody };

/** Exclude Challenge Parts / Exclude Model Numbers (PATCH /api/monitors/{id}); the page words failures. */
export function usePatchCapMonitor(
  lineId: string | null,
  options?: ResourceMutationOptions<TMonitor, PatchVars>,
) {
  return useResourceMutation(
    {
      mutationFn: (v) => patchMonitor(v.monitorId, v.body),
      invalidate: (qc, v) => invalidateCap(qc, lineId, v.monitorId),
      successText: false,
      errorText: false,
    },
    options,
  );
}

type RulesVars = { monitorId: string; rules: TMonitorRule[] };

/** PATCH /api/notifications/monitor-rules/{monitorId}: 'Alert rules saved' or 'Error saving alert rules'. */
export function useSaveCapRules(
  lineId: string | null,
  options?: ResourceMutationOptions<TMonitorRule[], RulesVars>,
) {
  return useResourceMutation(
    {
      mutationFn: (v) => saveMonitorRules(v.monitorId, v.rules),
      invalidate: (qc, v) => invalidateCap(qc, lineId, v.monitorId),
      successText: MONITOR_MESSAGES.rulesSaved,
      errorText: MONITOR_MESSAGES.errorSavingRules,
    },
    options,
  );
}

type FilterVars = {
  monitor: TMonitor;
  change: Partial<Pick<TMonitor["monitor_filter"], "op_count" | "run_rules" | "challenge_ranges">>;
};

/**
 * A cap monitor's data filters on this page: the operation count (requirements.md monitor-forms §2 "Cap
 * monitors": ALL, FIRST, LAST per part), its challenge ranges (ibid.) and the Western Electric
 * rules 2–4 it also breaches on (issue #14). PUT /api/tasks with the monitor as it is and the
 * changed filter fields; the page words success and failure.
 */
export function useSetCapFilter(
  lineId: string | null,
  options?: ResourceMutationOptions<TMonitor, FilterVars>,
) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TMonitor>(
          "PUT",
          "/api/tasks",
          monitorToTask({ ...v.monitor, monitor_filter: { ...v.monitor.monitor_filter, ...v.change } }),
        ),
      invalidate: (qc, v) => invalidateCap(qc, lineId, v.monitor.monitor_uuid),
      successText: false,
      errorText: false,
    },
    options,
  );
}
