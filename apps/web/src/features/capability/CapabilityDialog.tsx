import { CAPABILITY_MESSAGES as M } from "@linewatch/contracts";
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { fromPlantInput, toPlantInput } from "../../shared/plant-time";
import { useCapability } from "./api/queries";
import { PRESET_MS, ruleCountText, type TPreset } from "./capability.view";
import { CapabilityHistogram } from "./components/CapabilityHistogram";
import { CapabilityTable } from "./components/CapabilityTable";
import { IndividualsChart } from "./components/IndividualsChart";
import { MovingRangeChart } from "./components/MovingRangeChart";

export type CapabilityDialogProps = {
  lineId: string;
  signalId: string;
  signalName: string;
  /** The plant's IANA time zone: the period's wall clock and every time shown. */
  timeZone: string;
  /** The period's end (an alert's time); now by default. The period starts 7 days before it. */
  until?: string | null;
  onClose: () => void;
};

/**
 * The capability view of a signal (issue #14): a period in the plant's time zone, its I-MR chart
 * with LCL/UCL/LSL/USL and the rule breaks, a histogram against the spec limits and Cp, Cpk, Pp,
 * Ppk per model number with 95 % intervals. Loaded as its own chunk (LazyCapabilityDialog).
 */
export function CapabilityDialog(p: CapabilityDialogProps) {
  const [to, setTo] = useState(() => toPlantInput(p.until ? new Date(p.until) : Date.now(), p.timeZone));
  const [from, setFrom] = useState(() =>
    toPlantInput((p.until ? Date.parse(p.until) : Date.now()) - PRESET_MS.week, p.timeZone),
  );
  const fromIso = fromPlantInput(from, p.timeZone);
  const toIso = fromPlantInput(to, p.timeZone);
  const isOrdered = fromIso !== null && toIso !== null && fromIso < toIso;
  const q = useCapability(p.lineId, p.signalId, isOrdered ? { from: fromIso, to: toIso } : null);
  const v = q.data;

  const handlePreset = (preset: TPreset) => {
    const now = Date.now();
    setFrom(toPlantInput(now - PRESET_MS[preset], p.timeZone));
    setTo(toPlantInput(now, p.timeZone));
  };
  const all = v?.models[0];

  return (
    <Dialog open onClose={p.onClose} maxWidth="lg" fullWidth aria-labelledby="capability-title">
      <DialogTitle id="capability-title">{M.title(p.signalName)}</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={2} sx={{ pt: 1, alignItems: "flex-start", flexWrap: "wrap" }}>
          <TextField
            type="datetime-local"
            size="small"
            label={M.from}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            helperText={M.timeZone(p.timeZone)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            size="small"
            label={M.to}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={!isOrdered}
            helperText={isOrdered ? " " : M.order}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          {(Object.keys(PRESET_MS) as TPreset[]).map((preset) => (
            <Button key={preset} size="small" onClick={() => handlePreset(preset)} sx={{ mt: 0.5 }}>
              {M.presets[preset]}
            </Button>
          ))}
        </Stack>
        <Box sx={{ minHeight: 4 }}>{q.isFetching && v && <LinearProgress />}</Box>
        {q.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => q.refetch()}>
                {M.retry}
              </Button>
            }
          >
            {M.loadError(q.error instanceof Error ? q.error.message : String(q.error))}
          </Alert>
        ) : !v ? (
          isOrdered && (
            <Box sx={{ display: "flex", justifyContent: "center", p: 4 }}>
              <CircularProgress aria-label={M.loading} />
            </Box>
          )
        ) : v.recordCount === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {M.empty}
          </Typography>
        ) : (
          <Stack spacing={2}>
            {(v.isTruncated || v.isDecimated) && (
              <Alert severity="info">
                {[
                  v.isTruncated && M.truncated(v.recordCount),
                  v.isDecimated && M.decimated(v.points.length, v.recordCount),
                ]
                  .filter(Boolean)
                  .join(" ")}
              </Alert>
            )}
            <section aria-label={M.individuals}>
              <Typography variant="subtitle2">{M.individuals}</Typography>
              <IndividualsChart
                points={v.points}
                mean={v.mean}
                signal={v.signal.name}
                timeZone={p.timeZone}
              />
              <Typography variant="caption" color="text.secondary">
                {M.ruleCounts(ruleCountText(v.ruleCounts))}
              </Typography>
            </section>
            <section aria-label={M.movingRange}>
              <Typography variant="subtitle2">{M.movingRange}</Typography>
              <MovingRangeChart points={v.points} mrBar={v.mrBar} mrUcl={v.mrUcl} timeZone={p.timeZone} />
            </section>
            <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
              {v.histogram && (
                <Box component="section" aria-label={M.histogram} sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="subtitle2">{M.histogram}</Typography>
                  <CapabilityHistogram
                    histogram={v.histogram}
                    lsl={all?.lsl ?? null}
                    usl={all?.usl ?? null}
                    signal={v.signal.name}
                  />
                </Box>
              )}
              <Box component="section" aria-label={M.table} sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="subtitle2">{M.table}</Typography>
                <CapabilityTable models={v.models} />
              </Box>
            </Stack>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{M.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
