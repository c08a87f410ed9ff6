import type { TLine } from "@linewatch/contracts";
import { MenuItem, TextField } from "@mui/material";
import { useCallback, useRef, useState } from "react";
import { usePlantLine } from "../../data/plants/plant-line";

/**
 * A Settings section's line (requirements.md settings §2: each section has its line selector): one
 * rule with the top bar — the section shows the top bar's line, and picking one here picks it in
 * the top bar too (issue 32 §2: two selectors that could disagree). While the section holds unsaved
 * edits (`holdLine(true)`, with its selector locked) it keeps its line whatever the top bar picks,
 * and follows again once they are saved or discarded.
 */
export function usePageLine() {
  const { plant, lines, line: topBarLine, setLineId, isLoading, error } = usePlantLine();
  const [heldLineId, setHeldLineId] = useState<string | null>(null);
  const lineId = lines.some((l) => l.id === heldLineId) ? heldLineId : (topBarLine?.id ?? null);
  const line = lines.find((l) => l.id === lineId) ?? null;
  const current = useRef(lineId);
  current.current = lineId;
  const holdLine = useCallback((isHeld: boolean) => setHeldLineId(isHeld ? current.current : null), []);
  return {
    plant,
    lines,
    line,
    lineId,
    setLineId,
    holdLine,
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
