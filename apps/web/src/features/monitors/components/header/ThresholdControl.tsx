import { ALERT_THRESHOLDS, type TAlertThreshold, type TMonitorFormValues } from "@linewatch/contracts";
import { FormControl, FormLabel, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorFormCtx } from "../MonitorFormContext";

const LABELS: Record<TAlertThreshold, string> = { low: "Low", medium: "Medium", high: "High" };

/** What each level means (design/monitoring.md "Sensitivity"). */
export const THRESHOLD_HELP: Record<TAlertThreshold, string> = {
  low: "Alerts most easily: about 1 in 20 evaluations of a stable process breaches (α 0.05).",
  medium: "Balanced (default): about 1 in 100 evaluations of a stable process breaches (α 0.01).",
  high: "Alerts least easily: about 1 in 1,000 evaluations of a stable process breaches (α 0.001).",
};

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
      <Typography variant="caption" color="text.secondary" sx={{ maxWidth: 320 }}>
        {THRESHOLD_HELP[value]}
      </Typography>
    </FormControl>
  );
}
