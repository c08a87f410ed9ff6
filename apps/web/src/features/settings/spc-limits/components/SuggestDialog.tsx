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
import { fromPlantInput, toPlantInput } from "../../../../shared/plant-time";
import type { TSignalRow } from "../spc-limits.form";

/**
 * "Suggest control limits" (issue #14, beyond the spec): a signal and a period the user marks as
 * stable; the suggestion goes into the grid as unsaved changes. The period is entered on the
 * plant's wall clock (its time zone), as every time in the product is, not the browser's.
 */
export function SuggestDialog(p: {
  open: boolean;
  signals: TSignalRow[];
  /** The plant's IANA time zone: the inputs' wall clock. */
  timeZone: string;
  isPending: boolean;
  onSuggest: (signalId: string, from: string, to: string) => Promise<TSpcSuggestion[]>;
  onClose: () => void;
}) {
  const [signalId, setSignalId] = useState("");
  const [from, setFrom] = useState(() => toPlantInput(Date.now() - 86_400_000, p.timeZone)); // 24 h back
  const [to, setTo] = useState(() => toPlantInput(Date.now(), p.timeZone));
  const [message, setMessage] = useState<string | null>(null);
  const fromIso = fromPlantInput(from, p.timeZone);
  const toIso = fromPlantInput(to, p.timeZone);
  const isOrdered = fromIso !== null && toIso !== null && fromIso < toIso;

  const submit = async () => {
    setMessage(null);
    try {
      if (fromIso === null || toIso === null) return;
      const list = await p.onSuggest(signalId, fromIso, toIso);
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
            helperText={M.suggestTimeZone(p.timeZone)}
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
