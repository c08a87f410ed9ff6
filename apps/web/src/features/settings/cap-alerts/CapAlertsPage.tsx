import {
  CAP_ALERTS_MESSAGES as M,
  type TChallengeRange,
  type TMonitorRule,
  type TOpCount,
  type TRunRule,
} from "@linewatch/contracts";
import { Alert, Stack, TextField, Typography } from "@mui/material";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { useFeatureFlags } from "../../../shared/data/session/queries";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { QueryState } from "../../../shared/ui/QueryState";
import { PageLineSelect, usePageLine } from "../../../shared/ui/settings/PageLineSelect";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { LazyCapabilityDialog } from "../../capability/LazyCapabilityDialog";
import { useMonitorList } from "../../monitors/api/queries";
import { useAllLineSignals } from "../../signals/api/queries";
import { useSpcLimits } from "../spc-limits/api/queries";
import { usePatchCapMonitor, useSaveCapRules, useSetCapFilter, useToggleCapMonitor } from "./api/mutations";
import { useCapMonitorStatus } from "./api/queries";
import { capAlertRows, filterCapAlertRows, recordLimitSignalIds, type TCapAlertRow } from "./cap-alerts.rows";
import { CapAlertsGrid } from "./components/CapAlertsGrid";

// The rules editor (with the rule form's checks) loads when 'Cap Alert Rules' is first opened.
const CapRulesDialog = lazy(() =>
  import("./components/CapRulesDialog").then((m) => ({ default: m.CapRulesDialog })),
);
// Opened from a row now and then: its own chunk, so the grid page does not grow with it.
const ChallengeRangesDialog = lazy(() =>
  import("./components/ChallengeRangesDialog").then((m) => ({ default: m.ChallengeRangesDialog })),
);

/**
 * Settings → Capability Metrics → Alerts, the default Settings section (requirements.md settings §2.4, §4
 * "Monitor active flag", §8 "Capability"): a cap monitor per signal with configured limits,
 * switched on and off from the grid, its alert rules in the 'Cap Alert Rules' modal.
 */
export function CapAlertsPage() {
  const {
    plant,
    lines,
    lineId,
    setLineId,
    isLoading: isLinesLoading,
    error: linesError,
    hasNoLines,
  } = usePageLine();
  const flags = useFeatureFlags().data?.flags;
  const limitsQ = useSpcLimits(lineId);
  const monitorsQ = useMonitorList(lineId, "cap");
  const statusQ = useCapMonitorStatus(lineId);
  // Which signals carry their limits on their records (the worker's spec limits without SPC limits):
  // a row's warning waits for nothing else, so a failed read only leaves the warning as it was.
  const signalsQ = useAllLineSignals(lineId);
  const toggle = useToggleCapMonitor(lineId);
  const patch = usePatchCapMonitor(lineId);
  const saveRules = useSaveCapRules(lineId);
  const setFilter = useSetCapFilter(lineId);
  const dialogs = useDialogs<{
    rules: TCapAlertRow;
    error: true;
    capability: TCapAlertRow;
    challengeRanges: TCapAlertRow;
  }>();
  const [search, setSearch] = useState("");
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const allRows = useMemo(
    () =>
      capAlertRows(
        limitsQ.data ?? [],
        monitorsQ.data ?? [],
        statusQ.data ?? [],
        recordLimitSignalIds(signalsQ.data ?? []),
      ),
    [limitsQ.data, monitorsQ.data, statusQ.data, signalsQ.data],
  );
  const rows = useMemo(() => filterCapAlertRows(allRows, search), [allRows, search]);

  const { open: openDialog } = dialogs;
  const busy = useCallback(
    async (id: string, action: () => Promise<unknown>) => {
      setBusyIds((s) => new Set(s).add(id));
      try {
        await action();
      } catch {
        openDialog("error", true);
      } finally {
        setBusyIds((s) => {
          const next = new Set(s);
          next.delete(id);
          return next;
        });
      }
    },
    [openDialog],
  );
  const { mutateAsync: toggleAsync } = toggle;
  const onToggle = useCallback(
    (row: TCapAlertRow) => void busy(row.id, () => toggleAsync({ signalId: row.id, monitor: row.monitor })),
    [busy, toggleAsync],
  );
  const { mutateAsync: patchAsync } = patch;
  const onExclude = useCallback(
    (row: TCapAlertRow, field: "useExcludedPartIds" | "useExcludedModelNumbers", value: boolean) => {
      const monitorId = row.monitor?.monitor_uuid;
      if (monitorId) void busy(row.id, () => patchAsync({ monitorId, body: { [field]: value } }));
    },
    [busy, patchAsync],
  );
  const { mutateAsync: filterAsync } = setFilter;
  const onOpCount = useCallback(
    (row: TCapAlertRow, opCount: TOpCount) => {
      const monitor = row.monitor;
      if (monitor) void busy(row.id, () => filterAsync({ monitor, change: { op_count: opCount } }));
    },
    [busy, filterAsync],
  );
  const onRunRules = useCallback(
    (row: TCapAlertRow, runRules: TRunRule[]) => {
      const monitor = row.monitor;
      if (monitor) void busy(row.id, () => filterAsync({ monitor, change: { run_rules: runRules } }));
    },
    [busy, filterAsync],
  );
  const onEditRules = useCallback((row: TCapAlertRow) => openDialog("rules", row), [openDialog]);
  const rulesRow = dialogs.isOpen("rules") ? dialogs.data("rules") : undefined;
  const capabilityRow = dialogs.isOpen("capability") ? dialogs.data("capability") : undefined;
  const onCapability = useCallback((row: TCapAlertRow) => dialogs.open("capability", row), [dialogs.open]);
  const rangesRow = dialogs.isOpen("challengeRanges") ? dialogs.data("challengeRanges") : undefined;
  const onChallengeRanges = useCallback(
    (row: TCapAlertRow) => dialogs.open("challengeRanges", row),
    [dialogs.open],
  );
  const handleSaveRanges = async (row: TCapAlertRow, ranges: TChallengeRange[]) => {
    const monitor = row.monitor;
    if (!monitor) return;
    let isSaved = false;
    // A failure opens 'Error saving configuration' (busy) in place of this dialog.
    await busy(row.id, async () => {
      await filterAsync({ monitor, change: { challenge_ranges: ranges } });
      isSaved = true;
    });
    if (isSaved) dialogs.closeAndForget();
  };

  const handleSaveRules = async (monitorId: string, rules: TMonitorRule[]) => {
    try {
      await saveRules.mutateAsync({ monitorId, rules });
      dialogs.close();
    } catch {
      // 'Error saving alert rules' is shown by the mutation; the modal stays open.
    }
  };

  const isLoadError = limitsQ.isError || monitorsQ.isError;
  const toolbar = (
    <Stack direction="row" sx={{ p: 1 }}>
      <TextField
        size="small"
        type="search"
        label={M.search}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ minWidth: 280 }}
      />
    </Stack>
  );

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {M.title}
        </Typography>
        <PageLineSelect label={M.lineLabel} lines={lines} lineId={lineId} onChange={setLineId} />
      </Stack>
      <Alert severity="info">{M.note}</Alert>
      {hasNoLines ? (
        <Typography color="text.secondary">{M.noLines}</Typography>
      ) : (
        <QueryState isLoading={isLinesLoading} error={linesError}>
          <CapAlertsGrid
            rows={rows}
            lineId={lineId}
            emptyText={allRows.length > 0 && search.trim() ? M.emptyFiltered : M.empty}
            isError={isLoadError}
            isLoading={!!lineId && (limitsQ.isLoading || monitorsQ.isLoading)}
            isExclusionOn={!!flags?.capExcludedParts}
            busyIds={busyIds}
            toolbar={toolbar}
            onToggle={onToggle}
            onEditRules={onEditRules}
            onExclude={onExclude}
            onOpCount={onOpCount}
            onRunRules={onRunRules}
            onCapability={onCapability}
            onChallengeRanges={onChallengeRanges}
          />
        </QueryState>
      )}
      {rangesRow?.monitor && (
        <Suspense fallback={null}>
          <ChallengeRangesDialog
            monitor={rangesRow.monitor}
            signal={rangesRow.signal}
            timeZone={plant?.timeZone ?? "UTC"}
            isPartBasedOn={!!flags?.capChallengePartRange}
            isSaving={setFilter.isPending}
            onSave={(ranges) => handleSaveRanges(rangesRow, ranges)}
            onClose={dialogs.closeAndForget}
          />
        </Suspense>
      )}
      {lineId && capabilityRow && (
        <LazyCapabilityDialog
          lineId={lineId}
          signalId={capabilityRow.id}
          signalName={capabilityRow.signal}
          timeZone={plant?.timeZone ?? "UTC"}
          onClose={dialogs.closeAndForget}
        />
      )}
      <MountWhenOpened isOpen={dialogs.isOpen("rules")}>
        <CapRulesDialog
          monitor={rulesRow?.monitor ?? null}
          isSaving={saveRules.isPending}
          onSave={handleSaveRules}
          onClose={dialogs.close}
        />
      </MountWhenOpened>
      <ConfirmDialog
        open={dialogs.isOpen("error")}
        title={M.saveErrorTitle}
        confirmLabel={M.ok}
        onConfirm={dialogs.close}
        onCancel={dialogs.close}
      >
        {M.saveError}
      </ConfirmDialog>
    </Stack>
  );
}
