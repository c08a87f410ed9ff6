import { ETQ_MESSAGES, INTEGRATION_MESSAGES as M, SETTINGS_GRID_PAGE_SIZE } from "@linewatch/contracts";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from "@mui/material";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { useMe } from "../../../shared/data/session/queries";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { BusyOverlay } from "../../../shared/ui/settings/BusyOverlay";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useDiscardGuard } from "../../../shared/ui/settings/useDiscardGuard";
import { useExpandableRows } from "../../../shared/ui/settings/useExpandableRows";
import { useLeaveGuard } from "../../../shared/ui/settings/useLeaveGuard";
import { HistoryButton } from "../../audit-log/components/HistoryButton";
import { useDeleteReliance, useSaveReliance, useTestReliance } from "./api/mutations";
import { useDeliveryHealth, useRelianceConfigs } from "./api/queries";
import { EtqGrid } from "./components/EtqGrid";
import { etqFormBody, type TEtqFormValues } from "./notifications.form";
import { etqRows, historyItems, type TConfigStatus, type TEtqRow } from "./notifications.rows";

// A row's form (with react-hook-form) loads when a row is first expanded (issue #17).
const EtqForm = lazy(() => import("./components/EtqForm").then((m) => ({ default: m.EtqForm })));

const STATUS_FILTERS: { value: TConfigStatus | "all"; label: string }[] = [
  { value: "all", label: M.statusFilterAll },
  { value: M.configured, label: M.configured },
  { value: M.notConfigured, label: M.notConfigured },
];

/**
 * Settings → ETQ Reliance (requirements.md settings §2.3): a row per line of the selected plant that expands
 * into its form, with Test connection and each line's delivery health (issue #13). Reached only
 * with the ETQ flag or the customer override (the Settings page sends others home).
 */
export function EtqReliancePage() {
  const me = useMe().data;
  const { plant, lines, isLoading: isPlantLoading } = usePlantLine();
  const configsQ = useRelianceConfigs(plant?.id);
  const healthQ = useDeliveryHealth(plant?.id, "etq");
  const save = useSaveReliance();
  const remove = useDeleteReliance();
  const test = useTestReliance();
  const dialogs = useDialogs<{ delete: TEtqRow; saveError: { line: string; reason: string } }>();
  const [statusFilter, setStatusFilter] = useState<TConfigStatus | "all">("all");
  const [editingId, setEditingId] = useState<string | null>(null);
  const [testingId, setTestingId] = useState<string | null>(null);
  const [isFormDirty, setFormDirty] = useState(false);
  // Cancel, Escape, collapsing the row or Edit on another line with typed changes asks first
  // ('Discard Changes?'); so does leaving the section.
  const hasUnsavedForm = editingId != null && isFormDirty;
  const discard = useDiscardGuard(hasUnsavedForm);
  const leaveGuard = useLeaveGuard(hasUnsavedForm);
  const canEdit = me?.isAdministrator ?? false;

  // Without the configurations no line's status is known: the grid shows 'Error Loading Data'.
  const isConfigsError = configsQ.isError;
  const rows = useMemo(
    () =>
      isConfigsError
        ? []
        : etqRows(
            lines,
            configsQ.data ?? {},
            healthQ.data ?? [],
            statusFilter === "all" ? null : statusFilter,
          ),
    [isConfigsError, lines, configsQ.data, healthQ.data, statusFilter],
  );
  const tree = useExpandableRows<TEtqRow>({
    rows,
    getId: (r) => r.id,
    hasDetail: true,
    initialSortModel: [{ field: "line", sort: "asc" }],
    pageSize: SETTINGS_GRID_PAGE_SIZE,
  });
  const { setExpanded } = tree;

  const { guard } = discard;
  const handleEdit = useCallback(
    (row: TEtqRow) =>
      guard(() => {
        setFormDirty(false);
        setEditingId(row.id);
        setExpanded(row.id, true);
      }),
    [guard, setExpanded],
  );
  const handleCancel = () =>
    guard(() => {
      setFormDirty(false);
      setEditingId(null);
    });
  // Collapsing the row being edited ends its edit, as Cancel does (and asks the same way).
  const handleToggle = (id: string) => {
    if (!tree.isExpanded(id) || id !== editingId) return tree.toggle(id);
    guard(() => {
      setFormDirty(false);
      setEditingId(null);
      setExpanded(id, false);
    });
  };

  const handleSave = async (row: TEtqRow, values: TEtqFormValues) => {
    try {
      await save.mutateAsync({ lineId: row.id, body: etqFormBody(values) });
      setFormDirty(false);
      setEditingId(null);
    } catch (err) {
      // The form stays in edit with what was typed.
      dialogs.open("saveError", { line: row.line, reason: err instanceof Error ? err.message : "" });
    }
  };

  const handleDeleteConfirm = async () => {
    const target = dialogs.data("delete");
    dialogs.close();
    if (!target) return;
    try {
      await remove.mutateAsync({ lineId: target.id });
      setExpanded(target.id, false);
      if (editingId === target.id) setEditingId(null);
    } catch {
      // Shown by the mutation.
    }
  };

  const { mutateAsync: testAsync } = test;
  const handleTest = useCallback(
    async (row: TEtqRow) => {
      setTestingId(row.id);
      try {
        await testAsync({ lineId: row.id });
      } catch {
        // Shown by the mutation.
      } finally {
        setTestingId(null);
      }
    },
    [testAsync],
  );

  const timeZone = plant?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const saveError = dialogs.data("saveError");
  const toolbar = (
    <Stack direction="row" spacing={1} sx={{ p: 1, alignItems: "center" }}>
      <Typography variant="body2" id="etq-status-filter">
        {M.columns.status}
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        aria-labelledby="etq-status-filter"
        value={statusFilter}
        onChange={(_, v: TConfigStatus | "all" | null) => v && setStatusFilter(v)}
      >
        {STATUS_FILTERS.map((f) => (
          <ToggleButton key={f.value} value={f.value}>
            {f.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Stack>
  );

  return (
    <Stack spacing={2} sx={{ position: "relative" }}>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {ETQ_MESSAGES.title}
        </Typography>
        <HistoryButton
          resource="etq_config"
          itemLabel="Line"
          items={historyItems(lines, Object.values(configsQ.data ?? {}))}
        />
      </Stack>
      {me && !canEdit && <Alert severity="info">{M.readOnly}</Alert>}
      {healthQ.isError && <Alert severity="warning">{M.healthError}</Alert>}
      {testingId && (
        <Typography role="status" variant="body2" color="text.secondary">
          {M.testing}
        </Typography>
      )}
      <QueryState
        isLoading={isPlantLoading || !me || (!!plant && configsQ.isLoading)}
        error={null}
        isEmpty={!plant}
        empty={<Alert severity="info">{ETQ_MESSAGES.empty}</Alert>}
      >
        <Box sx={{ position: "relative" }}>
          <EtqGrid
            tree={tree}
            timeZone={timeZone}
            isError={configsQ.isError}
            canEdit={canEdit}
            editingId={editingId}
            testingId={testingId}
            toolbar={toolbar}
            onEdit={handleEdit}
            onDelete={(row) => dialogs.open("delete", row)}
            onTest={handleTest}
            onToggle={handleToggle}
            renderForm={(row) => (
              <Suspense fallback={null}>
                <EtqForm
                  // A new form when the row's configuration changes (saved, deleted) or edit starts.
                  key={`${row.id}:${row.configuredAt ?? "none"}:${editingId === row.id}`}
                  line={row.line}
                  config={row.config}
                  isEditing={canEdit && editingId === row.id}
                  onSave={(values) => void handleSave(row, values)}
                  onCancel={handleCancel}
                  onDirtyChange={setFormDirty}
                />
              </Suspense>
            )}
          />
          <BusyOverlay open={save.isPending} text={ETQ_MESSAGES.saving} />
          <BusyOverlay open={remove.isPending} text={ETQ_MESSAGES.deleting} />
        </Box>
      </QueryState>
      <ConfirmDialog
        open={dialogs.isOpen("delete")}
        title={ETQ_MESSAGES.deleteConfirm}
        confirmLabel="Delete"
        destructive
        onConfirm={handleDeleteConfirm}
        onCancel={dialogs.close}
      />
      {discard.dialog}
      {leaveGuard}
      <Dialog open={dialogs.isOpen("saveError")} onClose={dialogs.close} aria-labelledby="etq-save-error">
        <DialogTitle id="etq-save-error">
          {saveError ? ETQ_MESSAGES.saveFailed(saveError.line) : ""}
        </DialogTitle>
        {saveError?.reason && (
          <DialogContent>
            <DialogContentText>{saveError.reason}</DialogContentText>
          </DialogContent>
        )}
        <DialogActions>
          <Button onClick={dialogs.close} autoFocus>
            Ok
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
