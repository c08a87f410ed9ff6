import { INTEGRATION_MESSAGES as M, TEAMS_MESSAGES } from "@linewatch/contracts";
import { Alert, DialogContentText, Stack, Typography } from "@mui/material";
import { useCallback, useMemo, useState } from "react";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { useMe } from "../../../shared/data/session/queries";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { useSnackbar } from "../../../shared/ui/SnackbarProvider";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useLeaveGuard } from "../../../shared/ui/settings/useLeaveGuard";
import { HistoryButton } from "../../audit-log/components/HistoryButton";
import { useDeleteTeamsWebhook, useSaveTeamsWebhook, useTestTeamsWebhook } from "./api/mutations";
import { useDeliveryHealth, useTeamsWebhooks } from "./api/queries";
import { TeamsGrid, WebhookUrlError } from "./components/TeamsGrid";
import { historyItems, type TTeamsRow, teamsRows } from "./notifications.rows";

/**
 * Settings → Microsoft Teams (requirements.md settings §2.2): a webhook per line of the selected plant, with
 * a test message and each line's delivery health (issue #13). Administrators change it; other
 * users see it read-only.
 */
export function TeamsPage() {
  const me = useMe().data;
  const { plant, lines, isLoading: isPlantLoading } = usePlantLine();
  const webhooksQ = useTeamsWebhooks(plant?.id);
  const healthQ = useDeliveryHealth(plant?.id, "teams");
  const snackbar = useSnackbar();
  const save = useSaveTeamsWebhook();
  const remove = useDeleteTeamsWebhook();
  const test = useTestTeamsWebhook();
  const dialogs = useDialogs<{ delete: TTeamsRow }>();
  const deleteTarget = dialogs.data("delete");
  const [testingId, setTestingId] = useState<string | null>(null);
  const canEdit = me?.isAdministrator ?? false;
  // A row open for editing (the Webhook URL input): leaving the section asks first, as the other
  // Settings sections with unsaved edits do ('Discard Changes?').
  const [isRowEditing, setRowEditing] = useState(false);
  const leaveGuard = useLeaveGuard(isRowEditing);

  const rows = useMemo(
    () => teamsRows(lines, webhooksQ.data ?? [], healthQ.data ?? []),
    [lines, webhooksQ.data, healthQ.data],
  );

  const { mutateAsync: saveAsync } = save;
  const handleSave = useCallback(
    async (row: TTeamsRow, url: string): Promise<TTeamsRow> => {
      // requirements.md settings §5 "Teams URL", §8: an error toast, and the row stays open.
      if (!url) {
        snackbar(TEAMS_MESSAGES.urlBlank, { severity: "error" });
        throw new WebhookUrlError(TEAMS_MESSAGES.urlBlank);
      }
      if (!plant) throw new WebhookUrlError(TEAMS_MESSAGES.saveFailed);
      const saved = await saveAsync({ plantId: plant.id, lineId: row.id, lineName: row.line, url });
      return {
        ...row,
        url: "",
        webhookId: saved.id,
        status: M.configured,
        configuredAt: saved.lastModifiedDateTime,
        urlHost: saved.urlHost,
        lastTest: saved.lastTest,
      };
    },
    [plant, saveAsync, snackbar],
  );

  const { open: openDialog } = dialogs;
  const handleDelete = useCallback((row: TTeamsRow) => openDialog("delete", row), [openDialog]);

  const handleDeleteConfirm = async () => {
    if (!deleteTarget?.webhookId) return;
    try {
      await remove.mutateAsync({ id: deleteTarget.webhookId, lineName: deleteTarget.line });
    } catch {
      // Shown by the mutation.
    }
    dialogs.close();
  };

  const { mutateAsync: testAsync } = test;
  const handleTest = useCallback(
    async (row: TTeamsRow) => {
      if (!row.webhookId) return;
      setTestingId(row.id);
      try {
        await testAsync({ id: row.webhookId });
      } catch {
        // Shown by the mutation.
      } finally {
        setTestingId(null);
      }
    },
    [testAsync],
  );

  const timeZone = plant?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {M.teamsTitle}
        </Typography>
        <HistoryButton
          resource="teams_webhook"
          itemLabel="Line"
          items={historyItems(lines, webhooksQ.data ?? [])}
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
        isLoading={isPlantLoading || !me || (!!plant && webhooksQ.isLoading)}
        error={null}
        isEmpty={!plant}
        empty={<Alert severity="info">{M.pickPlant}</Alert>}
      >
        <TeamsGrid
          rows={rows}
          timeZone={timeZone}
          isError={webhooksQ.isError}
          canEdit={canEdit}
          testingId={testingId}
          onSave={handleSave}
          onDelete={handleDelete}
          onTest={handleTest}
          onEditingChange={setRowEditing}
        />
      </QueryState>
      {leaveGuard}
      <ConfirmDialog
        open={dialogs.isOpen("delete")}
        title={TEAMS_MESSAGES.deleteTitle}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={handleDeleteConfirm}
        onCancel={dialogs.close}
      >
        <DialogContentText>
          {deleteTarget ? TEAMS_MESSAGES.deleteText(deleteTarget.line) : ""}
        </DialogContentText>
      </ConfirmDialog>
    </Stack>
  );
}
