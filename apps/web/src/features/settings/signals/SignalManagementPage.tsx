import {
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TResultClassifications,
  type TSignal,
  type TSignalAttributes,
  type TSignalEntityType,
} from "@linewatch/contracts";
import { Box, Paper, Stack, Typography } from "@mui/material";
import { lazy, type ReactNode, Suspense, useEffect, useMemo } from "react";
import { useFeatureFlags, useMe } from "../../../shared/data/session/queries";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { PageLoading } from "../../../shared/ui/PageLoading";
import { QueryState } from "../../../shared/ui/QueryState";
import { PageLineSelect, usePageLine } from "../../../shared/ui/settings/PageLineSelect";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useAllLineSignals, useAssociatedResultClassifications } from "../../signals/api/queries";
import { useSpcLimits } from "../spc-limits/api/queries";
import {
  type TSaveTexts,
  useSaveResultClassifications,
  useSetSingleSides,
  useSetStationFinal,
  useUpdateSignalAttributes,
} from "./api/mutations";
import { planAssociation } from "./associations";
import type { TCapFormulasState } from "./components/CapFormulaList";
import { ManagementTree } from "./components/ManagementTree";
import { capFormulaReferences, classificationViewError, entityChangeSummary } from "./signal-management.form";
import { buildManagementIndex } from "./signal-management.tree";
import { useManagementTree } from "./useManagementTree";

// Drag and drop (dnd-kit) loads when association editing first opens, not with the page; the
// station and signal forms when a station or a signal is first chosen, each dialog and the
// classifications panel when first opened (issue #17: the page shows the tree and a hint first).
const AssociationEditor = lazy(() =>
  import("./components/AssociationEditor").then((m) => ({ default: m.AssociationEditor })),
);
const StationForm = lazy(() => import("./components/StationForm").then((m) => ({ default: m.StationForm })));
const SignalForm = lazy(() => import("./components/SignalForm").then((m) => ({ default: m.SignalForm })));
const EntityTypeDialog = lazy(() =>
  import("./components/EntityTypeDialog").then((m) => ({ default: m.EntityTypeDialog })),
);
const SelectionSummaryDialog = lazy(() =>
  import("./components/SelectionSummaryDialog").then((m) => ({ default: m.SelectionSummaryDialog })),
);
const AssociationConfirmDialog = lazy(() =>
  import("./components/AssociationConfirmDialog").then((m) => ({ default: m.AssociationConfirmDialog })),
);
const ResultClassificationsPanel = lazy(() =>
  import("./components/ResultClassificationsPanel").then((m) => ({ default: m.ResultClassificationsPanel })),
);

/**
 * Settings → Data Management → Signal Management (requirements.md settings §2.8): the line's stations and
 * signals on the left; on the right the station form, the signal form or the association editor;
 * the 'Edit Result Classifications' panel slides in from the right. The page owns the selection,
 * the mode and every save.
 */
export function SignalManagementPage() {
  const {
    plant,
    lines,
    lineId,
    setLineId,
    holdLine,
    hasNoLines,
    isLoading: isLinesLoading,
    error: linesError,
  } = usePageLine();
  const me = useMe().data;
  const flags = useFeatureFlags().data?.flags;
  const signalsQ = useAllLineSignals(lineId);
  const stations = signalsQ.data;
  const index = useMemo(() => buildManagementIndex(stations ?? []), [stations]);
  const all = useMemo(() => (stations ?? []).flatMap((s) => s.signals), [stations]);

  const dialogs = useDialogs<{
    entity: TSignalEntityType;
    summary: undefined;
    confirmAssociation: undefined;
  }>();
  const {
    query,
    setQuery,
    match,
    rows,
    selection,
    setSelection,
    selected,
    selectedSet,
    station,
    stationId,
    mode,
    setMode,
    placement,
    isSelectable,
    changeLine,
    startAssociations,
    handleMove,
    handleSelect,
    handleToggleOpen,
    handleConfigureStation,
  } = useManagementTree({ index, flags, lines, lineId, setLineId });
  // An edit in progress (association, classification, a signal's form) keeps the page on its line.
  useEffect(() => holdLine(mode !== "default"), [holdLine, mode]);

  // ── Saves ──
  const setFinal = useSetStationFinal();
  const updateAttributes = useUpdateSignalAttributes();
  const setSingleSides = useSetSingleSides();
  const saveClassifications = useSaveResultClassifications();
  const isSaving = updateAttributes.isPending || setSingleSides.isPending;

  const saveAttributes = (
    signals: { signal_uuid: string; signal_attributes: TSignalAttributes }[],
    texts: TSaveTexts,
  ) => {
    if (!lineId || !plant || !me) return Promise.reject(new Error("no line"));
    return updateAttributes.mutateAsync({
      lineId,
      texts,
      body: {
        signalRequest: { customer_uuid: me.customer.id, plant_uuid: plant.id, line_uuid: lineId },
        signals,
      },
    });
  };
  const saveForSelected = (attrs: TSignalAttributes, texts: TSaveTexts) =>
    saveAttributes(
      selected.map((s) => ({ signal_uuid: s.id, signal_attributes: attrs })),
      texts,
    ).catch(() => undefined);
  const signalTexts = { errorText: TEXT.signalFailed };

  const entityType = dialogs.data("entity") ?? null;
  const entitySummary = useMemo(
    () => (entityType ? entityChangeSummary(all, selected, entityType) : null),
    [entityType, all, selected],
  );
  const handleEntityConfirm = async () => {
    if (!entityType) return;
    try {
      await saveAttributes(
        (entitySummary?.converted ?? []).map((s) => ({
          signal_uuid: s.id,
          signal_attributes: { signal_entity_type: entityType },
        })),
        { successText: MSG.entitySaved, errorText: MSG.entityFailed },
      );
    } catch {
      // Shown by the mutation.
    }
    dialogs.close();
  };

  // ── Association editing ──
  const plan = useMemo(
    () => (mode === "association" ? planAssociation(placement, all) : null),
    [mode, placement, all],
  );
  const handleAssociationSave = async () => {
    if (!plan) return;
    try {
      await saveAttributes(plan.request, {
        successText: MSG.associationSaved,
        errorText: MSG.associationFailed,
      });
      dialogs.close();
      setMode("default");
    } catch {
      dialogs.close();
    }
  };

  // ── Cap limit formulas a conversion touches (issue #15), read when a confirmation converts ──
  const isEntityOpen = dialogs.isOpen("entity");
  const isConfirmOpen = dialogs.isOpen("confirmAssociation");
  const newTypes = useMemo(() => {
    const m = new Map<string, TSignalEntityType>();
    if (isEntityOpen && entityType) for (const s of entitySummary?.converted ?? []) m.set(s.id, entityType);
    if (isConfirmOpen)
      for (const r of plan?.request ?? [])
        if (r.signal_attributes.signal_entity_type)
          m.set(r.signal_uuid, r.signal_attributes.signal_entity_type);
    return m;
  }, [isEntityOpen, isConfirmOpen, entityType, entitySummary, plan]);
  const limitsQ = useSpcLimits(newTypes.size > 0 ? lineId : null);
  const capFormulas: TCapFormulasState = {
    lines: useMemo(
      () => (limitsQ.data ? capFormulaReferences(limitsQ.data, all, newTypes) : undefined),
      [limitsQ.data, all, newTypes],
    ),
    isLoading: newTypes.size > 0 && limitsQ.isLoading,
    isError: newTypes.size > 0 && limitsQ.isError,
  };

  // ── Result classifications ──
  const allResults = selected.length > 0 && selected.every((s) => s.entityType === "RESULT");
  const classificationsQ = useAssociatedResultClassifications(allResults ? selection : []);
  const classifications = useMemo(() => {
    if (!classificationsQ.data) return undefined;
    const out: Record<string, TResultClassifications> = {};
    for (const [id, v] of Object.entries(classificationsQ.data)) out[id] = v.associatedResultClassifications;
    return out;
  }, [classificationsQ.data]);
  const classificationError = classificationViewError(selected, classifications);

  if (hasNoLines)
    return (
      <Stack spacing={1}>
        <Typography variant="h5" component="h2">
          {TEXT.title}
        </Typography>
        <Typography variant="h6">{TEXT.noLines}</Typography>
        <Typography color="text.secondary">{TEXT.noLinesText}</Typography>
      </Stack>
    );

  let right: ReactNode;
  if (mode === "association" && plan)
    right = (
      <Suspense fallback={<PageLoading />}>
        <AssociationEditor
          placement={placement}
          signalById={index.signalById}
          hasChanges={plan.request.length > 0}
          onMove={handleMove}
          onConfirm={() => dialogs.open("confirmAssociation", undefined)}
          onCancel={() => setMode("default")}
        />
      </Suspense>
    );
  else if (station)
    right = (
      <Suspense fallback={<PageLoading />}>
        <StationForm
          station={station}
          isSaving={setFinal.isPending}
          pendingFinal={
            setFinal.isPending && setFinal.variables?.stationId === station.id
              ? setFinal.variables.final
              : null
          }
          onFinalChange={(final) =>
            lineId &&
            setFinal.mutate({
              lineId,
              stationId: station.id,
              final,
              texts: { errorText: MSG.stationSaveFailed },
            })
          }
        />
      </Suspense>
    );
  else if (selected.length > 0)
    right = (
      <Suspense fallback={<PageLoading />}>
        <SignalForm
          selected={selected}
          all={all}
          flags={flags ?? {}}
          isSaving={isSaving}
          classificationError={classificationError}
          onActiveChange={(active) => void saveForSelected({ signal_active: active }, signalTexts)}
          onQualityChange={(q) => void saveForSelected({ quality_characteristic: q }, signalTexts)}
          onFriendlyNameSave={(name) =>
            saveAttributes(
              [
                {
                  signal_uuid: (selected[0] as TSignal).id,
                  signal_attributes: { signal_friendly_name: name },
                },
              ],
              {
                errorText: TEXT.friendlyNameFailed,
              },
            )
          }
          onEntityTypeChoose={(type) => dialogs.open("entity", type)}
          onSingleSideChange={(side) =>
            lineId &&
            setSingleSides.mutate({
              lineId,
              body: selected.map((s) => ({ id: s.id, singleSide: side })),
              texts: { successText: MSG.distributionSaved, errorText: MSG.distributionFailed },
            })
          }
          onEditAssociations={startAssociations}
          onEditClassifications={() => setMode("classification")}
          onShowSummary={() => dialogs.open("summary", undefined)}
          onClearSelection={() => setSelection([])}
        />
      </Suspense>
    );
  else right = <ConfiguringHint />;

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {TEXT.title}
        </Typography>
        <PageLineSelect
          label={TEXT.lineLabel}
          lines={lines}
          lineId={lineId}
          onChange={changeLine}
          isLocked={mode !== "default"}
        />
      </Stack>
      <QueryState
        isLoading={isLinesLoading || (!!lineId && signalsQ.isLoading) || !flags}
        error={linesError ?? signalsQ.error}
        onRetry={() => void signalsQ.refetch()}
      >
        <Box sx={{ display: "flex", gap: 2, height: "calc(100vh - 220px)", minHeight: 480 }}>
          <Paper
            variant="outlined"
            sx={{ width: 420, flexShrink: 0, display: "flex", flexDirection: "column" }}
          >
            <ManagementTree
              rows={rows}
              query={query}
              onQueryChange={setQuery}
              isEmptySearch={match.query !== "" && match.stations.length === 0}
              hasStations={(stations ?? []).length > 0}
              multiselectable={flags?.multiselectTree ?? false}
              selected={selectedSet}
              isSelectable={isSelectable}
              onSelect={handleSelect}
              onToggleOpen={handleToggleOpen}
              onConfigureStation={handleConfigureStation}
              configuringStationId={stationId}
              isLocked={mode !== "default"}
            />
          </Paper>
          <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, overflow: "auto", position: "relative" }}>
            {right}
          </Paper>
        </Box>
      </QueryState>

      <MountWhenOpened isOpen={dialogs.isOpen("entity")}>
        <EntityTypeDialog
          open={dialogs.isOpen("entity")}
          type={entityType}
          summary={entitySummary}
          capFormulas={capFormulas}
          isSaving={updateAttributes.isPending}
          onConfirm={() => void handleEntityConfirm()}
          onCancel={dialogs.close}
        />
      </MountWhenOpened>
      <MountWhenOpened isOpen={dialogs.isOpen("summary")}>
        <SelectionSummaryDialog open={dialogs.isOpen("summary")} signals={selected} onClose={dialogs.close} />
      </MountWhenOpened>
      <MountWhenOpened isOpen={dialogs.isOpen("confirmAssociation")}>
        <AssociationConfirmDialog
          open={dialogs.isOpen("confirmAssociation")}
          plan={plan}
          capFormulas={capFormulas}
          isSaving={updateAttributes.isPending}
          onSave={() => void handleAssociationSave()}
          onCancel={dialogs.close}
        />
      </MountWhenOpened>
      <MountWhenOpened isOpen={mode === "classification"}>
        <ResultClassificationsPanel
          open={mode === "classification"}
          signals={selected}
          data={classifications}
          isLoading={classificationsQ.isLoading}
          error={classificationsQ.error}
          onRetry={() => void classificationsQ.refetch()}
          isSaving={saveClassifications.isPending}
          onSave={async (body) => {
            if (!lineId) return;
            await saveClassifications.mutateAsync({
              lineId,
              body,
              texts: { successText: TEXT.classificationsSaved, errorText: TEXT.classificationsFailed },
            });
            setMode("default");
          }}
          onClose={() => setMode("default")}
        />
      </MountWhenOpened>
    </Stack>
  );
}

/** The right pane with nothing selected (requirements.md settings §2.8: 'Configuring Signal Data'). */
function ConfiguringHint() {
  return (
    <Stack spacing={1} sx={{ p: 3, alignItems: "center", textAlign: "center" }}>
      <Typography variant="h6">{TEXT.configuringHint}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 420 }}>
        {TEXT.configuringHintText}
      </Typography>
    </Stack>
  );
}
