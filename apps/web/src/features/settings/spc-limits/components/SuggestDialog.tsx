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
  Typography,
} from "@mui/material";
import { useState } from "react";
import { fromPlantInput, toPlantInput } from "../../../../shared/plant-time";
import type { TSignalRow } from "../spc-limits.form";

/**
 * "Suggest control limits" (issue #14, beyond the spec): a signal and a period the user marks as
 * stable. The suggestion is shown first — per model number its limits, where σ came from (the
 * moving range, or the overall σ when neighbouring parts are alike: issue 29) and the share of
 * in-control points expected beyond them — and goes into the grid as unsaved changes when the
 * user takes it. The period is entered on the plant's wall clock (its time zone), as every time
 * in the product is, not the browser's.
 */
export function SuggestDialog(p: {
  open: boolean;
  signals: TSignalRow[];
  /** The plant's IANA time zone: the inputs' wall clock. */
  timeZone: string;
  isPending: boolean;
  onSuggest: (signalId: string, from: string, to: string) => Promise<TSpcSuggestion[]>;
  /** Puts the suggestion into the grid (unsaved). */
  onUse: (signalId: string, list: TSpcSuggestion[]) => void;
  onClose: () => void;
}) {
  const [signalId, setSignalId] = useState("");
  const [from, setFrom] = useState(() => toPlantInput(Date.now() - 86_400_000, p.timeZone)); // 24 h back
  const [to, setTo] = useState(() => toPlantInput(Date.now(), p.timeZone));
  const [message, setMessage] = useState<string | null>(null);
  const [result, setResult] = useState<{ signalId: string; list: TSpcSuggestion[] } | null>(null);
  const fromIso = fromPlantInput(from, p.timeZone);
  const toIso = fromPlantInput(to, p.timeZone);
  const isOrdered = fromIso !== null && toIso !== null && fromIso < toIso;

  const submit = async () => {
    setMessage(null);
    try {
      if (fromIso === null || toIso === null) return;
      const list = await p.onSuggest(signalId, fromIso, toIso);
      if (list.length === 0) setMessage(M.suggestNone);
      else setResult({ signalId, list });
    } catch (err) {
      setMessage(err instanceof Error ? err.message : String(err));
    }
  };
  const use = () => {
    if (!result) return;
    p.onUse(result.signalId, result.list);
    p.onClose();
  };

  return (
    <Dialog open={p.open} onClose={p.onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{M.suggest}</DialogTitle>
      <DialogContent>
        {result ? (
          <SuggestionList list={result.list} />
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <DialogContentText>{M.suggestText}</DialogContentText>
            <DialogContentText variant="body2">{M.suggestAutocorrelationNote}</DialogContentText>
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
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{M.cancel}</Button>
        {result ? (
          <>
            <Button onClick={() => setResult(null)}>{M.suggestBack}</Button>
            <Button variant="contained" onClick={use}>
              {M.suggestUse}
            </Button>
          </>
        ) : (
          <Button variant="contained" disabled={!signalId || !isOrdered || p.isPending} onClick={submit}>
            {M.suggestApply}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** Per model number: the limits, where σ came from and the expected false-alarm rate. */
function SuggestionList({ list }: { list: TSpcSuggestion[] }) {
  return (
    <Stack
      spacing={1.5}
      sx={{ pt: 1 }}
      component="ul"
      aria-label={M.suggestResults}
      style={{ paddingLeft: 0 }}
    >
      {list.map((s) => (
        <Stack key={s.model_number} component="li" spacing={0.5} sx={{ listStyle: "none" }}>
          <Typography variant="subtitle2">{M.suggestModel(s.model_number, s.n)}</Typography>
          <Typography variant="body2">{M.suggestLimits(s.lcl, s.ucl)}</Typography>
          {s.isAutocorrelated ? (
            <Alert severity="info">
              {M.suggestAutocorrelated(s.lag1Autocorrelation, s.movingRange.expectedFalseAlarmRate)}
            </Alert>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {M.suggestIndependent(s.lag1Autocorrelation)}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            {M.suggestRate(s.expectedFalseAlarmRate)}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
