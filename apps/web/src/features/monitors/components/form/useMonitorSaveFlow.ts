import {
  formToTask,
  MONITOR_MESSAGES,
  monitorFormErrors,
  rulesFromRuleForm,
  type TFormMode,
  type TMonitorFormValues,
  type TPlant,
} from "@linewatch/contracts";
import { useEffect, useRef, useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import { ApiError } from "../../../../shared/api/client";
import { MissingMonitorIdError, useCreateMonitor, useSaveMonitor } from "../../api/mutations";
import { fetchMonitorById } from "../../api/queries";
import type { TMonitorFormDialog } from "./MonitorFormDialogs";

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

/** A 409 names the existing monitor: it, null when it cannot be loaded, undefined for other errors. */
async function existingOf(e: unknown) {
  if (!(e instanceof ApiError && e.status === 409)) return undefined;
  const id = typeof e.body.task_uuid === "string" ? e.body.task_uuid : null;
  return id ? await fetchMonitorById(id).catch(() => null) : null;
}

/**
 * The form's save (requirements.md monitor-forms §4 "Save, create", "Save, edit", "Outcomes"; §8): validate, then create
 * (one tick later) and save the rules, or update both in parallel. The hooks invalidate and show
 * the success snackbar; this flow shows the dialogs and closes the form on success.
 */
export function useMonitorSaveFlow(p: {
  form: UseFormReturn<TMonitorFormValues>;
  mode: TFormMode;
  setMode: (mode: TFormMode) => void;
  setDialog: (dialog: TMonitorFormDialog) => void;
  customerId: string;
  plant: TPlant;
  maxRecordCount: number;
  now: () => number;
  onSaved?: (monitorId: string) => void;
  onClose: () => void;
}) {
  // The form shows its own dialogs for failures and partial outcomes.
  const createMonitor = useCreateMonitor({ errorText: false });
  const saveMonitor = useSaveMonitor({ errorText: false });
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const { form, setDialog } = p;

  const finish = (monitorId: string) => {
    p.onSaved?.(monitorId);
    p.onClose();
  };
  const taskOf = (v: TMonitorFormValues) =>
    formToTask(v, { cust_uuid: p.customerId, plant_uuid: p.plant.id });

  const saveCreate = async (v: TMonitorFormValues) => {
    const task = taskOf(v);
    // The create flow waits one tick before calling (requirements.md monitor-forms §4).
    await tick();
    let result: Awaited<ReturnType<typeof createMonitor.mutateAsync>>;
    try {
      result = await createMonitor.mutateAsync({ task, rules: rulesFromRuleForm(v.rules) });
    } catch (e) {
      const existing = await existingOf(e);
      if (existing) setDialog({ kind: "duplicate", monitor: existing });
      else if (existing === null) setDialog({ kind: "loadError" });
      else {
        const detail =
          !(e instanceof MissingMonitorIdError) && e instanceof Error && e.message ? `: ${e.message}` : "";
        setDialog({ kind: "saveError", message: `${MONITOR_MESSAGES.errorCreating}${detail}` });
      }
      return;
    }
    const { monitor: created, outcome } = result;
    if (outcome.kind === "success") {
      finish(created.monitor_uuid);
      return;
    }
    // The monitor exists now: the form stays open on it, in EDIT, so the rules can be saved again.
    form.reset({
      ...v,
      monitor_uuid: created.monitor_uuid,
      monitor_filter_md5: created.monitor_filter_md5 ?? null,
    });
    p.setMode("EDIT");
    setDialog({ kind: "partial", outcome });
  };

  const saveEdit = async (v: TMonitorFormValues) => {
    if (!v.monitor_uuid) {
      setDialog({ kind: "saveError", message: MONITOR_MESSAGES.errorSaving });
      return;
    }
    const { outcome, monitorError } = await saveMonitor.mutateAsync({
      monitorId: v.monitor_uuid,
      task: taskOf(v),
      rules: rulesFromRuleForm(v.rules),
    });
    const existing = await existingOf(monitorError);
    if (existing) {
      setDialog({ kind: "duplicate", monitor: existing });
      return;
    }
    if (outcome.kind === "success") finish(v.monitor_uuid);
    else setDialog({ kind: "partial", outcome });
  };

  const save = async () => {
    setSubmitted(true);
    const v = form.getValues();
    const current = monitorFormErrors(v, { now: p.now(), maxRecordCount: p.maxRecordCount });
    if (current.length > 0) {
      setDialog({ kind: "validation", errors: current });
      return;
    }
    if (!p.customerId || !p.plant?.id) {
      setDialog({ kind: "saveError", message: MONITOR_MESSAGES.missingContext });
      return;
    }
    setSaving(true);
    try {
      if (p.mode === "CREATE") await saveCreate(v);
      else await saveEdit(v);
    } finally {
      if (mounted.current) setSaving(false);
    }
  };

  return { save, saving, submitted };
}
