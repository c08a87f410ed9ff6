import { USER_MESSAGES } from "@linewatch/contracts";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from "@mui/material";
import { useState } from "react";

/**
 * A user's one-time password link (a new user's, or a new one an administrator sent), shown once: the server keeps only its hash. A click on
 * the backdrop does not close it, so the link is not lost by accident.
 */
export function PasswordLinkDialog(p: {
  open: boolean;
  email: string;
  link: string;
  /** What to do with the link; default: for a new user. */
  note?: string;
  onClose: () => void;
  /** After the closing transition: the page puts the focus back on the grid. */
  onExited: () => void;
}) {
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(p.link);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  const handleClose = () => {
    setCopy("idle");
    p.onClose();
  };
  return (
    <Dialog
      open={p.open}
      onClose={(_, reason) => reason !== "backdropClick" && handleClose()}
      aria-labelledby="password-link-title"
      // The row that opened it is gone (the new row is saved): the page moves the focus itself.
      disableRestoreFocus
      slotProps={{ transition: { onExited: p.onExited } }}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="password-link-title">{USER_MESSAGES.passwordLinkTitle}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>{p.email}</DialogContentText>
          <TextField
            label="One-time link"
            value={p.link}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, "data-testid": "password-link" } }}
            onFocus={(e) => e.target.select()}
          />
          <Alert severity="warning">{p.note ?? USER_MESSAGES.passwordLinkNote}</Alert>
          {copy === "copied" && <Alert severity="success">{USER_MESSAGES.linkCopied}</Alert>}
          {copy === "failed" && <Alert severity="info">{USER_MESSAGES.copyBlocked}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={handleCopy}>
          {USER_MESSAGES.copyLink}
        </Button>
        <Button variant="contained" onClick={handleClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
