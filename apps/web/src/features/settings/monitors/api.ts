import {
  MONITOR_MESSAGES,
  MONITOR_SNACKBAR_MS,
  type TFormMonitorType,
  type TMonitor,
  type TPatchMonitorBody,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../shared/api/client";
import { plantKeys } from "../../../shared/data/plants/keys";
import { useSnackbar } from "../../../shared/ui/SnackbarProvider";
import { lineOverviewKeys } from "../../line-overview/api/keys";
import { monitorKeys } from "../../monitors/api/keys";
import { MONITORS_ADMIN_TEXTS } from "./texts";

/** Monitor save and delete snackbars of the admin pages hide after 3000 ms (spec settings §9). */
const snackbarMs = MONITOR_SNACKBAR_MS;

/** spec settings §8 "Monitors": a 409 shows nothing. */
const isConflict = (err: unknown) => err instanceof ApiError && err.status === 409;

/** What a change to a line's monitors makes stale: the monitor lists and the line's active count. */
function useInvalidateMonitors() {
  const qc = useQueryClient();
  return (v: { lineId: string; plantId: string | null }) => {
    void qc.invalidateQueries({ queryKey: monitorKeys.all });
    void qc.invalidateQueries({ queryKey: lineOverviewKeys.monitors(v.lineId) });
    if (v.plantId) void qc.invalidateQueries({ queryKey: plantKeys.lines(v.plantId) });
  };
}

type MonitorRef = { monitorId: string; type: TFormMonitorType; lineId: string; plantId: string | null };

/** PATCH /api/monitors/{id} {active} (capability-service variant, spec monitor-forms §7), then refresh. */
export function useSetMonitorActive() {
  const qc = useQueryClient();
  const invalidate = useInvalidateMonitors();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: MonitorRef & { active: boolean }) =>
      api<TMonitor>("PATCH", `/api/monitors/${encodeURIComponent(v.monitorId)}`, {
        active: v.active,
      } satisfies TPatchMonitorBody),
    onSuccess: (saved, v) => {
      // The switch keeps its new position while the list is fetched again.
      qc.setQueryData<TMonitor[]>(monitorKeys.list(v.lineId, v.type), (rows) =>
        rows?.map((m) => (m.monitor_uuid === saved.monitor_uuid ? saved : m)),
      );
      snackbar(MONITOR_MESSAGES.adminSaved, { durationMs: snackbarMs });
    },
    onError: (err) => {
      if (isConflict(err)) return;
      snackbar(MONITOR_MESSAGES.errorSaving, { severity: "error", durationMs: snackbarMs });
    },
    onSettled: (_d, _e, v) => invalidate(v),
  });
}

/** DELETE /api/tasks {monitor_uuid} (spec settings §7), then refresh. */
export function useDeleteMonitor() {
  const invalidate = useInvalidateMonitors();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: MonitorRef) => api<null>("DELETE", "/api/tasks", { monitor_uuid: v.monitorId }),
    onSuccess: () => snackbar(MONITORS_ADMIN_TEXTS.deleted, { durationMs: snackbarMs }),
    onError: (err) => {
      if (isConflict(err)) return;
      snackbar(MONITOR_MESSAGES.errorDeleting, { severity: "error", durationMs: snackbarMs });
    },
    onSettled: (_d, _e, v) => invalidate(v),
  });
}
