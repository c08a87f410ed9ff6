import {
  ALERT_THRESHOLD_HELP,
  ALERT_THRESHOLD_LABELS,
  ALERT_THRESHOLDS,
  type TAlertThreshold,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { FormControl, FormLabel, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorFormCtx } from "../MonitorFormContext";

/** Alert threshold Low / Medium / High, Medium the default (spec §2). */
export function ThresholdControl() {
  const { readOnly } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const value = useWatch({ control, name: "alert_threshold" });
  return (
    <FormControl>
      <FormLabel id="alert-threshold-label" sx={{ fontSize: 12 }}>
        Alert threshold
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
          <Tooltip key={t} title={ALERT_THRESHOLD_HELP[t]}>
            <ToggleButton value={t} disabled={readOnly && value !== t} aria-label={ALERT_THRESHOLD_LABELS[t]}>
              {ALERT_THRESHOLD_LABELS[t]}
            </ToggleButton>
          </Tooltip>
        ))}
      </ToggleButtonGroup>
      <Typography id="alert-threshold-help" variant="caption" color="text.secondary" sx={{ maxWidth: 320 }}>
        {ALERT_THRESHOLD_HELP[value]}
      </Typography>
    </FormControl>
  );
}
