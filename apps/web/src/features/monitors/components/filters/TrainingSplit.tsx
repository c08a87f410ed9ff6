import {
  clampEvaluationRatio,
  MONITOR_FORM_TIMINGS,
  parseSplitPercentage,
  QUERY_BOUNDS,
  recordCountOf,
  splitPercentages,
  MONITOR_FORM_TEXTS as T,
  type TMonitorFormValues,
  trainingSplitBounds,
} from "@linewatch/contracts";
import ErrorOutlineIcon from "@mui/icons-material/ErrorOutlined";
import { Box, Button, InputAdornment, Slider, TextField, Tooltip, Typography } from "@mui/material";
import { useId, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";
import { useDebouncedCallback } from "./useDebounced";

const S = T.trainingSplit;

/**
 * Training split (requirements.md monitor-forms §2, §5 "Training split", §9): the share of the window used for evaluation.
 * A slider (0–100 in steps of 5, committed 400 ms after it stops), a percentage input (committed
 * 900 ms after typing stops; text that is not a number shows an alert icon and is not committed)
 * and a Default button. Every commit is clamped into Min–Max for the period's record count.
 */
export function TrainingSplit() {
  const ctx = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const ratio = useWatch({ control, name: "evaluation_ratio" });
  const query = useWatch({ control, name: "query" });
  const error = useFieldError("evaluation_ratio");
  const headingId = useId();
  const recordCount = recordCountOf(query);
  const bounds = trainingSplitBounds(recordCount);

  // While the slider moves or text is typed, these hold what the user sees; null: the form's value.
  const [sliderDraft, setSliderDraft] = useState<number | null>(null);
  const [textDraft, setTextDraft] = useState<string | null>(null);

  // What the user commits here becomes their chosen split (clamped: they cannot choose past the bounds).
  const commitRatio = (next: number) => {
    const clamped = clampEvaluationRatio(next, recordCount);
    setValue("chosen_evaluation_ratio", clamped);
    setValue("evaluation_ratio", clamped, { shouldDirty: true });
  };

  const sliderCommit = useDebouncedCallback((percent: number) => {
    commitRatio(percent / 100);
    setSliderDraft(null);
  }, MONITOR_FORM_TIMINGS.trainingSplitSliderMs);
  const textCommit = useDebouncedCallback((next: number) => {
    commitRatio(next);
    setTextDraft(null);
  }, MONITOR_FORM_TIMINGS.trainingSplitInputMs);

  const shown = splitPercentages(sliderDraft != null ? sliderDraft / 100 : ratio);
  const isTextInvalid = textDraft != null && parseSplitPercentage(textDraft) === null;

  const handleText = (text: string) => {
    setTextDraft(text);
    const next = parseSplitPercentage(text);
    if (next === null) textCommit.cancel();
    else textCommit.schedule(next);
  };

  const handleDefault = () => {
    sliderCommit.cancel();
    textCommit.cancel();
    setSliderDraft(null);
    setTextDraft(null);
    commitRatio(QUERY_BOUNDS.defaultTrainingSplit);
  };

  const pct = (r: number) => `${splitPercentages(r).evaluation}%`;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ display: "grid", gap: 1 }}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {S.title}
      </Typography>
      <Box sx={{ display: "flex", justifyContent: "space-between" }} aria-live="polite">
        <Typography variant="body2">{S.sample(shown.sample)}</Typography>
        <Typography variant="body2">{S.evaluation(shown.evaluation)}</Typography>
      </Box>
      <Slider
        aria-label={S.sliderLabel}
        value={sliderDraft ?? Math.round(ratio * 100)}
        min={0}
        max={100}
        step={5}
        valueLabelDisplay="auto"
        disabled={ctx.readOnly}
        onChange={(_e, v) => {
          const percent = Array.isArray(v) ? (v[0] ?? 0) : v;
          setSliderDraft(percent);
          sliderCommit.schedule(percent);
        }}
      />
      <Box sx={{ display: "flex", justifyContent: "space-between" }}>
        <Typography variant="caption" color="text.secondary">
          {S.min(pct(bounds.min))}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {S.max(pct(bounds.max))}
        </Typography>
      </Box>
      <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
        <TextField
          label={S.inputLabel}
          size="small"
          value={textDraft ?? String(shown.evaluation)}
          onChange={(e) => handleText(e.target.value)}
          onBlur={textCommit.flush}
          error={!!error}
          helperText={error}
          sx={{ width: 160 }}
          slotProps={{
            input: {
              readOnly: ctx.readOnly,
              endAdornment: isTextInvalid ? (
                <InputAdornment position="end">
                  <Tooltip title={S.notANumber}>
                    <ErrorOutlineIcon color="error" fontSize="small" titleAccess={S.notANumber} />
                  </Tooltip>
                </InputAdornment>
              ) : undefined,
            },
            htmlInput: { inputMode: "decimal", "aria-invalid": isTextInvalid || !!error },
          }}
        />
        <Button variant="outlined" onClick={handleDefault} disabled={ctx.readOnly}>
          {S.default}
        </Button>
      </Box>
    </Box>
  );
}
