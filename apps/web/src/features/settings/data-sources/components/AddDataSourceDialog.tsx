import { zodResolver } from "@hookform/resolvers/zod";
import {
  DATA_SOURCE_NAME_MAX,
  DATA_SOURCE_TOPIC_MAX,
  type TCreateDataSourceBody,
} from "@linewatch/contracts";
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from "@mui/material";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";
import {
  type DataSourceField,
  type DataSourceFormInput,
  dataSourceFormDefaults,
  dataSourceFormSchema,
  placeCreateError,
} from "../data-sources.form";

export type AddDataSourceDialogProps = {
  plantName: string;
  /** Creates the source; rejects with the API's error, which the dialog places under its field. */
  onSubmit: (body: TCreateDataSourceBody) => Promise<unknown>;
  onClose: () => void;
};

const TOPIC_HELP = "For example plant1/line3/+/records: '+' matches one level, '#' (last) all below";

/**
 * Add a data source: Name and MQTT topic filter, checked with the route's own schema as the
 * user types (after the first blur) and again by the server. Disabled while saving; asks before
 * throwing away typed values. Mounted only while open, so each opening starts empty.
 */
export function AddDataSourceDialog({ plantName, onSubmit, onClose }: AddDataSourceDialogProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const [isConfirmingDiscard, setConfirmingDiscard] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<DataSourceFormInput, unknown, TCreateDataSourceBody>({
    resolver: zodResolver(dataSourceFormSchema),
    defaultValues: dataSourceFormDefaults,
    mode: "onTouched",
  });

  const submit = handleSubmit(async (body) => {
    setFormError(null);
    try {
      await onSubmit(body);
    } catch (err) {
      const placed = placeCreateError(err);
      const fields = Object.entries(placed.fields) as [DataSourceField, string][];
      for (const [field, message] of fields) setError(field, { type: "server", message });
      if (fields[0]) setFocus(fields[0][0]);
      setFormError(placed.form ?? null);
    }
  });

  const requestClose = () => {
    if (isSubmitting) return;
    if (isDirty) setConfirmingDiscard(true);
    else onClose();
  };

  return (
    <>
      <Dialog open onClose={requestClose} aria-labelledby="add-data-source-title" maxWidth="sm" fullWidth>
        <form onSubmit={submit} noValidate>
          <DialogTitle id="add-data-source-title">Add data source to {plantName}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {formError && <Alert severity="error">{formError}</Alert>}
              <TextField
                {...register("name")}
                label="Name"
                required
                autoFocus
                disabled={isSubmitting}
                error={!!errors.name}
                helperText={
                  errors.name?.message ?? `Up to ${DATA_SOURCE_NAME_MAX} characters, unique in the plant`
                }
                slotProps={{ htmlInput: { maxLength: DATA_SOURCE_NAME_MAX + 20 } }}
              />
              <TextField
                {...register("topic")}
                label="MQTT topic filter"
                required
                disabled={isSubmitting}
                error={!!errors.topic}
                helperText={errors.topic?.message ?? TOPIC_HELP}
                slotProps={{
                  htmlInput: {
                    maxLength: DATA_SOURCE_TOPIC_MAX + 20,
                    spellCheck: false,
                    autoCapitalize: "off",
                    style: { fontFamily: "monospace" },
                  },
                }}
              />
            </Stack>
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
              Add
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmDialog
        open={isConfirmingDiscard}
        title="Discard this data source?"
        confirmLabel="Discard"
        cancelLabel="Keep editing"
        destructive
        onConfirm={() => {
          setConfirmingDiscard(false);
          onClose();
        }}
        onCancel={() => setConfirmingDiscard(false)}
      >
        The name and topic you typed will be lost.
      </ConfirmDialog>
    </>
  );
}
