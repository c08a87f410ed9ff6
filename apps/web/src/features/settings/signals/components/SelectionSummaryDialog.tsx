import { ENTITY_TYPE_LABELS, SIGNAL_MANAGEMENT_TEXT as TEXT, type TSignal } from "@linewatch/contracts";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  Switch,
} from "@mui/material";
import { useState } from "react";

/** 'See selection summary (N)' (requirements.md settings §2.8): the selected signals, by name or by friendly name. */
export function SelectionSummaryDialog(p: { open: boolean; signals: TSignal[]; onClose: () => void }) {
  const [useFriendly, setUseFriendly] = useState(true);
  return (
    <Dialog open={p.open} onClose={p.onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{TEXT.selectionSummaryTitle}</DialogTitle>
      <DialogContent>
        <FormControlLabel
          control={<Switch checked={useFriendly} onChange={(e) => setUseFriendly(e.target.checked)} />}
          label={TEXT.useFriendlyNames}
        />
        <List dense aria-label={TEXT.selectionSummaryTitle}>
          {p.signals.map((s) => (
            <ListItem key={s.id}>
              <ListItemText
                primary={useFriendly ? s.friendlyName?.trim() || s.name : s.name}
                secondary={`${s.stationName} · ${ENTITY_TYPE_LABELS[s.entityType]}`}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{TEXT.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
