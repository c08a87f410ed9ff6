import { ALERT_CAUSE_MAX, ALERT_COMMENT_MAX, ALERT_MESSAGES, ALERT_TEXTS } from "@linewatch/contracts";
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from "@mui/material";
import { useEffect, useState } from "react";
import { useTexts } from "../../../shared/i18n/language";
import { useAlertCauses } from "../api/queries";

/**
 * Resolve by hand with a cause: the failure modes of the monitor's result signals, free text, or
 * 'No cause given' chosen explicitly. Resolve waits for one of them.
 */
export function ResolveDialog(p: {
  alertId: string | null;
  busy: boolean;
  onCancel: () => void;
  onResolve: (v: { cause: string; comment?: string }) => void;
}) {
  const T = useTexts(ALERT_TEXTS);
  const M = useTexts(ALERT_MESSAGES);
  const causes = useAlertCauses(p.alertId);
  const [cause, setCause] = useState("");
  const [comment, setComment] = useState("");
  // What was typed stays until the dialog closes: a failed resolve loses nothing.
  useEffect(() => {
    if (p.alertId == null) {
      setCause("");
      setComment("");
    }
  }, [p.alertId]);
  const hasCause = cause.trim() !== "";
  const cancel = () => {
    setCause("");
    setComment("");
    p.onCancel();
  };
  return (
    <Dialog open={p.alertId != null} onClose={() => !p.busy && cancel()} maxWidth="sm" fullWidth>
      <DialogTitle>{T.resolveTitle}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Autocomplete
            freeSolo
            options={[T.noCause, ...(causes.data?.causes ?? [])]}
            loading={causes.isLoading}
            inputValue={cause}
            onInputChange={(_e, v) => setCause(v)}
            renderInput={(params) => (
              <TextField
                {...params}
                label={T.causeLabel}
                required
                helperText={causes.data?.causes.length ? T.causeHelpWithModes : T.causeHelp}
                error={cause.length > ALERT_CAUSE_MAX}
              />
            )}
          />
          <TextField
            label={T.commentLabel}
            multiline
            minRows={2}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            error={comment.length > ALERT_COMMENT_MAX}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel} disabled={p.busy}>
          {T.cancel}
        </Button>
        <Button
          variant="contained"
          color="success"
          disabled={
            p.busy || !hasCause || cause.length > ALERT_CAUSE_MAX || comment.length > ALERT_COMMENT_MAX
          }
          title={hasCause ? undefined : M.causeRequired}
          onClick={() => p.onResolve({ cause: cause.trim(), comment: comment.trim() || undefined })}
        >
          {T.resolve}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
