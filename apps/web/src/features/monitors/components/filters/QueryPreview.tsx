import {
  ALERT_THRESHOLD_ALPHA,
  adjustmentLines,
  cycleText,
  evaluationSummary,
  levelSupportText,
  MONITOR_FORM_TEXTS,
  parseEvaluationDetails,
  type TMonitorFormValues,
  type TMonitorPreview,
} from "@linewatch/contracts";
import { Alert, Box, Button, Chip, CircularProgress, LinearProgress, Paper, Typography } from "@mui/material";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { formatDateTime } from "../../../../shared/format";
import { useMonitorPreview } from "../../api/queries";
import { useMonitorFormCtx } from "../MonitorFormContext";
import { PREVIEW_DEBOUNCE_MS, previewRequestOf } from "./filters.logic";
import { useDebouncedValue } from "./useDebounced";

const STATE_COLOR = {
  OK: "success",
  BREACH: "error",
  NO_DATA: "default",
  ERROR: "warning",
} as const;
const T = MONITOR_FORM_TEXTS.preview;

/**
 * What the filters select now and what the monitor would report (the query preview): the
 * training and evaluation record counts, the time they cover and the evaluation, refreshed
 * PREVIEW_DEBOUNCE_MS after the filters stop changing. The previous answer stays while the next
 * one loads.
 */
export function QueryPreview() {
  const ctx = useMonitorFormCtx();
  const { control } = useFormContext<TMonitorFormValues>();
  const values = useWatch({ control }) as TMonitorFormValues;
  const request = useDebouncedValue(previewRequestOf(values, { now: ctx.now() }), PREVIEW_DEBOUNCE_MS);
  const q = useMonitorPreview(request.body);
  const headingId = useId();

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      aria-busy={q.isFetching}
      sx={{ p: 2, display: "grid", gap: 1.5, alignContent: "start", position: "relative" }}
    >
      <Typography id={headingId} variant="subtitle1" component="h3">
        {T.title}
      </Typography>
      {request.blocked ? (
        <Typography color="text.secondary">{T.blocked[request.blocked]}</Typography>
      ) : q.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => q.refetch()}>
              {MONITOR_FORM_TEXTS.retry}
            </Button>
          }
        >
          {T.loadError(q.error instanceof Error ? q.error.message : String(q.error))}
        </Alert>
      ) : !q.data ? (
        <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
          <CircularProgress size={28} aria-label={T.loading} />
        </Box>
      ) : (
        <>
          {q.isFetching && <LinearProgress aria-label={T.updating} />}
          <PreviewBody
            preview={q.data}
            timeZone={ctx.plant.timeZone}
            type={values.monitor_type}
            sampleSize={request.body?.filter.sample_size ?? null}
            alpha={ALERT_THRESHOLD_ALPHA[values.alert_threshold]}
            signals={values.signal_uuids.length}
          />
        </>
      )}
    </Paper>
  );
}

function PreviewBody({
  preview: p,
  timeZone,
  type,
  sampleSize,
  alpha,
  signals,
}: {
  preview: TMonitorPreview;
  timeZone: string;
  type: "mvd" | "svd";
  /** The monitor's own window (the request's sample size), which the level support judges. */
  sampleSize: number | null;
  alpha: number;
  signals: number;
}) {
  const at = (iso: string | null) => (iso ? formatDateTime(iso, timeZone) : T.noTime);
  const e = p.evaluation;
  // What the threshold allows for in the chosen signals: their VIF and (SVD) their shape.
  const parsed = parseEvaluationDetails(type, e.details);
  const adjustments = parsed ? adjustmentLines(parsed) : [];
  return (
    <Box sx={{ display: "grid", gap: 1.5 }}>
      <Box
        component="dl"
        sx={{ m: 0, display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 0.5 }}
      >
        <Row term={T.trainingRecords} value={p.training_size} />
        <Row term={T.trainingFrom} value={at(p.training_from)} />
        <Row term={T.evaluationRecords} value={p.evaluation_size} />
        <Row term={T.evaluationFrom} value={at(p.evaluation_from)} />
        <Row term={T.window} value={p.window_size ? `${at(p.from)} – ${at(p.to)}` : T.noRecords} />
      </Box>
      <Box>
        <Typography variant="body2" color="text.secondary">
          {T.wouldReport}
        </Typography>
        <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap", mt: 0.5 }}>
          <Chip label={T.states[e.state]} color={STATE_COLOR[e.state]} size="small" />
          {evaluationSummary(type, e) && (
            <Typography variant="body2">{evaluationSummary(type, e)}</Typography>
          )}
        </Box>
        {e.reason && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {e.reason}
          </Typography>
        )}
      </Box>
      {p.level_support && sampleSize != null && (
        <LevelSupport
          support={p.level_support}
          sampleSize={sampleSize}
          alpha={alpha}
          signals={signals}
          method={type}
        />
      )}
      {adjustments.length > 0 && (
        <Box component="section" aria-label={T.adjustmentsLabel}>
          <Typography variant="body2" color="text.secondary">
            {T.adjustmentsIntro}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {adjustments.map((line) => (
              <Typography key={line} component="li" variant="body2">
                {line}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}

/**
 * Whether the monitor's window holds its alert threshold for the autocorrelation the previewed
 * records show (issue 29): what was measured, and a warning with the smallest window that holds
 * when it does not.
 */
function LevelSupport({
  support: s,
  sampleSize,
  alpha,
  signals,
  method,
}: {
  support: NonNullable<TMonitorPreview["level_support"]>;
  sampleSize: number;
  alpha: number;
  signals: number;
  method: "mvd" | "svd";
}) {
  return (
    <Box component="section" aria-label={T.levelSupportLabel} sx={{ display: "grid", gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {T.levelSupportMeasured(
          s.measured_records,
          s.vif,
          s.training_records,
          s.effective_sample_size,
          s.cycle != null,
        )}
      </Typography>
      {s.cycle && (
        <Typography variant="body2" color="text.secondary">
          {cycleText(s.cycle, "the previewed records")}
        </Typography>
      )}
      {!s.holds && (
        // A threshold at its floor alarms less often than its level: information, not a warning.
        <Alert severity={s.limited_by === "floor" ? "info" : "warning"}>
          {levelSupportText({
            records: sampleSize,
            alpha,
            minimumSampleSize: s.minimum_sample_size,
            signals,
            limitedBy: s.limited_by,
            cyclePeriod: s.cycle?.period,
            method,
          })}
        </Alert>
      )}
    </Box>
  );
}

function Row({ term, value }: { term: string; value: string | number }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {value}
      </Typography>
    </>
  );
}
