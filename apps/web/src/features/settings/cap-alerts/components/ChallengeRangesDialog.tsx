import { CHALLENGE_RANGE_TEXTS as T, type TChallengeRange, type TMonitor } from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { draftError, draftOf, newDraft, rangesOf, type TRangeDraft } from "../challenge-ranges.form";

/**
 * A cap monitor's challenge ranges (requirements.md monitor-forms §2 "Cap monitors": "Challenge range modes:
 * time based, and part based when flagged (cap only)."): the stretches of records its window
 * leaves out. Times are the plant's wall clock; Part based is offered only with its flag on (a
 * stored part range stays editable). Mount it while open.
 */
export function ChallengeRangesDialog(p: {
  monitor: TMonitor;
  signal: string;
  timeZone: string;
  isPartBasedOn: boolean;
  isSaving: boolean;
  onSave: (ranges: TChallengeRange[]) => Promise<void>;
  onClose: () => void;
}) {
  const [drafts, setDrafts] = useState<TRangeDraft[]>(() =>
    (p.monitor.monitor_filter.challenge_ranges ?? []).map((r) => draftOf(r, p.timeZone)),
  );
  const errors = drafts.map((d) => draftError(d, p.timeZone));
  const change = (i: number, patch: Partial<TRangeDraft>) =>
    setDrafts((ds) => ds.map((d, k) => (k === i ? { ...d, ...patch } : d)));
  const canPart = p.isPartBasedOn || drafts.some((d) => d.mode === "PART");

  return (
    <Dialog open onClose={p.onClose} maxWidth="md" fullWidth>
      <DialogTitle>{T.title(p.signal)}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{T.spec}</DialogContentText>
        {drafts.length === 0 && <Typography color="text.secondary">{T.none}</Typography>}
        <Stack spacing={2}>
          {drafts.map((d, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: drafts have no identity but their place
            <Stack key={i} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
              <TextField
                select
                size="small"
                label={T.mode}
                value={d.mode}
                onChange={(e) => change(i, { mode: e.target.value as TRangeDraft["mode"] })}
                sx={{ minWidth: 140 }}
              >
                <MenuItem value="TIME">{T.TIME}</MenuItem>
                {canPart && <MenuItem value="PART">{T.PART}</MenuItem>}
              </TextField>
              {d.mode === "TIME" ? (
                <>
                  <TextField
                    type="datetime-local"
                    size="small"
                    label={T.from}
                    value={d.from}
                    onChange={(e) => change(i, { from: e.target.value })}
                    helperText={T.timeZone(p.timeZone)}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                  <TextField
                    type="datetime-local"
                    size="small"
                    label={T.to}
                    value={d.to}
                    onChange={(e) => change(i, { to: e.target.value })}
                    error={!!errors[i]}
                    helperText={errors[i] ?? " "}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                </>
              ) : (
                <>
                  <TextField
                    size="small"
                    label={T.fromPart}
                    value={d.fromPart}
                    onChange={(e) => change(i, { fromPart: e.target.value })}
                  />
                  <TextField
                    size="small"
                    label={T.toPart}
                    value={d.toPart}
                    onChange={(e) => change(i, { toPart: e.target.value })}
                    error={!!errors[i]}
                    helperText={errors[i] ?? " "}
                  />
                </>
              )}
              <IconButton
                aria-label={`${T.remove} ${i + 1}`}
                onClick={() => setDrafts((ds) => ds.filter((_, k) => k !== i))}
              >
                <DeleteIcon />
              </IconButton>
            </Stack>
          ))}
        </Stack>
        <Button
          startIcon={<AddIcon />}
          sx={{ mt: 2 }}
          onClick={() => setDrafts((ds) => [...ds, newDraft(Date.now(), p.timeZone)])}
        >
          {T.add}
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{T.cancel}</Button>
        <Button
          variant="contained"
          disabled={p.isSaving || errors.some((e) => e !== null)}
          onClick={() => void p.onSave(rangesOf(drafts, p.timeZone))}
        >
          {T.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
