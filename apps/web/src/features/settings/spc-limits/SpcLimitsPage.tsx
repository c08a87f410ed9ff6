import { SPC_LIMITS_MESSAGES as M, type TSpcLimitKey, type TSpcSuggestion } from "@linewatch/contracts";
import { Button, FormControlLabel, Stack, Switch, Typography } from "@mui/material";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useFeatureFlags } from "../../../shared/data/session/queries";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { QueryState } from "../../../shared/ui/QueryState";
import { compareValues } from "../../../shared/ui/settings/expandable-rows";
import { PageLineSelect, usePageLine } from "../../../shared/ui/settings/PageLineSelect";
import { useExpandableRows } from "../../../shared/ui/settings/useExpandableRows";
import { useLeaveGuard } from "../../../shared/ui/settings/useLeaveGuard";
import { HistoryButton } from "../../audit-log/components/HistoryButton";
import { LazyCapabilityDialog } from "../../capability/LazyCapabilityDialog";
import { useModelNumbers } from "../../monitors/api/queries";
import { useSaveSpcLimits, useSuggestControlLimits } from "./api/mutations";
import { useLineSignals, useSpcLimits } from "./api/queries";
import { LimitsGrid } from "./components/LimitsGrid";
import {
  addModel,
  applySuggestions,
  compareModels,
  hasErrors,
  lockedKeys,
  modelRowErrors,
  removeModel,
  saveBody,
  setCell,
  signalNames,
  signalRowsOf,
  type TModelRow,
  type TSignalRow,
} from "./spc-limits.form";

// Opened now and then: its own chunk, with the plant's-time handling (issue #17); so is the
// dialog adding a model number to a signal.
const AddModelDialog = lazy(() =>
  import("./components/AddModelDialog").then((m) => ({ default: m.AddModelDialog })),
);
const SuggestDialog = lazy(() =>
  import("./components/SuggestDialog").then((m) => ({ default: m.SuggestDialog })),
);

/**
 * Settings → Capability Metrics → Limits (requirements.md settings §2.5, §3, §4 "SPC limits", §5, §7, §8):
 * SPC limits per signal and model number. Edits stay on the page, marked unsaved, until Save
 * Changes; while any are unsaved the line and the 'Show only' switch are locked.
 */
export function SpcLimitsPage() {
  const {
    plant,
    lines,
    lineId,
    setLineId,
    holdLine,
    isLoading: isLinesLoading,
    error: linesError,
    hasNoLines,
  } = usePageLine();
  const flags = useFeatureFlags().data?.flags;
  const limitsQ = useSpcLimits(lineId);
  const signalsQ = useLineSignals(lineId);
  const modelsQ = useModelNumbers(lineId);
  const save = useSaveSpcLimits();
  const suggest = useSuggestControlLimits();
  const [isSuggesting, setSuggesting] = useState(false);
  const [capabilityOf, setCapabilityOf] = useState<string | null>(null);
  const [edits, setEdits] = useState<ReadonlyMap<string, TSignalRow>>(new Map());
  const [isOnlyWithLimits, setOnlyWithLimits] = useState(false);
  const [addingFor, setAddingFor] = useState<string | null>(null);
  const [newModel, setNewModel] = useState("");
  const isDirty = edits.size > 0;
  // Unsaved edits keep the page on their line, whatever the top bar picks meanwhile.
  useEffect(() => holdLine(isDirty), [holdLine, isDirty]);
  // Unsaved limits are not lost to another Settings section, a link or the browser's back.
  const leaveGuard = useLeaveGuard(isDirty);

  const names = useMemo(
    () =>
      signalNames(
        (signalsQ.data ?? []).flatMap((st) =>
          st.signals
            .filter((s) => s.entityType !== "RESULT" && s.entityType !== "PART_ATTRIBUTE")
            .map((s) => ({ id: s.id, name: s.name })),
        ),
      ),
    [signalsQ.data],
  );
  const nameList = useMemo(() => [...names.byName.keys()].sort(), [names]);
  // requirements.md settings §9: station, then signal (the grid's own sort starts from this order)
  const saved = useMemo(
    () =>
      signalRowsOf(limitsQ.data ?? [], names).sort(
        (a, b) => compareValues(a.station, b.station) || compareValues(a.signal, b.signal),
      ),
    [limitsQ.data, names],
  );
  const rows = useMemo(() => {
    const all = saved.map((r) => edits.get(r.id) ?? r);
    return isOnlyWithLimits ? all.filter((r) => r.hasLimits) : all;
  }, [saved, edits, isOnlyWithLimits]);
  const tree = useExpandableRows<TSignalRow, TModelRow>({
    rows,
    getId: (r) => r.id,
    getChildren: (r) => r.models,
    getChildId: (c, parent) => `${parent.id}::${c.model}`,
    compareChildren: (a, b) => compareModels(a.model, b.model),
    // requirements.md settings §9: limits sorted by station, signal, model
    initialSortModel: [
      { field: "station", sort: "asc" },
      { field: "signal", sort: "asc" },
    ],
  });

  const rowById = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows]);
  // Saved rows by id: what does not change while typing (the grid's columns depend on it, so an
  // edit does not rebuild them).
  const savedById = useMemo(() => new Map(saved.map((r) => [r.id, r])), [saved]);
  const change = useCallback(
    (signalId: string, f: (r: TSignalRow) => TSignalRow) =>
      setEdits((prev) => {
        const base = prev.get(signalId) ?? savedById.get(signalId);
        if (!base) return prev;
        const next = new Map(prev);
        next.set(signalId, f(base));
        return next;
      }),
    [savedById],
  );
  // A cell hands its text over when typing pauses or it is left (LimitCell: a keystroke repaints
  // only its cell, issue #14's 50 ms with 500 signals × 5 models).
  const onCell = useCallback(
    (signalId: string, model: string, key: TSpcLimitKey, text: string) =>
      change(signalId, (r) => setCell(r, model, key, text)),
    [change],
  );
  const onRemoveModel = useCallback(
    (signalId: string, model: string) => change(signalId, (r) => removeModel(r, model)),
    [change],
  );
  const onAddModel = useCallback((signalId: string) => {
    setAddingFor(signalId);
    setNewModel("");
  }, []);
  const errorsOf = useCallback((_signalId: string, m: TModelRow) => modelRowErrors(m, names), [names]);
  const isSingleSidedOn = !!flags?.capSingleSided;
  const lockedOf = useCallback(
    (signalId: string) => {
      const r = savedById.get(signalId);
      return r ? lockedKeys(r, isSingleSidedOn) : [];
    },
    [savedById, isSingleSidedOn],
  );

  const unsavedIds = useMemo(() => new Set(edits.keys()), [edits]);
  const changed = [...edits.values()];
  const isInvalid = hasErrors(changed, names);
  const handleSave = async () => {
    if (!lineId) return;
    try {
      await save.mutateAsync({ lineId, body: saveBody(changed, lineId, names, !!flags?.capLimits) });
      setEdits(new Map());
    } catch {
      // The server's message is shown by the mutation; the edits stay.
    }
  };

  // The dialog shows the suggestion (where σ came from, the expected false-alarm rate) before
  // the user puts it into the grid.
  const handleSuggest = async (signalId: string, from: string, to: string) => {
    if (!lineId) return [];
    return suggest.mutateAsync({ lineId, body: { signalUUID: signalId, from, to } });
  };
  const handleUseSuggestion = (signalId: string, list: TSpcSuggestion[]) => {
    if (list.length === 0) return;
    change(signalId, (r) => applySuggestions(r, list));
    tree.setExpanded(signalId, true);
  };

  const addingRow = addingFor ? rowById.get(addingFor) : undefined;
  const offeredModels = (modelsQ.data ?? [])
    .map((m) => m.value)
    .filter((v) => !addingRow?.models.some((m) => m.model === v));

  const toolbar = (
    <Stack direction="row" spacing={1} sx={{ p: 1, justifyContent: "flex-end" }}>
      <HistoryButton
        resource="spc_limit"
        itemLabel="Signal"
        items={saved.map((r) => ({ id: r.id, name: `${r.station} / ${r.signal}` }))}
      />
      <Button
        disabled={!lineId || saved.length === 0}
        onClick={() => setSuggesting(true)}
        sx={{ mr: "auto" }}
      >
        {M.suggest}
      </Button>
      <Button disabled={!isDirty || save.isPending} onClick={() => setEdits(new Map())}>
        {M.discard}
      </Button>
      <Button variant="contained" disabled={!isDirty || isInvalid || save.isPending} onClick={handleSave}>
        {M.saveChanges}
      </Button>
    </Stack>
  );

  return (
    <Stack spacing={2}>
      {leaveGuard}
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {M.title}
        </Typography>
        <FormControlLabel
          control={
            <Switch
              checked={isOnlyWithLimits}
              disabled={isDirty}
              onChange={(e) => setOnlyWithLimits(e.target.checked)}
            />
          }
          label={M.showOnlyWithLimits}
        />
        <PageLineSelect
          label={M.lineLabel}
          lines={lines}
          lineId={lineId}
          onChange={setLineId}
          isLocked={isDirty}
        />
      </Stack>
      {hasNoLines ? (
        <Typography color="text.secondary">{M.noLines}</Typography>
      ) : (
        <QueryState isLoading={isLinesLoading} error={linesError}>
          <LimitsGrid
            tree={tree}
            emptyText={isOnlyWithLimits ? M.emptyFiltered : M.empty}
            isError={limitsQ.isError}
            isLoading={!!lineId && (limitsQ.isLoading || signalsQ.isLoading)}
            unsavedIds={unsavedIds}
            isDirty={isDirty}
            errorsOf={errorsOf}
            lockedOf={lockedOf}
            signalNames={nameList}
            toolbar={toolbar}
            onCell={onCell}
            onAddModel={onAddModel}
            onRemoveModel={onRemoveModel}
            onCapability={setCapabilityOf}
          />
        </QueryState>
      )}
      {lineId && capabilityOf && (
        <LazyCapabilityDialog
          lineId={lineId}
          signalId={capabilityOf}
          signalName={rowById.get(capabilityOf)?.signal ?? ""}
          timeZone={plant?.timeZone ?? "UTC"}
          onClose={() => setCapabilityOf(null)}
        />
      )}
      {/* Mounted while open: its period starts from the plant's time zone of that moment. */}
      {isSuggesting && (
        <Suspense fallback={null}>
          <SuggestDialog
            open
            signals={saved}
            timeZone={plant?.timeZone ?? "UTC"}
            isPending={suggest.isPending}
            onSuggest={handleSuggest}
            onUse={handleUseSuggestion}
            onClose={() => setSuggesting(false)}
          />
        </Suspense>
      )}
      <MountWhenOpened isOpen={addingFor !== null}>
        <AddModelDialog
          open={addingFor !== null}
          models={offeredModels}
          value={newModel}
          onChange={setNewModel}
          onAdd={() => {
            if (addingFor) {
              change(addingFor, (r) => addModel(r, newModel));
              tree.setExpanded(addingFor, true);
            }
            setAddingFor(null);
          }}
          onClose={() => setAddingFor(null)}
        />
      </MountWhenOpened>
    </Stack>
  );
}
