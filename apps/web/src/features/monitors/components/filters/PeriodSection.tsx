import {
  clampEvaluationRatio,
  correctMonitorQuery,
  isMonitorCompatible,
  MONITOR_FORM_TEXTS,
  MONITOR_FORM_TIMINGS,
  PERIOD_MODES,
  QUERY_MESSAGES,
  recordCountOf,
  type TMonitorFormValues,
  type TMonitorQuery,
  type TPeriodMode,
} from "@linewatch/contracts";
import { Alert, Box, MenuItem, TextField, Typography } from "@mui/material";
import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { formatDateTime } from "../../../../shared/format";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";
import { minutesOfMs, msOfMinutes } from "./filters.logic";
import { PlantDateTimePicker } from "./PlantDateTimePicker";
import { WholeNumberInput } from "./WholeNumberInput";

type Side = "start" | "end";
const P = MONITOR_FORM_TEXTS.period;

/**
 * Period (requirements.md monitor-forms §2 "Data Filters tab", §4 "Query correction", §5 "Period"): Start and End, each a
 * mode and its input. Every change goes through correctMonitorQuery, so mode defaults, the other
 * side falling back to Time, clamping and derived times are the contract's, not this screen's.
 */
export function PeriodSection() {
  const ctx = useMonitorFormCtx();
  const { control, getValues, setValue } = useFormContext<TMonitorFormValues>();
  const query = useWatch({ control, name: "query" });
  const type = useWatch({ control, name: "monitor_type" });
  const headingId = useId();

  const handleChange = (next: TMonitorQuery) => {
    const prev = getValues("query");
    const q = correctMonitorQuery(prev, next, { now: ctx.now(), maxRecordCount: ctx.maxRecordCount });
    setValue("query", q, { shouldDirty: true });
    // The split's bounds follow the record count (requirements.md monitor-forms §4 "values are clamped into bounds"); the
    // user's chosen split is kept, so it comes back when the bounds allow it again.
    if (recordCountOf(q) !== recordCountOf(prev)) {
      const ratio = getValues("evaluation_ratio");
      const chosen = getValues("chosen_evaluation_ratio") ?? ratio;
      const clamped = clampEvaluationRatio(chosen, recordCountOf(q));
      setValue("chosen_evaluation_ratio", chosen);
      if (clamped !== ratio) setValue("evaluation_ratio", clamped, { shouldDirty: true });
    }
  };

  const compatible = isMonitorCompatible(query);
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <Box component="section" aria-labelledby={headingId} sx={{ display: "grid", gap: 2 }}>
        <Box>
          <Typography id={headingId} variant="subtitle1" component="h3">
            {P.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {P.timeZone(ctx.plant.timeZone)}
          </Typography>
        </Box>
        <PeriodSide side="start" query={query} onChange={handleChange} />
        <PeriodSide side="end" query={query} onChange={handleChange} />
        {type === "mvd" && (
          <Alert role="status" severity={compatible ? "success" : "warning"} variant="outlined">
            {compatible ? QUERY_MESSAGES.compatible : QUERY_MESSAGES.incompatible}
          </Alert>
        )}
      </Box>
    </LocalizationProvider>
  );
}

function PeriodSide(p: { side: Side; query: TMonitorQuery; onChange: (next: TMonitorQuery) => void }) {
  const ctx = useMonitorFormCtx();
  const { side, query } = p;
  const label = P.side[side];
  const mode = query[`${side}_mode`];
  const modeError = useFieldError(`query.${side}_mode`);
  const timeError = useFieldError(`query.${side}_time`);
  const recordsError = useFieldError(`query.${side}_records`);
  const durationError = useFieldError(`query.${side}_duration`);
  const time = query[`${side}_time`];
  const derivedTime =
    time != null && Number.isFinite(time) ? formatDateTime(new Date(time), ctx.plant.timeZone) : null;

  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "150px 1fr" }, gap: 1.5 }}>
      <TextField
        select
        label={label}
        size="small"
        value={mode}
        onChange={(e) => p.onChange({ ...query, [`${side}_mode`]: e.target.value as TPeriodMode })}
        error={!!modeError}
        helperText={modeError}
        slotProps={{ input: { readOnly: ctx.readOnly } }}
      >
        {PERIOD_MODES.map((m) => (
          <MenuItem key={m} value={m}>
            {m}
          </MenuItem>
        ))}
      </TextField>
      {mode === "Time" && (
        <PlantDateTimePicker
          label={P.time(label)}
          value={time}
          onChange={(ms) => p.onChange({ ...query, [`${side}_time`]: ms })}
          timeZone={ctx.plant.timeZone}
          now={ctx.now()}
          readOnly={ctx.readOnly}
          error={timeError}
        />
      )}
      {mode === "Duration" && (
        <WholeNumberInput
          label={P.duration(label)}
          value={minutesOfMs(query[`${side}_duration`])}
          onCommit={(minutes) => p.onChange({ ...query, [`${side}_duration`]: msOfMinutes(minutes) })}
          delayMs={MONITOR_FORM_TIMINGS.periodInputMs}
          readOnly={ctx.readOnly}
          error={durationError ?? timeError}
          helperText={derivedTime ? (side === "start" ? P.from : P.until)(derivedTime) : undefined}
        />
      )}
      {mode === "Records" && (
        <WholeNumberInput
          label={P.records(label)}
          value={query[`${side}_records`]}
          onCommit={(n) => p.onChange({ ...query, [`${side}_records`]: n })}
          delayMs={MONITOR_FORM_TIMINGS.periodInputMs}
          readOnly={ctx.readOnly}
          error={recordsError ?? timeError}
        />
      )}
    </Box>
  );
}
