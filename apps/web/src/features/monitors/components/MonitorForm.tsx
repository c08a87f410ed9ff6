import {
  MONITOR_MESSAGES,
  monitorToForm,
  newMonitorForm,
  QUERY_BOUNDS,
  reconcileFilterMd5,
  MONITOR_FORM_TEXTS as T,
  type TFormMode,
  type TFormMonitorType,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { Alert, Box, Button } from "@mui/material";
import { useEffect, useState } from "react";
import { useLine, usePlantLine } from "../../../shared/data/plants/plant-line";
import { useMe } from "../../../shared/data/session/queries";
import { fetchNextMonitorName, useMonitor, useMonitorFormBounds, useMonitorRules } from "../api/queries";
import { FormOverlay } from "./form/FormOverlay";
import { MonitorFormBody } from "./form/MonitorFormBody";

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
  /** Whether the form holds edits that leaving would lose. */
  onDirtyChange?: (isDirty: boolean) => void;
  /** Told when the user switches the form's mode (Edit; EDIT after a partly failed create). */
  onModeChange?: (mode: TFormMode) => void;
};

/**
 * The MVD / SVD monitor form (requirements.md monitor-forms §2–§5, §8), its loader: loads the monitor (EDIT,
 * VIEW) or a free name (CREATE), then hands over to the form body (form/MonitorFormBody.tsx; its
 * save flow in form/useMonitorSaveFlow.ts, its dialogs in form/MonitorFormDialogs.tsx). Switching to another monitor (the
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
        notice: values.monitor_uuid === null ? T.staleFilterNotice : null,
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
              {T.retry}
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
        <FormOverlay text={T.loading} />
      </Box>
    );

  return (
    <MonitorFormBody
      key={initial.key}
      mode={target.mode}
      onModeChange={(mode) => {
        setTarget((t) => ({ ...t, mode }));
        p.onModeChange?.(mode);
      }}
      type={p.type}
      initial={initial.values}
      notice={initial.notice}
      plant={plant}
      customerId={me.customer.id}
      maxRecordCount={maxRecordCount}
      now={now}
      onClose={p.onClose}
      onSaved={p.onSaved}
      onDirtyChange={p.onDirtyChange}
      onSwitch={(monitorId, mode) => {
        setInitial(null);
        setTarget({ monitorId, mode });
      }}
    />
  );
}
