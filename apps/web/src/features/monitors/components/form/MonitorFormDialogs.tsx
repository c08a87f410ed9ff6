import {
  MONITOR_MESSAGES,
  MONITOR_FORM_TEXTS as T,
  type TFormError,
  type TFormTab,
  type TMonitor,
} from "@linewatch/contracts";
import { List, ListItem, ListItemText } from "@mui/material";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";
import type { SaveOutcome } from "../../api/save-outcome";

/** The one dialog the form shows at a time. */
export type TMonitorFormDialog =
  | { kind: "validation"; errors: TFormError[] }
  | { kind: "duplicate"; monitor: TMonitor }
  | { kind: "saveError"; message: string }
  | { kind: "loadError" }
  | { kind: "partial"; outcome: Extract<SaveOutcome, { kind: "partial" }> }
  | { kind: "discard" }
  | null;

/**
 * The form's dialogs (requirements.md monitor-forms §4, §8): the validation summary (with the way to the first error on
 * another tab), the duplicate monitor, discard, the duplicate that could not be loaded, the save
 * error and the partial outcome.
 */
export function MonitorFormDialogs(p: {
  dialog: TMonitorFormDialog;
  /** The tab the form shows (the summary offers the first error on another one). */
  tab: TFormTab;
  onDismiss: () => void;
  onGoToTab: (tab: TFormTab) => void;
  onEditExisting: (monitorId: string) => void;
  onDiscard: () => void;
}) {
  const { dialog, onDismiss } = p;
  const errorTab =
    dialog?.kind === "validation" ? (dialog.errors.find((e) => e.tab && e.tab !== p.tab)?.tab ?? null) : null;
  return (
    <>
      <ConfirmDialog
        open={dialog?.kind === "validation"}
        title={T.validationTitle}
        confirmLabel={errorTab ? T.goToTab(T.tabs[errorTab]) : T.ok}
        cancelLabel={errorTab ? T.close : undefined}
        onConfirm={() => {
          if (errorTab) p.onGoToTab(errorTab);
          onDismiss();
        }}
        onCancel={onDismiss}
      >
        {dialog?.kind === "validation" && (
          <List dense aria-label={T.validationSummary}>
            {dialog.errors.map((e) => (
              <ListItem key={`${e.path}:${e.message}`} disableGutters>
                <ListItemText primary={e.message} secondary={e.tab ? T.tabs[e.tab] : undefined} />
              </ListItem>
            ))}
          </List>
        )}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "duplicate"}
        title={MONITOR_MESSAGES.duplicate}
        confirmLabel={T.editExisting}
        onConfirm={() => {
          if (dialog?.kind === "duplicate") p.onEditExisting(dialog.monitor.monitor_uuid);
          onDismiss();
        }}
        onCancel={onDismiss}
      >
        {dialog?.kind === "duplicate" && MONITOR_MESSAGES.duplicateQuestion(dialog.monitor.monitor_name)}
      </ConfirmDialog>

      <MonitorDiscardDialog
        open={dialog?.kind === "discard"}
        onDiscard={() => {
          onDismiss();
          p.onDiscard();
        }}
        onKeepEditing={onDismiss}
      />

      <ConfirmDialog
        open={dialog?.kind === "loadError"}
        title={MONITOR_MESSAGES.errorLoading}
        confirmLabel={T.ok}
        onConfirm={onDismiss}
        onCancel={onDismiss}
      >
        {T.duplicateNotLoaded(MONITOR_MESSAGES.duplicate)}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "saveError"}
        title={MONITOR_MESSAGES.errorSaving}
        confirmLabel={T.ok}
        onConfirm={onDismiss}
        onCancel={onDismiss}
      >
        {dialog?.kind === "saveError" && dialog.message}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === "partial"}
        title={dialog?.kind === "partial" ? dialog.outcome.title : ""}
        confirmLabel={T.ok}
        onConfirm={onDismiss}
        onCancel={onDismiss}
      >
        {dialog?.kind === "partial" && (
          <List dense aria-label={T.saveResults}>
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
    </>
  );
}

/** Unsaved changes would be lost (Cancel, or leaving the monitor's page): Discard or Keep editing. */
export function MonitorDiscardDialog(p: { open: boolean; onDiscard: () => void; onKeepEditing: () => void }) {
  return (
    <ConfirmDialog
      open={p.open}
      title={T.discardTitle}
      confirmLabel={T.discard}
      cancelLabel={T.keepEditing}
      destructive
      onConfirm={p.onDiscard}
      onCancel={p.onKeepEditing}
    >
      {T.discardText}
    </ConfirmDialog>
  );
}
