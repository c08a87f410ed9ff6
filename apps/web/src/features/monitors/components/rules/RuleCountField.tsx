import { formatMinutes, parseRuleInput } from "@linewatch/contracts";
import { TextField } from "@mui/material";

/**
 * A rule's whole-number input (requirements.md monitor-forms §2 "Alert Rules tab"): digits only, anything else is dropped;
 * empty is null. With `inMinutes` the value is stored in seconds and shown in minutes (× 60).
 * Its error shows only while the rule is switched on (requirements.md monitor-forms §5: enforced only for enabled rules).
 */
export function RuleCountField(p: {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  error: string | undefined;
  isRuleEnabled: boolean;
  readOnly: boolean;
  inMinutes?: boolean;
}) {
  const error = p.isRuleEnabled ? p.error : undefined;
  const scale = p.inMinutes ? 60 : 1;
  const text = p.value == null ? "" : p.inMinutes ? formatMinutes(p.value) : String(p.value);

  return (
    <TextField
      label={p.label}
      size="small"
      value={text}
      disabled={!p.isRuleEnabled}
      error={!!error}
      helperText={error ?? " "}
      onChange={(e) => {
        if (p.readOnly) return;
        const n = parseRuleInput(e.target.value);
        p.onChange(n == null ? null : n * scale);
      }}
      slotProps={{ htmlInput: { readOnly: p.readOnly, inputMode: "numeric", pattern: "[0-9]*" } }}
      sx={{ width: 190 }}
    />
  );
}
