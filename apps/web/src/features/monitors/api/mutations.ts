import {
  MONITOR_MESSAGES,
  type TFormMonitorType,
  type TMonitor,
  type TMonitorRule,
  type TPatchMonitorBody,
  type TTaskCreateBody,
  type TTaskUpdateBody,
} from "@linewatch/contracts";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client";
import {
  type ResourceMutation,
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../shared/api/useResourceMutation";
import { monitorDisplayKeys, monitorKeys } from "./keys";
import { combineSaveOutcome, partMessage, type SaveOutcome, type SavePart } from "./save-outcome";

// The monitors' one data layer (docs/conventions.md "Web": Supabase Studio's data/<resource>/): each hook
// calls the API, invalidates every key that shows monitors, and shows its message, in the shape of
// every mutation hook (shared/api/useResourceMutation): a caller's options come last.

/** What a change touched: the monitor (when known), its line and its plant. */
export type TMonitorChange = { monitorId: string | null; lineId: string; plantId: string | null };

/**
 * Every key that shows monitors: the monitor lists, the line overview's monitors, the plant's
 * lines (their active-monitor counts) and the monitor and its rules. The monitor list cache is
 * invalidated after create and update (requirements.md monitor-forms §4).
 */
export function invalidateMonitors(qc: QueryClient, c: TMonitorChange) {
  for (const filter of monitorDisplayKeys(c)) void qc.invalidateQueries(filter);
}

/** Options a caller may pass to every monitor mutation hook. */
export type MonitorMutationOptions<TData, TVars> = ResourceMutationOptions<TData, TVars>;

/** One monitor mutation: its call, what it changes, its default texts, then the caller's options. */
function useMonitorMutation<TData, TVars>(
  def: Omit<ResourceMutation<TData, TVars>, "invalidate"> & {
    changed: (v: TVars, data: TData | undefined) => TMonitorChange;
  },
  options: MonitorMutationOptions<TData, TVars> = {},
) {
  const { changed, ...rest } = def;
  return useResourceMutation(
    { ...rest, invalidate: (qc, v, data) => invalidateMonitors(qc, changed(v, data)) },
    options,
  );
}

/** The answer of a create carried no monitor id (requirements.md monitor-forms §8: a save-error dialog). */
export class MissingMonitorIdError extends Error {
  constructor() {
    super("");
    this.name = "MissingMonitorIdError";
  }
}

export type TCreateMonitorVars = { task: TTaskCreateBody; rules: TMonitorRule[] };
export type TCreatedMonitor = { monitor: TMonitor; outcome: SaveOutcome };

/** POST /api/tasks: the created task mapped back to a monitor (requirements.md monitor-forms §7). */
const postTask = (task: TTaskCreateBody) => api<TMonitor>("POST", "/api/tasks", task);
/** PUT /api/tasks: status only (requirements.md monitor-forms §7). */
const putTask = (task: TTaskUpdateBody) => api<unknown>("PUT", "/api/tasks", task);
/** PATCH /api/notifications/monitor-rules/{monitorId} (requirements.md monitor-forms §7). */
export const saveMonitorRules = (monitorId: string, rules: TMonitorRule[]) =>
  api<TMonitorRule[]>("PATCH", `/api/notifications/monitor-rules/${monitorId}`, rules);

const changeOfTask = (task: TTaskCreateBody, monitorId: string | null): TMonitorChange => ({
  monitorId,
  lineId: task.task_details.line_uuid,
  plantId: task.task_details.plant_uuid,
});

/**
 * Create a monitor, then its alert rules (requirements.md monitor-forms §4 "Save, create"): the create failing (a 409
 * duplicate included) is the mutation's error; the rules failing is a partial outcome. A created
 * monitor without an id throws MissingMonitorIdError.
 */
export function useCreateMonitor(options?: MonitorMutationOptions<TCreatedMonitor, TCreateMonitorVars>) {
  return useMonitorMutation(
    {
      mutationFn: async ({ task, rules }) => {
        const monitor = await postTask(task);
        if (!monitor?.monitor_uuid) throw new MissingMonitorIdError();
        const parts: SavePart[] = [
          { part: "monitor", ok: true, message: partMessage("monitor", true, true) },
        ];
        try {
          await saveMonitorRules(monitor.monitor_uuid, rules);
          parts.push({ part: "rules", ok: true, message: partMessage("rules", true, true) });
        } catch {
          parts.push({ part: "rules", ok: false, message: partMessage("rules", false, true) });
        }
        return { monitor, outcome: combineSaveOutcome(parts) };
      },
      changed: (v, data) => changeOfTask(v.task, data?.monitor.monitor_uuid ?? null),
      successText: (d) => (d.outcome.kind === "success" ? d.outcome.snackbar : false),
      errorText: MONITOR_MESSAGES.errorCreating,
    },
    options,
  );
}

export type TSaveMonitorVars = { monitorId: string; task: TTaskCreateBody; rules: TMonitorRule[] };
/** The combined outcome; `monitorError` is why the monitor's update failed (a 409 duplicate, say). */
export type TSavedMonitor = { outcome: SaveOutcome; monitorError: unknown };

/**
 * Save a monitor and its alert rules (requirements.md monitor-forms §4 "Save, edit"): both run in parallel and combine into
 * one outcome; neither failing throws.
 */
export function useSaveMonitor(options?: MonitorMutationOptions<TSavedMonitor, TSaveMonitorVars>) {
  return useMonitorMutation(
    {
      mutationFn: async ({ monitorId, task, rules }) => {
        const [m, r] = await Promise.allSettled([
          putTask({ ...task, task_uuid: monitorId }),
          saveMonitorRules(monitorId, rules),
        ]);
        const part = (p: SavePart["part"], ok: boolean): SavePart => ({
          part: p,
          ok,
          message: partMessage(p, ok, false),
        });
        return {
          outcome: combineSaveOutcome([
            part("monitor", m.status === "fulfilled"),
            part("rules", r.status === "fulfilled"),
          ]),
          monitorError: m.status === "rejected" ? m.reason : null,
        };
      },
      changed: (v) => changeOfTask(v.task, v.monitorId),
      successText: (d) => (d.outcome.kind === "success" ? d.outcome.snackbar : false),
      errorText: MONITOR_MESSAGES.errorSaving,
    },
    options,
  );
}

/** A monitor of a line's list (the settings pages' rows). */
export type TMonitorRef = {
  monitorId: string;
  type: TFormMonitorType;
  lineId: string;
  plantId: string | null;
};

/** PATCH /api/monitors/{id} {active} (capability-service variant, requirements.md monitor-forms §7). */
export function useSetMonitorActive(
  options?: MonitorMutationOptions<TMonitor, TMonitorRef & { active: boolean }>,
) {
  const qc = useQueryClient();
  const { onSuccess, ...rest } = options ?? {};
  return useMonitorMutation(
    {
      mutationFn: (v) =>
        api<TMonitor>("PATCH", `/api/monitors/${encodeURIComponent(v.monitorId)}`, {
          active: v.active,
        } satisfies TPatchMonitorBody),
      changed: (v) => v,
      successText: MONITOR_MESSAGES.saved,
      errorText: MONITOR_MESSAGES.errorSaving,
    },
    {
      ...rest,
      onSuccess: (...args) => {
        const [saved, v] = args;
        // The switch keeps its new position while the list is fetched again.
        qc.setQueryData<TMonitor[]>(monitorKeys.list(v.lineId, v.type), (rows) =>
          rows?.map((m) => (m.monitor_uuid === saved.monitor_uuid ? saved : m)),
        );
        return onSuccess?.(...args);
      },
    },
  );
}

/** DELETE /api/tasks {monitor_uuid} (requirements.md settings §7). */
export function useDeleteMonitor(options?: MonitorMutationOptions<null, TMonitorRef>) {
  return useMonitorMutation(
    {
      mutationFn: (v) => api<null>("DELETE", "/api/tasks", { monitor_uuid: v.monitorId }),
      changed: (v) => v,
      // The spec names no success text for a delete: the caller words one.
      successText: false,
      errorText: MONITOR_MESSAGES.errorDeleting,
    },
    options,
  );
}
