import { SPC_LIMITS_MESSAGES as M } from "@linewatch/contracts";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from "@mui/material";

/** 'Add Model Number' for a signal: the line's model numbers it has no limits for yet. */
export function AddModelDialog(p: {
  open: boolean;
  models: readonly string[];
  value: string;
  onChange: (model: string) => void;
  onAdd: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={p.open} onClose={p.onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{M.addModelTitle}</DialogTitle>
      <DialogContent>
        <TextField
          select
          fullWidth
          margin="dense"
          label={M.modelNumber}
          value={p.value}
          onChange={(e) => p.onChange(e.target.value)}
        >
          {p.models.map((v) => (
            <MenuItem key={v} value={v}>
              {v}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{M.cancel}</Button>
        <Button variant="contained" disabled={!p.value} onClick={p.onAdd}>
          {M.add}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
