import { PLANT_TEXTS, type TCreatePlantBody, type TPlant } from "@linewatch/contracts";
import Add from "@mui/icons-material/Add";
import { Alert, Button, Paper, Stack, Typography } from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { useCreatePlant, useUpdatePlant } from "../../../shared/data/plants/mutations";
import { usePlantsWithInactive } from "../../../shared/data/plants/queries";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { HistoryButton } from "../../audit-log/components/HistoryButton";
import { PlantsTable } from "./components/PlantsTable";

// The add/edit dialog loads its code when first opened (issue #17).
const PlantDialog = lazy(() => import("./components/PlantDialog").then((m) => ({ default: m.PlantDialog })));

/**
 * Settings → Data Management → Plants (issue 28 §1; administrators only, the Settings menu and
 * the server decide): the customer's plants, active or not; add, edit (name, time zone),
 * deactivate and reactivate with a confirmation. A refused deactivation (the plant still has
 * active lines) shows the server's reason in the confirmation.
 */
export function PlantsPage() {
  const plantsQ = usePlantsWithInactive();
  const createPlant = useCreatePlant();
  const updatePlant = useUpdatePlant();
  const dialogs = useDialogs<{ add: undefined; edit: TPlant; toggle: TPlant }>();
  const [toggleError, setToggleError] = useState<string | null>(null);
  const plants = plantsQ.data ?? [];
  const editing = dialogs.data("edit");
  const toggling = dialogs.data("toggle");

  const handleCreate = async (body: TCreatePlantBody) => {
    await createPlant.mutateAsync(body);
    dialogs.close();
  };
  const handleEdit = async (body: TCreatePlantBody) => {
    if (!editing) return;
    await updatePlant.mutateAsync({ plantId: editing.id, body });
    dialogs.close();
  };
  const handleToggle = async () => {
    if (!toggling) return;
    setToggleError(null);
    try {
      await updatePlant.mutateAsync({ plantId: toggling.id, body: { active: !toggling.active } });
      dialogs.close();
    } catch (err) {
      setToggleError(err instanceof Error ? err.message : PLANT_TEXTS.saveError);
    }
  };
  const closeToggle = () => {
    setToggleError(null);
    dialogs.close();
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {PLANT_TEXTS.title}
        </Typography>
        <HistoryButton resource="plant" items={plants} itemLabel={PLANT_TEXTS.name} />
        <Button variant="contained" startIcon={<Add />} onClick={() => dialogs.open("add", undefined)}>
          {PLANT_TEXTS.add}
        </Button>
      </Stack>
      <Paper variant="outlined">
        <QueryState
          isLoading={plantsQ.isLoading}
          error={plantsQ.error}
          errorTitle={PLANT_TEXTS.errorLoading}
          onRetry={() => plantsQ.refetch()}
          isEmpty={plants.length === 0}
          empty={
            <Typography color="text.secondary" sx={{ p: 2 }}>
              {PLANT_TEXTS.empty}
            </Typography>
          }
        >
          <PlantsTable
            plants={plants}
            onEdit={(plant) => dialogs.open("edit", plant)}
            onToggleActive={(plant) => dialogs.open("toggle", plant)}
          />
        </QueryState>
      </Paper>
      {dialogs.isOpen("add") && (
        <Suspense fallback={null}>
          <PlantDialog onSubmit={handleCreate} onClose={dialogs.close} />
        </Suspense>
      )}
      {dialogs.isOpen("edit") && editing && (
        <Suspense fallback={null}>
          <PlantDialog key={editing.id} plant={editing} onSubmit={handleEdit} onClose={dialogs.close} />
        </Suspense>
      )}
      <ConfirmDialog
        open={dialogs.isOpen("toggle")}
        title={
          toggling?.active
            ? PLANT_TEXTS.deactivateTitle(toggling.name)
            : PLANT_TEXTS.reactivateTitle(toggling?.name ?? "")
        }
        confirmLabel={toggling?.active ? PLANT_TEXTS.deactivate : PLANT_TEXTS.reactivate}
        destructive={toggling?.active}
        busy={updatePlant.isPending}
        onConfirm={handleToggle}
        onCancel={closeToggle}
      >
        <Stack spacing={2}>
          <Typography>
            {toggling?.active ? PLANT_TEXTS.deactivateText : PLANT_TEXTS.reactivateText}
          </Typography>
          {toggleError && <Alert severity="error">{toggleError}</Alert>}
        </Stack>
      </ConfirmDialog>
    </Stack>
  );
}
