import { MenuItem, Select } from "@mui/material";
import type { KeyboardEvent } from "react";

export type CellSelectOption = { key: string; label: string; disabled?: boolean };

/** Keys the select itself uses to open; the grid must not also move the cell focus on them. */
const SELECT_KEYS = new Set(["Enter", " ", "ArrowUp", "ArrowDown"]);

/**
 * A select inside a grid cell. It takes the cell's tabIndex, so the grid's keyboard navigation
 * focuses it when the cell gets focus; Enter, Space and the up/down arrows open it.
 */
export function CellSelect(p: {
  value: string;
  options: CellSelectOption[];
  ariaLabel: string;
  tabIndex: -1 | 0;
  disabled?: boolean;
  readOnly?: boolean;
  /** In a row's edit mode the cell has no padding of its own. */
  isInEditCell?: boolean;
  onChange: (key: string) => void;
}) {
  const handleKeyDown = (e: KeyboardEvent) => {
    if (SELECT_KEYS.has(e.key)) e.stopPropagation();
  };
  return (
    <Select
      size="small"
      fullWidth
      value={p.options.some((o) => o.key === p.value) ? p.value : ""}
      disabled={p.disabled}
      readOnly={p.readOnly}
      onChange={(e) => !p.disabled && !p.readOnly && p.onChange(e.target.value)}
      onKeyDown={handleKeyDown}
      // A disabled select must not take the cell's focus (it would still open on Enter).
      inputProps={{ tabIndex: p.disabled ? undefined : p.tabIndex, "aria-label": p.ariaLabel }}
      sx={{ my: 0.5, ...(p.isInEditCell ? { mx: 1.25, width: "calc(100% - 20px)" } : {}) }}
    >
      {p.options.map((o) => (
        <MenuItem key={o.key} value={o.key} disabled={o.disabled}>
          {o.label}
        </MenuItem>
      ))}
    </Select>
  );
}
