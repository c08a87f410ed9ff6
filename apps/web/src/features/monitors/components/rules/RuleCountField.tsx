import { parseRuleInput, type TMonitorFormValues } from "@linewatch/contracts";
import { TextField } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";
import { formatMinutes } from "./ruleTexts";

export type TRuleCountPath =
  | "rules.consecutiveBreaches"
  | "rules.runs"
  | "rules.breachesForRuns"
  | "rules.breachesForTime"
  | "rules.seconds";

/**
 * A rule's whole-number input (spec §2 "Alert Rules tab"): digits only, anything else is dropped;
 * empty is null. With `inMinutes` the value is stored in seconds and shown in minutes (× 60).
 * Its error shows only while the rule is switched on (spec §5: enforced only for enabled rules).
 */
export function RuleCountField(p: {
  name: TRuleCountPath;
  label: string;
  isRuleEnabled: boolean;
  inMinutes?: boolean;
}) {
  const { readOnly } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const value = useWatch({ control, name: p.name });
  const fieldError = useFieldError(p.name);
  const error = p.isRuleEnabled ? fieldError : undefined;
  const scale = p.inMinutes ? 60 : 1;
  const text = value == null ? "" : p.inMinutes ? formatMinutes(value) : String(value);

  return (
    <TextField
      label={p.label}
      size="small"
      value={text}
      disabled={!p.isRuleEnabled}
      error={!!error}
      helperText={error ?? " "}
      onChange={(e) => {
        if (readOnly) return;
        const n = parseRuleInput(e.target.value);
        setValue(p.name, n == null ? null : n * scale, { shouldDirty: true });
      }}
      slotProps={{ htmlInput: { readOnly, inputMode: "numeric", pattern: "[0-9]*" } }}
      sx={{ width: 190 }}
    />
  );
}
