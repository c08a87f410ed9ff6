import {
  MONITOR_MESSAGES,
  type TFormMonitorType,
  type TMonitor,
  type TMonitorRule,
  type TPatchMonitorBody,
  type TTaskCreateBody,
  type TTaskUpdateBody,
} from "@linewatch/contracts";
import {
  type QueryClient,
  type UseMutationOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { api } from "../../../shared/api/client";
import { useSnackbar } from "../../../shared/ui/SnackbarProvider";
import { monitorDisplayKeys, monitorKeys } from "./keys";
import { combineSaveOutcome, partMessage, type SaveOutcome, type SavePart } from "./save-outcome";

// The monitors' one data layer (conventions "Web": Supabase Studio's data/<resource>/): each hook
// calls the API, invalidates every key that shows monitors, and shows its message. A caller's
// options come last, so a page words its own success and error texts (or shows none and a
// dialog instead) and adds its own callbacks.

/** What a change touched: the monitor (when known), its line and its plant. */
export type TMonitorChange = { monitorId: string | null; lineId: string; plantId: string | null };

/**
 * Every key that shows monitors: the monitor lists, the line overview's monitors, the plant's
 * lines (their active-monitor counts) and the monitor and its rules. The monitor list cache is
 * invalidated after create and update (spec §4).
 */
export function invalidateMonitors(qc: QueryClient, c: TMonitorChange) {
  for (const filter of monitorDisplayKeys(c)) void qc.invalidateQueries(filter);
}

type Text<TData, TVars, TArg = TData> = string | false | ((arg: TArg, vars: TVars) => string | false);

/** Options a caller may pass to every monitor mutation hook. */
export type MonitorMutationOptions<TData, TVars> = Omit<
  UseMutationOptions<TData, Error, TVars>,
  "mutationFn"
> & {
  /** The success snackbar; false shows none. Default: the spec's message for the change. */
  successText?: Text<TData, TVars>;
  /** The error snackbar; false shows none (the caller shows a dialog). Default: the spec's message. */
  errorText?: Text<TData, TVars, Error>;
  /** How long the snackbars stay (default: the snackbar constant, 3300 ms). */
  snackbarMs?: number;
};

const textOf = <A, V>(t: string | false | ((a: A, v: V) => string | false), a: A, v: V) =>
  typeof t === "function" ? t(a, v) : t;

/** One monitor mutation: its call, what it changes, its default texts, then the caller's options. */
function useMonitorMutation<TData, TVars>(
  def: {
    mutationFn: (v: TVars) => Promise<TData>;
    changed: (v: TVars, data: TData | undefined) => TMonitorChange;
    successText: Text<TData, TVars>;
    errorText: Text<TData, TVars, Error>;
  },
  options: MonitorMutationOptions<TData, TVars> = {},
) {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  const { successText, errorText, snackbarMs, onSuccess, onError, onSettled, ...rest } = options;
  return useMutation<TData, Error, TVars>({
    ...rest,
    mutationFn: def.mutationFn,
    onSuccess: (...args) => {
      const text = textOf(successText ?? def.successText, args[0], args[1]);
      if (text) snackbar(text, { durationMs: snackbarMs });
      return onSuccess?.(...args);
    },
    onError: (...args) => {
      const text = textOf(errorText ?? def.errorText, args[0], args[1]);
      if (text) snackbar(text, { severity: "error", durationMs: snackbarMs });
      return onError?.(...args);
    },
    onSettled: (...args) => {
      invalidateMonitors(qc, def.changed(args[2], args[0]));
      return onSettled?.(...args);
    },
  });
}

/** The answer of a create carried no monitor id (spec §8: a save-error dialog). */
export class MissingMonitorIdError extends Error {
  constructor() {
    super("");
    this.name = "MissingMonitorIdError";
  }
}

export type TCreateMonitorVars = { task: TTaskCreateBody; rules: TMonitorRule[] };
export type TCreatedMonitor = { monitor: TMonitor; outcome: SaveOutcome };

/** POST /api/tasks: the created task mapped back to a monitor (spec §7). */
const postTask = (task: TTaskCreateBody) => api<TMonitor>("POST", "/api/tasks", task);
/** PUT /api/tasks: status only (spec §7). */
const putTask = (task: TTaskUpdateBody) => api<unknown>("PUT", "/api/tasks", task);
/** PATCH /api/notifications/monitor-rules/{monitorId} (spec §7). */
export const saveMonitorRules = (monitorId: string, rules: TMonitorRule[]) =>
  api<TMonitorRule[]>("PATCH", `/api/notifications/monitor-rules/${monitorId}`, rules);

const changeOfTask = (task: TTaskCreateBody, monitorId: string | null): TMonitorChange => ({
  monitorId,
  lineId: task.task_details.line_uuid,
  plantId: task.task_details.plant_uuid,
});

/**
 * Create a monitor, then its alert rules (spec §4 "Save, create"): the create failing (a 409
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
 * Save a monitor and its alert rules (spec §4 "Save, edit"): both run in parallel and combine into
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

/** PATCH /api/monitors/{id} {active} (capability-service variant, spec monitor-forms §7). */
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

/** DELETE /api/tasks {monitor_uuid} (spec settings §7). */
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
