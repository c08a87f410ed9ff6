import { SPC_LIMITS_MESSAGES as M, type TSpcSuggestion } from "@linewatch/contracts";
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from "@mui/material";
import { useState } from "react";
import type { TSignalRow } from "../spc-limits.form";

/** `yyyy-MM-ddTHH:mm` of a date in the browser's time, for a datetime-local input. */
const localInput = (d: Date) => {
  const z = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return z.toISOString().slice(0, 16);
};

/**
 * "Suggest control limits" (issue #14, beyond the spec): a signal and a period the user marks as
 * stable; the suggestion goes into the grid as unsaved changes.
 */
export function SuggestDialog(p: {
  open: boolean;
  signals: TSignalRow[];
  isPending: boolean;
  onSuggest: (signalId: string, from: string, to: string) => Promise<TSpcSuggestion[]>;
  onClose: () => void;
}) {
  const [signalId, setSignalId] = useState("");
  const [from, setFrom] = useState(() => localInput(new Date(Date.now() - 86_400_000)));
  const [to, setTo] = useState(() => localInput(new Date()));
  const [message, setMessage] = useState<string | null>(null);
  const isOrdered = from !== "" && to !== "" && new Date(from) < new Date(to);

  const submit = async () => {
    setMessage(null);
    try {
      const list = await p.onSuggest(signalId, new Date(from).toISOString(), new Date(to).toISOString());
      if (list.length === 0) setMessage(M.suggestNone);
      else p.onClose();
    } catch (err) {
      setMessage(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <Dialog open={p.open} onClose={p.onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{M.suggest}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{M.suggestText}</DialogContentText>
          <TextField
            select
            label={M.suggestSignal}
            value={signalId}
            onChange={(e) => setSignalId(e.target.value)}
          >
            {p.signals.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {`${s.station} · ${s.signal}`}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="datetime-local"
            label={M.suggestFrom}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            label={M.suggestTo}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={!isOrdered}
            helperText={isOrdered ? undefined : M.suggestOrder}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          {message && <Alert severity="warning">{message}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{M.cancel}</Button>
        <Button variant="contained" disabled={!signalId || !isOrdered || p.isPending} onClick={submit}>
          {M.suggestApply}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
