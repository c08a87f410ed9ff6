import { zodResolver } from "@hookform/resolvers/zod";
import { type TCreateIngestTokenBody, ZCreateIngestTokenBody } from "@linewatch/contracts";
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from "@mui/material";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";

export type CreateIngestTokenDialogProps = {
  plantName: string;
  /** Creates the token; rejects with the API's error, shown in the dialog. */
  onSubmit: (body: TCreateIngestTokenBody) => Promise<unknown>;
  onClose: () => void;
};

/** Name a new ingest token. Mounted only while open, so each opening starts empty. */
export function CreateIngestTokenDialog({ plantName, onSubmit, onClose }: CreateIngestTokenDialogProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const [isConfirmingDiscard, setConfirmingDiscard] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<TCreateIngestTokenBody>({
    resolver: zodResolver(ZCreateIngestTokenBody),
    defaultValues: { name: "" },
    mode: "onTouched",
  });

  const submit = handleSubmit(async (body) => {
    setFormError(null);
    try {
      await onSubmit(body);
    } catch (err) {
      setFormError(err instanceof Error ? err.message : String(err));
    }
  });
  const requestClose = () => {
    if (isSubmitting) return;
    if (isDirty) setConfirmingDiscard(true);
    else onClose();
  };

  return (
    <>
      <Dialog open onClose={requestClose} aria-labelledby="create-ingest-token-title" maxWidth="sm" fullWidth>
        <form onSubmit={submit} noValidate>
          <DialogTitle id="create-ingest-token-title">Create ingest token</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              A token lets a machine or script send part records of {plantName} to POST /api/ingest.
            </DialogContentText>
            {formError && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {formError}
              </Alert>
            )}
            <TextField
              {...register("name")}
              label="Name"
              required
              fullWidth
              autoFocus
              disabled={isSubmitting}
              error={!!errors.name}
              helperText={errors.name?.message ?? "Who uses it, e.g. Line 3 PLC gateway"}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={requestClose} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={isSubmitting}
              startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              Create
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmDialog
        open={isConfirmingDiscard}
        title="Discard this token?"
        confirmLabel="Discard"
        cancelLabel="Keep editing"
        destructive
        onConfirm={() => {
          setConfirmingDiscard(false);
          onClose();
        }}
        onCancel={() => setConfirmingDiscard(false)}
      >
        The name you typed will be lost.
      </ConfirmDialog>
    </>
  );
}
