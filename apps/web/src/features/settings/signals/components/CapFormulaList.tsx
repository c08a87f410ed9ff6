import { SIGNAL_MANAGEMENT_TEXT as TEXT } from "@linewatch/contracts";
import { Box, List, ListItem, ListItemText, Typography } from "@mui/material";
import type { TCapFormulaLine } from "../signal-management.form";

/** What the confirmation dialogs show of the cap limit formulas a conversion touches (issue #15). */
export type TCapFormulasState = {
  lines: TCapFormulaLine[] | undefined;
  isLoading: boolean;
  isError: boolean;
};

/**
 * The cap limit formulas that use a signal being converted (signal, cell and model, the signals it
 * uses), while they load a line saying so; nothing when there are none.
 */
export function CapFormulaList({ state }: { state: TCapFormulasState }) {
  if (state.isLoading)
    return (
      <Typography variant="body2" color="text.secondary" role="status" sx={{ mt: 1 }}>
        {TEXT.capFormulasLoading}
      </Typography>
    );
  if (state.isError)
    return (
      <Typography variant="body2" color="warning.main" role="status" sx={{ mt: 1 }}>
        {TEXT.capFormulasFailed}
      </Typography>
    );
  if (!state.lines?.length) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2">{TEXT.capFormulas}</Typography>
      <List dense aria-label={TEXT.capFormulas}>
        {state.lines.map((l) => (
          <ListItem key={`${l.signal}|${l.cell}|${l.model}`}>
            <ListItemText
              primary={TEXT.capFormulaLine(l.signal, l.cell, l.model)}
              secondary={TEXT.capFormulaUses(l.uses.join(", "))}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
