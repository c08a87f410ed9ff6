import { PLANT_TEXTS, type TPlant } from "@linewatch/contracts";
import { Button, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";

/** The customer's plants: name, time zone, active, and each row's actions. */
export function PlantsTable(p: {
  plants: readonly TPlant[];
  onEdit: (plant: TPlant) => void;
  onToggleActive: (plant: TPlant) => void;
}) {
  return (
    <Table size="small" aria-label={PLANT_TEXTS.title}>
      <TableHead>
        <TableRow>
          <TableCell>{PLANT_TEXTS.name}</TableCell>
          <TableCell>{PLANT_TEXTS.timeZone}</TableCell>
          <TableCell>{PLANT_TEXTS.active}</TableCell>
          <TableCell align="right">{PLANT_TEXTS.actions}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {p.plants.map((plant) => (
          <TableRow key={plant.id} hover>
            <TableCell component="th" scope="row">
              {plant.name}
            </TableCell>
            <TableCell>{plant.timeZone}</TableCell>
            <TableCell>
              <Chip
                size="small"
                label={plant.active ? PLANT_TEXTS.yes : PLANT_TEXTS.no}
                color={plant.active ? "success" : "default"}
                variant={plant.active ? "filled" : "outlined"}
              />
            </TableCell>
            <TableCell align="right">
              <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
                <Button
                  size="small"
                  onClick={() => p.onEdit(plant)}
                  aria-label={`${PLANT_TEXTS.edit} ${plant.name}`}
                >
                  {PLANT_TEXTS.edit}
                </Button>
                <Button
                  size="small"
                  color={plant.active ? "error" : "primary"}
                  onClick={() => p.onToggleActive(plant)}
                  aria-label={`${plant.active ? PLANT_TEXTS.deactivate : PLANT_TEXTS.reactivate} ${plant.name}`}
                >
                  {plant.active ? PLANT_TEXTS.deactivate : PLANT_TEXTS.reactivate}
                </Button>
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
