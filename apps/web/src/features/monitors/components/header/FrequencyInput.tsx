import {
  clampFrequency,
  MONITOR_BOUNDS,
  MONITOR_FORM_TIMINGS,
  MONITOR_FORM_TEXTS as T,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { InputAdornment, TextField } from "@mui/material";
import { useEffect, useRef, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";

/**
 * Frequency in minutes (requirements.md monitor-forms §4 "Frequency input"): typing sets the value at once; after 900 ms
 * idle it is clamped to the bounds; on blur it is clamped at once; unreadable becomes the minimum.
 */
export function FrequencyInput() {
  const { readOnly } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const frequency = useWatch({ control, name: "frequency" });
  const error = useFieldError("frequency");
  const [text, setText] = useState(String(frequency));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Follow outside changes (form reset, clamping).
  useEffect(() => {
    setText((t) => (Number(t) === frequency ? t : String(frequency)));
  }, [frequency]);
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);

  const commitClamped = (raw: string) => {
    const v = clampFrequency(raw);
    setText(String(v));
    setValue("frequency", v, { shouldDirty: true });
  };

  return (
    <TextField
      label={T.frequency.label}
      size="small"
      value={text}
      error={!!error}
      helperText={error ?? T.frequency.range(MONITOR_BOUNDS.minFrequency, MONITOR_BOUNDS.maxFrequency)}
      onChange={(e) => {
        const raw = e.target.value;
        setText(raw);
        const n = Number(raw);
        if (raw.trim() !== "" && Number.isFinite(n)) setValue("frequency", n, { shouldDirty: true });
        clearTimeout(timer.current ?? undefined);
        timer.current = setTimeout(() => commitClamped(raw), MONITOR_FORM_TIMINGS.frequencyClampMs);
      }}
      onBlur={() => {
        clearTimeout(timer.current ?? undefined);
        if (!readOnly) commitClamped(text);
      }}
      slotProps={{
        htmlInput: { readOnly, inputMode: "numeric", "aria-label": T.frequency.inputLabel },
        input: { endAdornment: <InputAdornment position="end">{T.frequency.unit}</InputAdornment> },
      }}
      sx={{ width: 170 }}
    />
  );
}
