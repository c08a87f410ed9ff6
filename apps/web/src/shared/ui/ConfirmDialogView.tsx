import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from "@mui/material";
import type { ReactNode } from "react";

export type ConfirmDialogProps = {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Shows a spinner on the confirm button and disables both buttons. */
  busy?: boolean;
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** ConfirmDialog's dialog (loaded when a confirmation is first asked for). */
export function ConfirmDialogView(p: ConfirmDialogProps) {
  return (
    <Dialog
      open={p.open}
      onClose={() => !p.busy && p.onCancel()}
      aria-labelledby="confirm-dialog-title"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="confirm-dialog-title">{p.title}</DialogTitle>
      {p.children && <DialogContent>{p.children}</DialogContent>}
      <DialogActions>
        <Button onClick={p.onCancel} disabled={p.busy}>
          {p.cancelLabel ?? "Cancel"}
        </Button>
        <Button
          onClick={p.onConfirm}
          disabled={p.busy}
          variant="contained"
          color={p.destructive ? "error" : "primary"}
          autoFocus
          startIcon={p.busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {p.confirmLabel ?? "Confirm"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
