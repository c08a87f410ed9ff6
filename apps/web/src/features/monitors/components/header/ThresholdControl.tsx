import {
  ALERT_THRESHOLDS,
  MONITOR_FORM_TEXTS,
  type TAlertThreshold,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { FormControl, FormLabel, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorFormCtx } from "../MonitorFormContext";

const { levels: LABELS, help: THRESHOLD_HELP } = MONITOR_FORM_TEXTS.threshold;

/** Alert threshold Low / Medium / High, Medium the default (requirements.md monitor-forms §2). */
export function ThresholdControl() {
  const { readOnly } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const value = useWatch({ control, name: "alert_threshold" });
  return (
    <FormControl>
      <FormLabel id="alert-threshold-label" sx={{ fontSize: 12 }}>
        {MONITOR_FORM_TEXTS.threshold.label}
      </FormLabel>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={value}
        aria-labelledby="alert-threshold-label"
        aria-describedby="alert-threshold-help"
        onChange={(_, v: TAlertThreshold | null) =>
          v && !readOnly && setValue("alert_threshold", v, { shouldDirty: true })
        }
      >
        {ALERT_THRESHOLDS.map((t) => (
          <Tooltip key={t} title={THRESHOLD_HELP[t]}>
            <ToggleButton value={t} disabled={readOnly && value !== t} aria-label={LABELS[t]}>
              {LABELS[t]}
            </ToggleButton>
          </Tooltip>
        ))}
      </ToggleButtonGroup>
      <Typography id="alert-threshold-help" variant="caption" color="text.secondary" sx={{ maxWidth: 320 }}>
        {THRESHOLD_HELP[value]}
      </Typography>
    </FormControl>
  );
}
