import { PLANT_TEXTS, type TCreatePlantBody, type TPlant } from "@linewatch/contracts";
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from "@mui/material";
import { useState } from "react";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";
import { PlantFields } from "../../../../shared/ui/plants/PlantFields";
import { usePlantForm } from "../../../../shared/ui/plants/usePlantForm";

/**
 * Add a plant, or edit one's name and time zone. Checked as the user types (after the first
 * blur) and again by the server, whose refusal shows under its field; disabled while saving; a
 * dirty form asks before it closes. Mounted only while open, so each opening starts fresh.
 */
export function PlantDialog(p: {
  /** The plant to edit; none to add one. */
  plant?: TPlant;
  /** Saves; rejects with the API's error. */
  onSubmit: (body: TCreatePlantBody) => Promise<unknown>;
  onClose: () => void;
}) {
  const [isConfirmingDiscard, setConfirmingDiscard] = useState(false);
  const {
    form: {
      register,
      control,
      formState: { errors, isDirty, isSubmitting },
    },
    submit,
    formError,
  } = usePlantForm(p.onSubmit, p.plant);

  const requestClose = () => {
    if (isSubmitting) return;
    if (isDirty) setConfirmingDiscard(true);
    else p.onClose();
  };
  const title = p.plant ? PLANT_TEXTS.editTitle : PLANT_TEXTS.addTitle;

  return (
    <>
      <Dialog open onClose={requestClose} aria-labelledby="plant-dialog-title" maxWidth="sm" fullWidth>
        <form onSubmit={submit} noValidate>
          <DialogTitle id="plant-dialog-title">{title}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {formError && <Alert severity="error">{formError}</Alert>}
              <PlantFields
                register={register}
                control={control}
                errors={errors}
                disabled={isSubmitting}
                autoFocus
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={requestClose} disabled={isSubmitting}>
              {PLANT_TEXTS.cancel}
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={isSubmitting}
              startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {p.plant ? PLANT_TEXTS.save : PLANT_TEXTS.add}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmDialog
        open={isConfirmingDiscard}
        title={PLANT_TEXTS.discardTitle}
        confirmLabel={PLANT_TEXTS.discardExit}
        cancelLabel={PLANT_TEXTS.discardContinue}
        destructive
        onConfirm={() => {
          setConfirmingDiscard(false);
          p.onClose();
        }}
        onCancel={() => setConfirmingDiscard(false)}
      >
        {PLANT_TEXTS.discardText}
      </ConfirmDialog>
    </>
  );
}
