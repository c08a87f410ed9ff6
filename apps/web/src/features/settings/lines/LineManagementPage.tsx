import {
  LINE_EXPORT_FILE_NAME,
  LINE_MANAGEMENT_MESSAGES,
  LINE_MANAGEMENT_TEXTS,
  lineLabel,
} from "@linewatch/contracts";
import { Stack, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, useCallback, useMemo, useState } from "react";
import { ApiError } from "../../../shared/api/client";
import { downloadCsv } from "../../../shared/csv";
import { plantKeys } from "../../../shared/data/plants/keys";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { usePlantLines } from "../../../shared/data/plants/queries";
import { useFeatureFlags } from "../../../shared/data/session/queries";
import { useTexts } from "../../../shared/i18n/language";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import { useSnackbar } from "../../../shared/ui/SnackbarProvider";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useInlineRowEdit } from "../../../shared/ui/settings/useInlineRowEdit";
import { useLeaveGuard } from "../../../shared/ui/settings/useLeaveGuard";
import { lineManagementKeys } from "./api/keys";
import { useSetAlertViewingWindow, useUpdateLine } from "./api/mutations";
import { useActiveMonitorCounts, useAlertViewingWindows } from "./api/queries";
import { LinesGrid } from "./components/LinesGrid";
import { PartMarriageLinesGrid } from "./components/PartMarriageLinesGrid";
import { exportRows, type LineRow, toLineRows } from "./lines.form";

// Loads when first opened (issue #17): with it the feeder lines' drawer and the editor's checks.
const LineEditorDrawer = lazy(() =>
  import("./components/LineEditorDrawer").then((m) => ({ default: m.LineEditorDrawer })),
);

/** Settings → Data Management → Line Management (requirements.md settings §2.9), for the plant picked in the top bar. */
export function LineManagementPage() {
  const T = useTexts(LINE_MANAGEMENT_TEXTS);
  const M = useTexts(LINE_MANAGEMENT_MESSAGES);
  const flags = useFeatureFlags().data?.flags;
  const { plant } = usePlantLine();
  const linesQ = usePlantLines(plant?.id ?? null);
  const countsQ = useActiveMonitorCounts(plant?.id);
  const windowsQ = useAlertViewingWindows(plant?.id);
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  const updateLine = useUpdateLine();
  const setWindow = useSetAlertViewingWindow();
  const dialogs = useDialogs<{ toggle: LineRow; editor: string }>();
  const toggleTarget = dialogs.data("toggle");
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  // The Configure Line drawer's form holds changes (it reports them; it unmounts with the drawer).
  const [editorDirty, setEditorDirty] = useState(false);
  const timeZone = plant?.timeZone ?? "UTC";

  const rows = useMemo(
    () => toLineRows(linesQ.data ?? [], countsQ.data, windowsQ.data),
    [linesQ.data, countsQ.data, windowsQ.data],
  );

  const refresh = useCallback(
    () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: plantKeys.all }),
        qc.invalidateQueries({ queryKey: lineManagementKeys.all }),
      ]),
    [qc],
  );

  // The two values edited in place: the threshold through the line's PATCH, the window through its own call.
  const edit = useInlineRowEdit<LineRow>({
    onSave: async (row, previous) => {
      let saved = row;
      if (row.ingestionThresholdHours !== previous.ingestionThresholdHours) {
        await updateLine.mutateAsync({
          lineId: row.id,
          patch: { ingestionThresholdHours: row.ingestionThresholdHours },
        });
      }
      if (row.alertViewingWindowDays !== previous.alertViewingWindowDays) {
        try {
          await setWindow.mutateAsync({ lineId: row.id, alertViewingWindowDays: row.alertViewingWindowDays });
        } catch {
          // 'Failed to update Overview Alert Filter' and the grid refreshed (requirements.md settings §8).
          snackbar(M.alertFilterFailed, { severity: "error" });
          saved = { ...saved, alertViewingWindowDays: previous.alertViewingWindowDays };
          void refresh();
        }
      }
      return saved;
    },
    fieldErrorOf: (error) => ({
      field: "ingestionThresholdHours",
      message: error instanceof ApiError && error.status === 400 ? error.message : M.thresholdFailed,
    }),
  });

  // Leaving the section (another menu item, a link, back, closing the tab) with a row open or the
  // drawer holding changes asks 'Discard Changes?' first, as closing the drawer does.
  const leaveGuard = useLeaveGuard(edit.isDirty || (dialogs.isOpen("editor") && editorDirty));

  const { open: openDialog } = dialogs;
  const onToggleActive = useCallback((row: LineRow) => openDialog("toggle", row), [openDialog]);
  const onConfigure = useCallback((row: LineRow) => openDialog("editor", row.id), [openDialog]);

  const confirmToggle = async () => {
    const row = toggleTarget;
    if (!row) return;
    dialogs.close();
    setBusyIds((s) => new Set(s).add(row.id));
    try {
      await updateLine.mutateAsync({ lineId: row.id, patch: { active: !row.active } });
    } catch {
      snackbar(row.active ? M.deactivateFailed : M.activateFailed, { severity: "error" });
    } finally {
      setBusyIds((s) => {
        const next = new Set(s);
        next.delete(row.id);
        return next;
      });
    }
  };

  const onExport = useCallback(
    (shown: LineRow[]) => downloadCsv(LINE_EXPORT_FILE_NAME, exportRows(shown, timeZone)),
    [timeZone],
  );

  const isLoading = !flags || linesQ.isLoading;
  const isError = Boolean(linesQ.error);
  const deactivating = toggleTarget?.active ?? false;

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {T.title}
      </Typography>
      {flags?.partMarriage ? (
        <PartMarriageLinesGrid
          rows={rows}
          timeZone={timeZone}
          isLoading={isLoading}
          isError={isError}
          onConfigure={onConfigure}
        />
      ) : (
        <LinesGrid
          rows={rows}
          edit={edit}
          timeZone={timeZone}
          isLoading={isLoading}
          isError={isError}
          canConfigure={flags?.lineFriendlyName ?? false}
          busyIds={busyIds}
          onToggleActive={onToggleActive}
          onConfigure={onConfigure}
          onExport={onExport}
        />
      )}
      <ConfirmDialog
        open={dialogs.isOpen("toggle")}
        title={deactivating ? T.deactivateTitle : T.reactivateTitle}
        confirmLabel={T.save}
        cancelLabel={T.cancel}
        destructive={deactivating}
        onConfirm={() => void confirmToggle()}
        onCancel={dialogs.close}
      >
        {toggleTarget && (
          <>
            <Typography gutterBottom>
              {deactivating
                ? T.deactivateText(lineLabel(toggleTarget))
                : T.reactivateText(lineLabel(toggleTarget))}
            </Typography>
            <Typography color="text.secondary">
              {deactivating ? T.deactivateDetail : T.reactivateDetail}
            </Typography>
          </>
        )}
      </ConfirmDialog>
      {flags && (
        <MountWhenOpened isOpen={dialogs.isOpen("editor")}>
          <LineEditorDrawer
            open={dialogs.isOpen("editor")}
            lineId={dialogs.data("editor")}
            flags={flags}
            onClose={dialogs.close}
            onExited={() => dialogs.forget("editor")}
            onDirtyChange={setEditorDirty}
          />
        </MountWhenOpened>
      )}
      {leaveGuard}
    </Stack>
  );
}
