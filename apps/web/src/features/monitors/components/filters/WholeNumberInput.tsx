import { TextField } from "@mui/material";
import { useState } from "react";
import { parseWholeNumberInput } from "./filters.logic";
import { useDebouncedCallback } from "./useDebounced";

/**
 * A whole non-negative number (a period's Records or Duration minutes, requirements.md monitor-forms §5 "Period"): other
 * keystrokes, a minus sign among them, are ignored; the number is committed after `delayMs` idle,
 * on Enter or on blur. After a commit the input shows the form's value again, so a clamped
 * number is seen as it was stored.
 */
export function WholeNumberInput(p: {
  label: string;
  value: number | null;
  onCommit: (n: number) => void;
  delayMs: number;
  readOnly: boolean;
  error?: string;
  helperText?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = useDebouncedCallback((n: number) => {
    p.onCommit(n);
    setDraft(null);
  }, p.delayMs);

  const handleChange = (text: string) => {
    const n = parseWholeNumberInput(text);
    if (n === undefined) return;
    setDraft(text);
    if (n === null) commit.cancel();
    else commit.schedule(n);
  };

  const handleBlur = () => {
    commit.flush();
    // Left empty: show the stored value again (an empty count is never committed).
    setDraft((d) => (d?.trim() === "" ? null : d));
  };

  return (
    <TextField
      label={p.label}
      size="small"
      fullWidth
      value={draft ?? (p.value == null ? "" : String(p.value))}
      onChange={(e) => handleChange(e.target.value)}
      onBlur={handleBlur}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit.flush();
      }}
      error={!!p.error}
      helperText={p.error ?? p.helperText}
      slotProps={{ htmlInput: { inputMode: "numeric", readOnly: p.readOnly, "aria-readonly": p.readOnly } }}
    />
  );
}
