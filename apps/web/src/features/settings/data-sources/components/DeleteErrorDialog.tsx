import { DATA_SOURCE_MESSAGES } from "@linewatch/contracts";
import ErrorOutlineIcon from "@mui/icons-material/ErrorOutlineOutlined";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from "@mui/material";
import { ApiError } from "../../../../shared/api/client";

/** Reason phrases for when the answer has none (HTTP/2 carries no statusText). */
const REASON: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export type DeleteErrorDialogProps = {
  open: boolean;
  /** The source that was not deleted. */
  sourceName: string;
  error: unknown;
  onClose: () => void;
};

/** A failed delete: an error modal with the answer's Status and statusText (requirements.md monitor-forms §8). */
export function DeleteErrorDialog({ open, sourceName, error, onClose }: DeleteErrorDialogProps) {
  const api = error instanceof ApiError ? error : null;
  const statusText = api ? api.statusText || REASON[api.status] || "" : "";
  // The server's own words, when they add something to the status line (e.g. 'Data source not found').
  const message = error instanceof Error ? error.message : "";
  const detail = message.toLowerCase() === statusText.toLowerCase() ? "" : message;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="delete-error-title"
      aria-describedby="delete-error-body"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="delete-error-title" sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <ErrorOutlineIcon color="error" />
        {DATA_SOURCE_MESSAGES.deleteFailedTitle(sourceName)}
      </DialogTitle>
      <DialogContent>
        <Stack id="delete-error-body" spacing={0.5}>
          {api && <Typography>{DATA_SOURCE_MESSAGES.deleteFailedStatus(api.status)}</Typography>}
          {statusText && <Typography>{statusText}</Typography>}
          {detail && <Typography color="text.secondary">{detail}</Typography>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          Ok
        </Button>
      </DialogActions>
    </Dialog>
  );
}
