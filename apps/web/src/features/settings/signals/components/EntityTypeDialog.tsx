import {
  ENTITY_TYPE_LABELS,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TSignalEntityType,
} from "@linewatch/contracts";
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from "@mui/material";
import { BusyOverlay } from "../../../../shared/ui/settings/BusyOverlay";
import { signalLabel } from "../../../signals/signal-tree";
import type { entityChangeSummary } from "../signal-management.form";
import { CapFormulaList, type TCapFormulasState } from "./CapFormulaList";

/**
 * The entity type summary (requirements.md settings §4 "Entity type change"): the signals to convert and the
 * associations that will be dissociated; 'Change Entity Type' saves, showing 'Saving...'. It also
 * names the cap limits the change touches: the converted measurements' own (no longer used) and
 * the other measurements' formulas that use a converted signal (confirm waits for them to load).
 */
export function EntityTypeDialog(p: {
  open: boolean;
  type: TSignalEntityType | null;
  summary: ReturnType<typeof entityChangeSummary> | null;
  capFormulas: TCapFormulasState;
  isSaving: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const type = p.type ? ENTITY_TYPE_LABELS[p.type] : "";
  return (
    <Dialog open={p.open} onClose={p.isSaving ? undefined : p.onCancel} maxWidth="sm" fullWidth>
      <DialogTitle>{TEXT.entityDialogTitle}</DialogTitle>
      <DialogContent sx={{ position: "relative" }}>
        <Typography variant="subtitle2">{TEXT.entityDialogConvert(type)}</Typography>
        <List dense aria-label={TEXT.entityDialogConvert(type)}>
          {p.summary?.converted.map((s) => (
            <ListItem key={s.id}>
              <ListItemText
                primary={signalLabel(s)}
                secondary={`${s.stationName} · ${ENTITY_TYPE_LABELS[s.entityType]} → ${type}`}
              />
            </ListItem>
          ))}
        </List>
        <Box sx={{ mt: 1 }}>
          {p.summary && p.summary.dissociations.length > 0 ? (
            <>
              <Typography variant="subtitle2">{TEXT.entityDialogDissociate}</Typography>
              <List dense aria-label={TEXT.entityDialogDissociate}>
                {p.summary.dissociations.map((d) => (
                  <ListItem key={`${d.measurement}|${d.role}|${d.signal}`}>
                    <ListItemText primary={`${d.measurement} — ${d.role}: ${d.signal}`} />
                  </ListItem>
                ))}
              </List>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {TEXT.entityDialogNoDissociations}
            </Typography>
          )}
        </Box>
        {p.summary && p.summary.capLimits.length > 0 ? (
          <Box sx={{ mt: 1 }}>
            <Typography variant="subtitle2">{TEXT.entityDialogCapLimits}</Typography>
            <List dense aria-label={TEXT.entityDialogCapLimits}>
              {p.summary.capLimits.map((s) => (
                <ListItem key={s.id}>
                  <ListItemText primary={signalLabel(s)} secondary={s.stationName} />
                </ListItem>
              ))}
            </List>
          </Box>
        ) : null}
        <CapFormulaList state={p.capFormulas} />
        <BusyOverlay open={p.isSaving} />
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onCancel} disabled={p.isSaving}>
          {TEXT.cancel}
        </Button>
        <Button variant="contained" onClick={p.onConfirm} disabled={p.isSaving || p.capFormulas.isLoading}>
          {p.isSaving ? TEXT.saving : TEXT.changeEntityType}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
