import {
  CAPABILITY_ALL_MODELS,
  CAPABILITY_MESSAGES as M,
  type TCapCalibratedDetails,
} from "@linewatch/contracts";
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { fromPlantInput, toPlantInput } from "../../shared/plant-time";
import { useCapability } from "./api/queries";
import { fmt, PRESET_MS, ruleCountText, type TPreset } from "./capability.view";
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
  /** The period's start, when not 7 days before its end (the line overview's chosen period). */
  from?: string | null;
  /**
   * Opened from a CAP alert: the evaluation it fired on. The view opens on its records (the
   * evaluation set's period and, when they were one model number's, that model) and shows its
   * figures beside the view's, saying why its bound and the view's Ppk differ.
   */
  alertEvaluation?: TCapCalibratedDetails | null;
  onClose: () => void;
};

/** The alert's model number when its records were one model's; else every model. */
const alertModelOf = (d: TCapCalibratedDetails | null | undefined) =>
  d?.modelNumbers?.length === 1 && d.modelNumbers[0] != null ? d.modelNumbers[0] : CAPABILITY_ALL_MODELS;

/** What the alert judged, and why its figures and the view's differ. */
function AlertFigures({ d }: { d: TCapCalibratedDetails }) {
  return (
    <Alert severity={d.isCapabilityBreach || d.isControlBreach ? "warning" : "info"} sx={{ mt: 1 }}>
      <AlertTitle>{M.alertTitle}</AlertTitle>
      {M.alertFigures({
        n: d.n,
        ppk: fmt(d.ppk),
        bound: fmt(d.ppkUpperBound),
        level: fmt(d.capabilityAlpha ?? d.alpha),
        target: fmt(d.cpkTarget),
      })}
      {d.controlHitCount > 0 && ` ${M.alertControl(d.controlHitCount)}`}
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {M.alertWhy}
      </Typography>
      {!d.period && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {M.alertNoPeriod}
        </Typography>
      )}
    </Alert>
  );
}

/**
 * The capability view of a signal (issue #14): a period in the plant's time zone, its I-MR chart
 * with LCL/UCL/LSL/USL and the rule breaks, a histogram against the spec limits and Cp, Cpk, Pp,
 * Ppk per model number with 95 % intervals. Loaded as its own chunk (LazyCapabilityDialog).
 */
export function CapabilityDialog(p: CapabilityDialogProps) {
  const alertPeriod = p.alertEvaluation?.period ?? null;
  const [to, setTo] = useState(() =>
    toPlantInput(
      alertPeriod ? new Date(alertPeriod.to) : p.until ? new Date(p.until) : Date.now(),
      p.timeZone,
    ),
  );
  const [from, setFrom] = useState(() =>
    toPlantInput(
      alertPeriod
        ? new Date(alertPeriod.from)
        : p.from
          ? new Date(p.from)
          : (p.until ? Date.parse(p.until) : Date.now()) - PRESET_MS.week,
      p.timeZone,
    ),
  );
  // The alert's records to the millisecond (the inputs show minutes) until the period is changed.
  const [exact, setExact] = useState(alertPeriod);
  const [model, setModel] = useState(() => alertModelOf(p.alertEvaluation));
  const fromIso = exact?.from ?? fromPlantInput(from, p.timeZone);
  const toIso = exact?.to ?? fromPlantInput(to, p.timeZone);
  const isOrdered =
    fromIso !== null && toIso !== null && fromIso <= toIso && (exact != null || fromIso < toIso);
  const q = useCapability(
    p.lineId,
    p.signalId,
    isOrdered ? { from: fromIso, to: toIso } : null,
    model === CAPABILITY_ALL_MODELS ? null : model,
  );
  const v = q.data;

  const handlePreset = (preset: TPreset) => {
    const now = Date.now();
    setExact(null);
    setFrom(toPlantInput(now - PRESET_MS[preset], p.timeZone));
    setTo(toPlantInput(now, p.timeZone));
  };
  const all = v?.models[0];
  // Every model number the period showed, and the one chosen.
  const models = [
    ...new Set([
      ...(v?.models ?? [])
        .map((m) => m.modelNumber)
        .filter((m): m is string => m != null && m !== CAPABILITY_ALL_MODELS),
      ...(model === CAPABILITY_ALL_MODELS ? [] : [model]),
    ]),
  ];

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
            onChange={(e) => {
              setExact(null);
              setFrom(e.target.value);
            }}
            helperText={M.timeZone(p.timeZone)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            size="small"
            label={M.to}
            value={to}
            onChange={(e) => {
              setExact(null);
              setTo(e.target.value);
            }}
            error={!isOrdered}
            helperText={isOrdered ? " " : M.order}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            select
            size="small"
            label={M.model}
            value={model}
            onChange={(e) => setModel(e.target.value)}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value={CAPABILITY_ALL_MODELS}>{M.allModels}</MenuItem>
            {models.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          {(Object.keys(PRESET_MS) as TPreset[]).map((preset) => (
            <Button key={preset} size="small" onClick={() => handlePreset(preset)} sx={{ mt: 0.5 }}>
              {M.presets[preset]}
            </Button>
          ))}
        </Stack>
        {p.alertEvaluation && <AlertFigures d={p.alertEvaluation} />}
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
            <Stack direction={{ xs: "column", lg: "row" }} spacing={2}>
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
              {/* It scrolls sideways in a narrow window: focusable, so a keyboard scrolls it too. */}
              <Box
                component="section"
                aria-label={M.table}
                tabIndex={0}
                sx={{ flex: 1, minWidth: 0, overflowX: "auto" }}
              >
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
