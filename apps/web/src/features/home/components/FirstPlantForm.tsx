import { PLANT_TEXTS } from "@linewatch/contracts";
import { Alert, Button, CircularProgress, Paper, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { useCreatePlant } from "../../../shared/data/plants/mutations";
import { usePlantsWithInactive } from "../../../shared/data/plants/queries";
import { PlantFields } from "../../../shared/ui/plants/PlantFields";
import { usePlantForm } from "../../../shared/ui/plants/usePlantForm";

/**
 * Home for an administrator whose customer has no plant (issue 28 §1: never a dead end): the form
 * that creates the first one. Once it exists the top bar and Home show it (the plants query is
 * refetched); lines and data sources follow in Settings.
 */
export function FirstPlantForm() {
  const createPlant = useCreatePlant();
  // Deactivated plants are in no picker: say so, and where to reactivate them.
  const inactiveCount = (usePlantsWithInactive().data ?? []).filter((p) => !p.active).length;
  const {
    form: {
      register,
      control,
      formState: { errors, isSubmitting },
    },
    submit,
    formError,
  } = usePlantForm((body) => createPlant.mutateAsync(body));

  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 560 }}>
      <form onSubmit={submit} noValidate aria-labelledby="first-plant-title">
        <Stack spacing={2}>
          <Typography variant="h6" component="h2" id="first-plant-title">
            {PLANT_TEXTS.firstPlantTitle}
          </Typography>
          {inactiveCount > 0 ? (
            <Alert
              severity="info"
              action={
                <Button component={RouterLink} to="/settings?section=PLANTS" color="inherit" size="small">
                  {PLANT_TEXTS.openPlantsSettings}
                </Button>
              }
            >
              {PLANT_TEXTS.onlyInactive(inactiveCount)}
            </Alert>
          ) : (
            <Typography color="text.secondary">{PLANT_TEXTS.firstPlantIntro}</Typography>
          )}
          {formError && <Alert severity="error">{formError}</Alert>}
          <PlantFields
            register={register}
            control={control}
            errors={errors}
            disabled={isSubmitting}
            autoFocus
          />
          <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
            <Button
              type="submit"
              variant="contained"
              disabled={isSubmitting}
              startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {PLANT_TEXTS.create}
            </Button>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
