import type { TLine } from "@linewatch/contracts";
import { MenuItem, TextField } from "@mui/material";
import { useState } from "react";
import { usePlantLine } from "../../data/plants/plant-line";

/**
 * A Settings section's own line: it starts on the top bar's line, and picking another here does
 * not change the top bar's (requirements.md settings §2: each section has its line selector). `isLocked`
 * holds the pick while the section has unsaved edits.
 */
export function usePageLine() {
  const { plant, lines, line: topBarLine, isLoading, error } = usePlantLine();
  const [pickedLineId, setPickedLineId] = useState<string | null>(null);
  const lineId = lines.some((l) => l.id === pickedLineId) ? pickedLineId : (topBarLine?.id ?? null);
  const line = lines.find((l) => l.id === lineId) ?? null;
  return {
    plant,
    lines,
    line,
    lineId,
    setLineId: setPickedLineId,
    isLoading,
    error,
    /** The plant has no lines (spec settings: 'No Lines' / 'No lines exist for this plant.'). */
    hasNoLines: !isLoading && !error && lines.length === 0,
  };
}

export const lineLabel = (l: Pick<TLine, "name" | "friendlyName">) => l.friendlyName || l.name;

/** The selector of a section's line, lines by their friendly names. */
export function PageLineSelect(p: {
  label: string;
  lines: TLine[];
  lineId: string | null;
  onChange: (lineId: string) => void;
  isLocked?: boolean;
}) {
  return (
    <TextField
      select
      size="small"
      label={p.label}
      value={p.lineId ?? ""}
      onChange={(e) => p.onChange(e.target.value)}
      disabled={p.lines.length === 0 || p.isLocked}
      sx={{ minWidth: 220 }}
    >
      {p.lines.map((l) => (
        <MenuItem key={l.id} value={l.id}>
          {lineLabel(l)}
        </MenuItem>
      ))}
    </TextField>
  );
}
