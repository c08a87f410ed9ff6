import { ALERT_COMMENT_MAX } from "@linewatch/contracts";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useState } from "react";

export function CommentDialog(p: {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onSave: (comment: string) => void;
}) {
  const [comment, setComment] = useState("");
  const close = () => {
    setComment("");
    p.onCancel();
  };
  return (
    <Dialog open={p.open} onClose={() => !p.busy && close()} maxWidth="sm" fullWidth>
      <DialogTitle>Comment on the alert</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          multiline
          minRows={3}
          fullWidth
          label="Comment"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          helperText={`${comment.length} / ${ALERT_COMMENT_MAX}`}
          error={comment.length > ALERT_COMMENT_MAX}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={p.busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={p.busy || !comment.trim() || comment.length > ALERT_COMMENT_MAX}
          onClick={() => {
            p.onSave(comment.trim());
            setComment("");
          }}
        >
          Add comment
        </Button>
      </DialogActions>
    </Dialog>
  );
}
