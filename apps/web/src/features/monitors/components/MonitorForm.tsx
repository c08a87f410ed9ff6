import {
  DEFAULT_FORM_TAB,
  FORM_TABS,
  formToTask,
  MONITOR_MESSAGES,
  monitorFormErrors,
  monitorToForm,
  newMonitorForm,
  QUERY_BOUNDS,
  reconcileFilterMd5,
  rulesFromRuleForm,
  type TFormError,
  type TFormMode,
  type TFormMonitorType,
  type TFormTab,
  type TMonitor,
  type TMonitorFormValues,
  type TPlant,
} from "@linewatch/contracts";
import {
  Alert,
  Backdrop,
  Box,
  Button,
  CircularProgress,
  Divider,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  Stack,
  Switch,
  Tab,
  Tabs,
  Typography,
} from "@mui/material";
import { useEffect, useMemo, useRef, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { useMe } from "../../../app/auth/session";
import { useLine, usePlantLine } from "../../../app/context/PlantLineContext";
import { ApiError } from "../../../shared/api/client";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { MissingMonitorIdError, useCreateMonitor, useSaveMonitor } from "../api/mutations";
import {
  fetchMonitorById,
  fetchNextMonitorName,
  useMonitor,
  useMonitorFormBounds,
  useMonitorRules,
} from "../api/queries";
import type { SaveOutcome } from "../api/save-outcome";
import { DataFiltersTab } from "./filters/DataFiltersTab";
import { FrequencyInput } from "./header/FrequencyInput";
import { NameRow } from "./header/NameRow";
import { NotesBox } from "./header/NotesBox";
import { ThresholdControl } from "./header/ThresholdControl";
import { MonitorFormContext, type MonitorFormCtx } from "./MonitorFormContext";
import { AlertRulesTab } from "./rules/AlertRulesTab";
import { SignalsTab } from "./signals/SignalsTab";

export type MonitorFormProps = {
  type: TFormMonitorType;
  /** CREATE without a monitor id; EDIT or VIEW of the monitor with this id. */
  mode: TFormMode;
  monitorId?: string | null;
  /** The line a new monitor starts on (default: the line picked in the top bar). */
  lineId?: string | null;
  /** Called after a successful save (the form has closed itself) and on Cancel / Close. */
  onClose: () => void;
  /** Called with the saved monitor's id after a successful create or update. */
  onSaved?: (monitorId: string) => void;
  /** The clock (tests pass a fixed one). */
  now?: () => number;
};

const TAB_LABELS: Record<TFormTab, string> = {
  signals: "Signals",
  filters: "Data Filters",
  rules: "Alert Rules",
};

function Overlay(p: { text: string }) {
  return (
    <Backdrop
      open
      sx={{
        position: "absolute",
        zIndex: 5,
        bgcolor: "rgba(255,255,255,0.7)",
        flexDirection: "column",
        gap: 1,
      }}
    >
      <CircularProgress size={28} />
      <Typography color="text.secondary">{p.text}</Typography>
    </Backdrop>
  );
}

/**
 * The MVD / SVD monitor form (spec monitor-forms §2–§5, §8): loads the monitor (EDIT, VIEW) or a
 * free name (CREATE), then hands over to the form body. Switching to another monitor (the
 * duplicate's "Edit existing monitor") reloads through here.
 */
export function MonitorForm(p: MonitorFormProps) {
  const [target, setTarget] = useState<{ mode: TFormMode; monitorId: string | null }>({
    mode: p.mode,
    monitorId: p.monitorId ?? null,
  });
  useEffect(() => setTarget({ mode: p.mode, monitorId: p.monitorId ?? null }), [p.mode, p.monitorId]);
  const now = p.now ?? Date.now;
  const me = useMe().data;
  const { plants, plant: pickedPlant, line: pickedLine } = usePlantLine();
  const bounds = useMonitorFormBounds();
  const monitorQ = useMonitor(target.monitorId);
  const rulesQ = useMonitorRules(target.monitorId);
  const lineId = p.lineId ?? pickedLine?.id ?? null;
  // A new monitor belongs to its line's plant, which need not be the one picked in the top bar.
  const newLine = useLine(target.monitorId ? null : lineId);
  const [initial, setInitial] = useState<{
    key: string;
    values: TMonitorFormValues;
    notice: string | null;
  } | null>(null);
  const [loadError, setLoadError] = useState(false);

  const maxRecordCount = bounds.data?.maxRecordCount ?? QUERY_BOUNDS.defaultMaxRecordCount;

  // Build the initial values once everything they need has arrived.
  useEffect(() => {
    if (!bounds.data) return;
    if (target.monitorId) {
      if (!monitorQ.data || !rulesQ.data) return;
      // Keyed by the monitor only: a refetch after a save must not reset what the user sees.
      const key = `monitor:${target.monitorId}`;
      if (initial?.key === key) return;
      const loaded = monitorToForm(monitorQ.data, rulesQ.data, { now: now(), maxRecordCount });
      const values = reconcileFilterMd5(loaded);
      setInitial({
        key,
        values,
        notice:
          values.monitor_uuid === null
            ? "This monitor's stored settings no longer match its filter: saving creates a new monitor."
            : null,
      });
      return;
    }
    if (!lineId) return;
    const key = `new:${p.type}:${lineId}`;
    if (initial?.key === key) return;
    let cancelled = false;
    fetchNextMonitorName(lineId, p.type)
      .catch(() => "")
      .then((name) => {
        if (!cancelled)
          setInitial({
            key,
            values: newMonitorForm(p.type, lineId, { now: now(), maxRecordCount, name }),
            notice: null,
          });
      });
    return () => {
      cancelled = true;
    };
  }, [
    bounds.data,
    target.monitorId,
    monitorQ.data,
    rulesQ.data,
    lineId,
    p.type,
    now,
    maxRecordCount,
    initial?.key,
  ]);

  useEffect(() => {
    setLoadError(
      !!(bounds.error || monitorQ.error || rulesQ.error || newLine.error) ||
        (!!target.monitorId && monitorQ.isSuccess && !monitorQ.data),
    );
  }, [
    bounds.error,
    monitorQ.error,
    rulesQ.error,
    newLine.error,
    monitorQ.isSuccess,
    monitorQ.data,
    target.monitorId,
  ]);

  const ownPlantId = target.monitorId ? monitorQ.data?.monitor_filter.plant_uuid : newLine.line?.plantId;
  const plant =
    (initial && plants.find((x) => x.id === ownPlantId)) ?? (target.monitorId ? pickedPlant : null) ?? null;

  if (loadError)
    return (
      <Box sx={{ p: 3 }}>
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              onClick={() => {
                void bounds.refetch();
                if (newLine.error) void newLine.refetch();
                if (target.monitorId) {
                  void monitorQ.refetch();
                  void rulesQ.refetch();
                }
              }}
            >
              Retry
            </Button>
          }
        >
          {MONITOR_MESSAGES.errorLoadingForm}
        </Alert>
      </Box>
    );
  if (
    !me ||
    !plant ||
    !initial ||
    (target.monitorId && initial.values.monitor_uuid !== target.monitorId && initial.notice === null)
  )
    return (
      <Box sx={{ position: "relative", minHeight: 320 }}>
        <Overlay text="...loading" />
      </Box>
    );

  return (
    <MonitorFormBody
      key={initial.key + target.mode}
      mode={target.mode}
      type={p.type}
      initial={initial.values}
      notice={initial.notice}
      plant={plant}
      customerId={me.customer.id}
      maxRecordCount={maxRecordCount}
      now={now}
      onClose={p.onClose}
      onSaved={p.onSaved}
      onSwitch={(monitorId, mode) => {
        setInitial(null);
        setTarget({ monitorId, mode });
      }}
    />
  );
}

type BodyProps = {
  mode: TFormMode;
  type: TFormMonitorType;
  initial: TMonitorFormValues;
  notice: string | null;
  plant: TPlant;
  customerId: string;
  maxRecordCount: number;
  now: () => number;
  onClose: () => void;
  onSaved?: (monitorId: string) => void;
  onSwitch: (monitorId: string, mode: TFormMode) => void;
};

type Dialog =
  | { kind: "validation"; errors: TFormError[] }
  | { kind: "duplicate"; monitor: TMonitor }
  | { kind: "saveError"; message: string }
  | { kind: "loadError" }
  | { kind: "partial"; outcome: Extract<SaveOutcome, { kind: "partial" }> }
  | { kind: "discard" }
  | null;

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

function MonitorFormBody(p: BodyProps) {
  // The form shows its own dialogs for failures and partial outcomes; the hooks show the success.
  const createMonitor = useCreateMonitor({ errorText: false });
  const saveMonitor = useSaveMonitor({ errorText: false });
  const [mode, setMode] = useState<TFormMode>(p.mode);
  const [tab, setTab] = useState<TFormTab>(DEFAULT_FORM_TAB);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const form = useForm<TMonitorFormValues>({ defaultValues: p.initial });
  const values = useWatch({ control: form.control }) as TMonitorFormValues;
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const errors = useMemo(
    () => monitorFormErrors(values, { now: p.now(), maxRecordCount: p.maxRecordCount }),
    [values, p.now, p.maxRecordCount],
  );
  const readOnly = mode === "VIEW";
  // Validation runs continuously in EDIT and at save in CREATE (spec §4).
  const showErrors = mode === "EDIT" || (mode === "CREATE" && submitted);
  const ctx = useMemo<MonitorFormCtx>(
    () => ({
      mode,
      readOnly,
      showErrors,
      errors,
      customerId: p.customerId,
      plant: p.plant,
      maxRecordCount: p.maxRecordCount,
      now: p.now,
    }),
    [mode, readOnly, showErrors, errors, p.customerId, p.plant, p.maxRecordCount, p.now],
  );

  // Leaving a tab is blocked while errors are active (spec §4), but a tab that holds an error is
  // always reachable: otherwise the error could never be fixed (docs/spec-deviations.md).
  const changeTab = (next: TFormTab) => {
    if (showErrors && errors.length > 0 && !errors.some((e) => e.tab === next)) {
      setDialog({ kind: "validation", errors });
      return;
    }
    setTab(next);
  };
  // The validation summary offers the way to the first error that sits on another tab.
  const errorTab =
    dialog?.kind === "validation" ? (dialog.errors.find((e) => e.tab && e.tab !== tab)?.tab ?? null) : null;

  const finish = (monitorId: string) => {
    p.onSaved?.(monitorId);
    p.onClose();
  };

  /** A 409 names the existing monitor: load it and offer to edit it (spec §8). */
  const existingOf = async (e: unknown) => {
    if (!(e instanceof ApiError && e.status === 409)) return undefined;
    const id = typeof e.body.task_uuid === "string" ? e.body.task_uuid : null;
    return id ? await fetchMonitorById(id).catch(() => null) : null;
  };

  const saveCreate = async (v: TMonitorFormValues) => {
    const task = formToTask(v, { cust_uuid: p.customerId, plant_uuid: p.plant.id });
    // The create flow waits one tick before calling (spec §4).
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
    setMode("EDIT");
    setDialog({ kind: "partial", outcome });
  };

  const saveEdit = async (v: TMonitorFormValues) => {
    if (!v.monitor_uuid) {
      setDialog({ kind: "saveError", message: MONITOR_MESSAGES.errorSaving });
      return;
    }
    const { outcome, monitorError } = await saveMonitor.mutateAsync({
      monitorId: v.monitor_uuid,
      task: formToTask(v, { cust_uuid: p.customerId, plant_uuid: p.plant.id }),
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
      if (mode === "CREATE") await saveCreate(v);
      else await saveEdit(v);
    } finally {
      if (mounted.current) setSaving(false);
    }
  };

  // Read during render so react-hook-form tracks it.
  const { isDirty } = form.formState;
  const cancel = () => (isDirty && mode !== "VIEW" ? setDialog({ kind: "discard" }) : p.onClose());

  const isSvd = p.type === "svd";
  const saveLabel = mode === "CREATE" && isSvd ? "Create" : "Save";
  const active = useWatch({ control: form.control, name: "active" });

  return (
    <MonitorFormContext.Provider value={ctx}>
      <FormProvider {...form}>
        <Box
          component="form"
          aria-label={`${p.type.toUpperCase()} monitor form`}
          onSubmit={(e) => {
            e.preventDefault();
            if (!readOnly) void save();
          }}
          sx={{ position: "relative", display: "flex", flexDirection: "column", gap: 2, p: 2 }}
        >
          {saving && <Overlay text="...saving" />}
          {p.notice && <Alert severity="info">{p.notice}</Alert>}
          <NameRow fetchDefaultName={() => fetchNextMonitorName(values.line_uuid, p.type)} />
          <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: "flex-start" }}>
            <FrequencyInput />
            <ThresholdControl />
          </Stack>
          <NotesBox />
          <Divider />
          <Box>
            {/* VIEW switches tabs too, so a viewer sees the signals, filters and rules without Edit;
                each tab's inputs stay read-only (docs/spec-deviations.md). */}
            <Tabs
              value={tab}
              onChange={(_, t: TFormTab) => changeTab(t)}
              aria-label="Monitor configuration"
              variant="scrollable"
            >
              {FORM_TABS.map((t) => (
                <Tab
                  key={t}
                  value={t}
                  label={TAB_LABELS[t]}
                  id={`monitor-tab-${t}`}
                  aria-controls={`monitor-tabpanel-${t}`}
                />
              ))}
            </Tabs>
            <Box
              role="tabpanel"
              id={`monitor-tabpanel-${tab}`}
              aria-labelledby={`monitor-tab-${tab}`}
              sx={{ pt: 2 }}
            >
              {tab === "signals" && <SignalsTab />}
              {tab === "filters" && <DataFiltersTab />}
              {tab === "rules" && <AlertRulesTab />}
            </Box>
          </Box>
          <Divider />
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", justifyContent: "flex-end" }}>
            {mode === "CREATE" && (
              <FormControlLabel
                sx={{ mr: "auto" }}
                control={
                  <Switch
                    checked={active}
                    onChange={(e) => form.setValue("active", e.target.checked, { shouldDirty: true })}
                  />
                }
                label="Deploy on create"
              />
            )}
            {mode === "VIEW" ? (
              <>
                <Button key="close" onClick={p.onClose}>
                  {isSvd ? "Close" : "Cancel"}
                </Button>
                {/* Own keys: React must not reuse this button as the submit button that replaces it,
                    or the click that switches to EDIT would also submit the form. */}
                <Button key="edit" variant="contained" onClick={() => setMode("EDIT")}>
                  Edit
                </Button>
              </>
            ) : (
              <>
                <Button key="cancel" onClick={cancel} disabled={saving}>
                  Cancel
                </Button>
                <Button key="save" type="submit" variant="contained" disabled={saving}>
                  {saveLabel}
                </Button>
              </>
            )}
          </Stack>
        </Box>
      </FormProvider>

      <ConfirmDialog
        open={dialog?.kind === "validation"}
        title="Please correct the following"
        confirmLabel={errorTab ? `Go to ${TAB_LABELS[errorTab]}` : "OK"}
        cancelLabel={errorTab ? "Close" : undefined}
        onConfirm={() => {
          if (errorTab) setTab(errorTab);
          setDialog(null);
        }}
        onCancel={() => setDialog(null)}
      >
        {dialog?.kind === "validation" && (
          <List dense aria-label="Validation summary">
            {dialog.errors.map((e) => (
              <ListItem key={`${e.path}:${e.message}`} disableGutters>
                <ListItemText primary={e.message} secondary={e.tab ? TAB_LABELS[e.tab] : undefined} />
              </ListItem>
            ))}
          </List>
        )}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "duplicate"}
        title={MONITOR_MESSAGES.duplicate}
        confirmLabel="Edit existing monitor"
        onConfirm={() => {
          if (dialog?.kind === "duplicate") p.onSwitch(dialog.monitor.monitor_uuid, "EDIT");
          setDialog(null);
        }}
        onCancel={() => setDialog(null)}
      >
        {dialog?.kind === "duplicate" && MONITOR_MESSAGES.duplicateQuestion(dialog.monitor.monitor_name)}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "discard"}
        title="Discard your changes?"
        confirmLabel="Discard"
        cancelLabel="Keep editing"
        destructive
        onConfirm={() => {
          setDialog(null);
          p.onClose();
        }}
        onCancel={() => setDialog(null)}
      >
        The changes to this monitor have not been saved.
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "loadError"}
        title={MONITOR_MESSAGES.errorLoading}
        confirmLabel="OK"
        onConfirm={() => setDialog(null)}
        onCancel={() => setDialog(null)}
      >
        {MONITOR_MESSAGES.duplicate}: the existing monitor and its alert rules could not be loaded.
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "saveError"}
        title={MONITOR_MESSAGES.errorSaving}
        confirmLabel="OK"
        onConfirm={() => setDialog(null)}
        onCancel={() => setDialog(null)}
      >
        {dialog?.kind === "saveError" && dialog.message}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "partial"}
        title={dialog?.kind === "partial" ? dialog.outcome.title : ""}
        confirmLabel="OK"
        onConfirm={() => setDialog(null)}
        onCancel={() => setDialog(null)}
      >
        {dialog?.kind === "partial" && (
          <List dense aria-label="Save results">
            {dialog.outcome.results.map((r) => (
              <ListItem key={r.part} disableGutters>
                <ListItemText
                  primary={r.message}
                  slotProps={{ primary: { color: r.ok ? "success.main" : "error.main" } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </ConfirmDialog>
    </MonitorFormContext.Provider>
  );
}
