import {
  MONITOR_MESSAGES,
  MONITOR_SNACKBAR_MS,
  type TFormMonitorType,
  type TMonitor,
} from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import { Button, Stack, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, useCallback, useState } from "react";
import { ApiError } from "../../../shared/api/client";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { QueryState } from "../../../shared/ui/QueryState";
import { PageLineSelect, usePageLine } from "../../../shared/ui/settings/PageLineSelect";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { monitorKeys } from "../../monitors/api/keys";
import { useDeleteMonitor, useSetMonitorActive } from "../../monitors/api/mutations";
import { useMonitorList } from "../../monitors/api/queries";
import type { TMonitorDrawerTarget } from "./components/MonitorDetailsDrawer";
import { MonitorsGrid } from "./components/MonitorsGrid";
import { MONITORS_ADMIN_TEXTS as T } from "./texts";

// Loads when first opened (issue #17).
const MonitorDetailsDrawer = lazy(() =>
  import("./components/MonitorDetailsDrawer").then((m) => ({ default: m.MonitorDetailsDrawer })),
);

/** requirements.md settings §8 "Monitors": a 409 shows nothing; other failures the message. */
const unlessConflict = (message: string) => (err: Error) =>
  err instanceof ApiError && err.status === 409 ? false : message;

/**
 * Settings → Anomaly Monitors, SVD or MVD (requirements.md settings §2.7, §4, §8): a line selector and the
 * line's monitors; switch one on or off, edit it in the details drawer, delete it, or add one.
 */
export function MonitorsAdminPage({ type }: { type: TFormMonitorType }) {
  const qc = useQueryClient();
  // The page starts on the line picked in the top bar; picking another here does not change that one.
  const {
    plant,
    lines,
    lineId,
    setLineId,
    isLoading: isLinesLoading,
    error: linesError,
    hasNoLines,
  } = usePageLine();
  const plantId = plant?.id ?? null;

  const listQ = useMonitorList(lineId, type);
  // Monitor save and delete snackbars of the admin pages hide after 3000 ms (requirements.md settings §9).
  const setActive = useSetMonitorActive({
    successText: MONITOR_MESSAGES.adminSaved,
    errorText: unlessConflict(MONITOR_MESSAGES.errorSaving),
    snackbarMs: MONITOR_SNACKBAR_MS,
  });
  const deleteMonitor = useDeleteMonitor({
    successText: T.deleted,
    errorText: unlessConflict(MONITOR_MESSAGES.errorDeleting),
    snackbarMs: MONITOR_SNACKBAR_MS,
  });
  const [pendingActive, setPendingActive] = useState<ReadonlyMap<string, boolean>>(new Map());
  // The monitor stays named in the dialog while it fades out, the drawer's form while it slides out.
  const dialogs = useDialogs<{ delete: TMonitor; drawer: TMonitorDrawerTarget }>();
  const deleteTarget = dialogs.data("delete");
  const { open: openDialog, forget: forgetDialog } = dialogs;

  const { mutateAsync: mutateActive } = setActive;
  const handleActiveChange = useCallback(
    async (m: TMonitor, active: boolean) => {
      const lineOfMonitor = m.monitor_filter.line_uuid;
      setPendingActive((s) => new Map(s).set(m.monitor_uuid, active));
      try {
        await mutateActive({ monitorId: m.monitor_uuid, type, lineId: lineOfMonitor, plantId, active });
      } catch {
        // The mutation has shown its message; the switch goes back.
      } finally {
        setPendingActive((s) => {
          const next = new Map(s);
          next.delete(m.monitor_uuid);
          return next;
        });
      }
    },
    [mutateActive, type, plantId],
  );

  const openDrawer = useCallback(
    (target: TMonitorDrawerTarget) => openDialog("drawer", target),
    [openDialog],
  );
  const handleEdit = useCallback(
    (m: TMonitor) => openDrawer({ mode: "EDIT", monitorId: m.monitor_uuid }),
    [openDrawer],
  );

  const handleDeleteConfirm = async () => {
    if (!deleteTarget) return;
    try {
      await deleteMonitor.mutateAsync({
        monitorId: deleteTarget.monitor_uuid,
        type,
        lineId: deleteTarget.monitor_filter.line_uuid,
        plantId,
      });
    } catch {
      // Shown by the mutation.
    }
    dialogs.close();
  };
  const handleDelete = useCallback((m: TMonitor) => openDialog("delete", m), [openDialog]);

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {T.pageTitle(type)}
        </Typography>
        <PageLineSelect label={T.lineLabel} lines={lines} lineId={lineId} onChange={setLineId} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={!lineId}
          onClick={() => lineId && openDrawer({ mode: "CREATE", lineId })}
        >
          {T.newMonitor}
        </Button>
      </Stack>

      {hasNoLines ? (
        <Typography color="text.secondary">{T.noLines}</Typography>
      ) : (
        <QueryState
          isLoading={isLinesLoading || (!!lineId && listQ.isLoading)}
          error={linesError ?? listQ.error}
          onRetry={() => void listQ.refetch()}
          errorTitle={T.errorLoading}
        >
          <MonitorsGrid
            type={type}
            monitors={listQ.data ?? []}
            pendingActive={pendingActive}
            onActiveChange={handleActiveChange}
            onEdit={handleEdit}
            onDelete={handleDelete}
          />
        </QueryState>
      )}

      <ConfirmDialog
        open={dialogs.isOpen("delete")}
        title={T.deleteTitle}
        confirmLabel={T.deleteConfirm}
        destructive
        busy={deleteMonitor.isPending}
        onConfirm={handleDeleteConfirm}
        onCancel={dialogs.close}
      >
        <Typography>
          {T.deleteText} <strong>{deleteTarget?.monitor_name}</strong>
        </Typography>
        <Typography sx={{ mt: 1 }}>{T.deleteIrreversible}</Typography>
      </ConfirmDialog>

      <MountWhenOpened isOpen={dialogs.isOpen("drawer")}>
        <MonitorDetailsDrawer
          type={type}
          open={dialogs.isOpen("drawer")}
          target={dialogs.data("drawer") ?? null}
          onClose={dialogs.close}
          onExited={() => forgetDialog("drawer")}
          // The form's save hooks refresh every monitor list; the page refreshes its own list too, so
          // it does not depend on how the form in the drawer saves.
          onSaved={() => void qc.invalidateQueries({ queryKey: monitorKeys.list(lineId ?? "none", type) })}
        />
      </MountWhenOpened>
    </Stack>
  );
}

/** Settings section SVD_ANOMALY_MONITORS. */
export const SvdMonitorsPage = () => <MonitorsAdminPage type="svd" />;
/** Settings section MVD_ANOMALY_MONITORS (the menu offers it only with the MVD-creation flag). */
export const MvdMonitorsPage = () => <MonitorsAdminPage type="mvd" />;
