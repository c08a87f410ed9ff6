import {
  DEFAULT_FORM_TAB,
  FORM_TABS,
  monitorFormErrors,
  MONITOR_FORM_TEXTS as T,
  type TFormMode,
  type TFormMonitorType,
  type TFormTab,
  type TMonitorFormValues,
  type TPlant,
} from "@linewatch/contracts";
import { Alert, Box, Button, Divider, FormControlLabel, Stack, Switch, Tab, Tabs } from "@mui/material";
import { useEffect, useMemo, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { UnmonitoredSignalsWarning } from "../../../signals/components/UnmonitoredSignalsWarning";
import { fetchNextMonitorName } from "../../api/queries";
import { DataFiltersTab } from "../filters/DataFiltersTab";
import { FrequencyInput } from "../header/FrequencyInput";
import { NameRow } from "../header/NameRow";
import { NotesBox } from "../header/NotesBox";
import { ThresholdControl } from "../header/ThresholdControl";
import { MonitorFormContext, type MonitorFormCtx } from "../MonitorFormContext";
import { AlertRulesTab } from "../rules/AlertRulesTab";
import { SignalsTab } from "../signals/SignalsTab";
import { FormOverlay } from "./FormOverlay";
import { MonitorFormDialogs, type TMonitorFormDialog } from "./MonitorFormDialogs";
import { useMonitorSaveFlow } from "./useMonitorSaveFlow";

export type MonitorFormBodyProps = {
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
  /** Open another monitor in this form (the duplicate's "Edit existing monitor"). */
  onSwitch: (monitorId: string, mode: TFormMode) => void;
  /** The mode is the loader's (MonitorForm), so that a remount of this body keeps it: Edit, and
   *  EDIT after a partly failed create, go through here. */
  onModeChange: (mode: TFormMode) => void;
  /** Whether the form holds edits that leaving would lose (its page asks before it navigates away). */
  onDirtyChange?: (isDirty: boolean) => void;
};

/**
 * The loaded form (requirements.md monitor-forms §2 "Monitor form"): name row, frequency, threshold and notes, the three
 * tabs, the footer; its values in react-hook-form, what the tabs read besides in MonitorFormContext.
 */
export function MonitorFormBody(p: MonitorFormBodyProps) {
  const { mode, onModeChange: setMode } = p;
  const [tab, setTab] = useState<TFormTab>(DEFAULT_FORM_TAB);
  const [dialog, setDialog] = useState<TMonitorFormDialog>(null);
  const form = useForm<TMonitorFormValues>({ defaultValues: p.initial });
  const values = useWatch({ control: form.control }) as TMonitorFormValues;
  const { save, saving, submitted } = useMonitorSaveFlow({ ...p, form, mode, setMode, setDialog });

  const errors = useMemo(
    () => monitorFormErrors(values, { now: p.now(), maxRecordCount: p.maxRecordCount }),
    [values, p.now, p.maxRecordCount],
  );
  const readOnly = mode === "VIEW";
  // Validation runs continuously in EDIT and at save in CREATE (requirements.md monitor-forms §4).
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

  // Leaving a tab is blocked while errors are active (requirements.md monitor-forms §4), but a tab that holds an error is
  // always reachable: otherwise the error could never be fixed (docs/spec-deviations.md).
  const changeTab = (next: TFormTab) => {
    if (showErrors && errors.length > 0 && !errors.some((e) => e.tab === next)) {
      setDialog({ kind: "validation", errors });
      return;
    }
    setTab(next);
  };

  // Read during render so react-hook-form tracks it.
  const { isDirty } = form.formState;
  const hasUnsavedEdits = isDirty && mode !== "VIEW";
  const cancel = () => (hasUnsavedEdits ? setDialog({ kind: "discard" }) : p.onClose());
  const { onDirtyChange } = p;
  useEffect(() => {
    onDirtyChange?.(hasUnsavedEdits);
    return () => onDirtyChange?.(false);
  }, [hasUnsavedEdits, onDirtyChange]);

  const isSvd = p.type === "svd";
  const saveLabel = mode === "CREATE" && isSvd ? T.create : T.save;
  const active = useWatch({ control: form.control, name: "active" });

  return (
    <MonitorFormContext.Provider value={ctx}>
      <FormProvider {...form}>
        <Box
          component="form"
          aria-label={T.formLabel(p.type)}
          onSubmit={(e) => {
            e.preventDefault();
            if (!readOnly) void save();
          }}
          sx={{ position: "relative", display: "flex", flexDirection: "column", gap: 2, p: 2 }}
        >
          {saving && <FormOverlay text={T.saving} />}
          {p.notice && <Alert severity="info">{p.notice}</Alert>}
          {p.mode !== "CREATE" && (
            <UnmonitoredSignalsWarning
              customerId={p.customerId}
              plantId={p.plant.id}
              lineId={p.initial.line_uuid || null}
              signalIds={p.initial.signal_uuids}
              signalGroupIds={p.initial.signal_group_uuids}
            />
          )}
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
              aria-label={T.tabsLabel}
              variant="scrollable"
            >
              {FORM_TABS.map((t) => (
                <Tab
                  key={t}
                  value={t}
                  label={T.tabs[t]}
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
                label={T.deployOnCreate}
              />
            )}
            {mode === "VIEW" ? (
              <>
                <Button key="close" onClick={p.onClose}>
                  {isSvd ? T.close : T.cancel}
                </Button>
                {/* Own keys: React must not reuse this button as the submit button that replaces it,
                    or the click that switches to EDIT would also submit the form. */}
                <Button key="edit" variant="contained" onClick={() => setMode("EDIT")}>
                  {T.edit}
                </Button>
              </>
            ) : (
              <>
                <Button key="cancel" onClick={cancel} disabled={saving}>
                  {T.cancel}
                </Button>
                <Button key="save" type="submit" variant="contained" disabled={saving}>
                  {saveLabel}
                </Button>
              </>
            )}
          </Stack>
        </Box>
      </FormProvider>

      <MonitorFormDialogs
        dialog={dialog}
        tab={tab}
        onDismiss={() => setDialog(null)}
        onGoToTab={setTab}
        onEditExisting={(monitorId) => p.onSwitch(monitorId, "EDIT")}
        onDiscard={p.onClose}
      />
    </MonitorFormContext.Provider>
  );
}
