import { ALERT_COMMENT_MAX, ALERT_TEXTS } from "@linewatch/contracts";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useState } from "react";
import { useTexts } from "../../../shared/i18n/language";

export function CommentDialog(p: {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onSave: (comment: string) => void;
}) {
  const T = useTexts(ALERT_TEXTS);
  const [comment, setComment] = useState("");
  const close = () => {
    setComment("");
    p.onCancel();
  };
  return (
    <Dialog open={p.open} onClose={() => !p.busy && close()} maxWidth="sm" fullWidth>
      <DialogTitle>{T.commentTitle}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          multiline
          minRows={3}
          fullWidth
          label={T.commentLabel}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          helperText={T.commentCount(comment.length, ALERT_COMMENT_MAX)}
          error={comment.length > ALERT_COMMENT_MAX}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={p.busy}>
          {T.cancel}
        </Button>
        <Button
          variant="contained"
          disabled={p.busy || !comment.trim() || comment.length > ALERT_COMMENT_MAX}
          onClick={() => {
            p.onSave(comment.trim());
            setComment("");
          }}
        >
          {T.addComment}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
