import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import { Box, Button, IconButton } from "@mui/material";
import type { KeyboardEvent, ReactNode } from "react";
import { type FlatRow, isChildRow, isDetailRow } from "./expandable-rows";
import type { SettingsColumn } from "./settings-grid";
import type { ExpandableRows } from "./useExpandableRows";

/** Keys the button handles itself; the grid must not also act on them. */
const BUTTON_KEYS = new Set(["Enter", " "]);
const stopButtonKeys = (e: KeyboardEvent) => {
  if (BUTTON_KEYS.has(e.key)) e.stopPropagation();
};

/**
 * The button that expands or collapses a row: aria-expanded, the cell's tabIndex (the grid's
 * keyboard navigation reaches it; Enter or Space toggles), its label as text ('See models') or,
 * with `isIconOnly`, as the icon's accessible name.
 */
export function ExpandToggle(p: {
  isExpanded: boolean;
  label: string;
  onToggle: () => void;
  tabIndex?: -1 | 0;
  isIconOnly?: boolean;
  disabled?: boolean;
}) {
  const icon = p.isExpanded ? <ExpandLessIcon /> : <ExpandMoreIcon />;
  const common = {
    "aria-expanded": p.isExpanded,
    onClick: p.onToggle,
    onKeyDown: stopButtonKeys,
    tabIndex: p.tabIndex,
    disabled: p.disabled,
  };
  return p.isIconOnly ? (
    <IconButton size="small" aria-label={p.label} {...common}>
      {icon}
    </IconButton>
  ) : (
    <Button size="small" startIcon={icon} {...common} sx={{ whiteSpace: "nowrap" }}>
      {p.label}
    </Button>
  );
}

export type ExpandColumnOptions<P, C> = {
  tree: ExpandableRows<P, C>;
  /** The toggle's label for a parent: its text, or an icon's name when `isIconOnly`. */
  label: (row: P, isExpanded: boolean) => string;
  isIconOnly?: boolean;
  /** A parent that has nothing to show gets no toggle (Cap Limits: a signal without models). */
  canExpand?: (row: P, childCount: number) => boolean;
  /** A child row's cell (its name, indented); nothing by default. */
  renderChild?: (row: C) => ReactNode;
  /** The content of a detail row (ETQ Reliance: the form), across the whole row. */
  renderDetail?: (parent: P) => ReactNode;
  field?: string;
  headerName?: string;
  width?: number;
};

/**
 * The first column of an expandable grid: a parent's toggle, a child's indented cell, and a
 * detail row's content spanning every column (its keys stay in the form, not the grid).
 */
export function expandColumn<P, C>(o: ExpandColumnOptions<P, C>): SettingsColumn<FlatRow<P, C>> {
  return {
    field: o.field ?? "__expand",
    headerName: o.headerName ?? "",
    width: o.width ?? (o.isIconOnly ? 64 : 150),
    sortable: false,
    disableColumnMenu: true,
    // A detail row's one cell spans every column (the grid stops at the last).
    colSpan: (_value, row) => (row.__row.kind === "detail" ? Number.MAX_SAFE_INTEGER : 1),
    renderCell: ({ row, tabIndex }) => {
      if (isDetailRow(row)) {
        return (
          <Box onKeyDown={(e) => e.stopPropagation()} sx={{ width: "100%", py: 2, px: 1 }}>
            {o.renderDetail?.(row.parent)}
          </Box>
        );
      }
      if (isChildRow(row)) return <Box sx={{ pl: 4 }}>{o.renderChild?.(row)}</Box>;
      const meta = row.__row;
      if (o.canExpand && !o.canExpand(row, meta.childCount)) return null;
      return (
        <ExpandToggle
          isExpanded={meta.isExpanded}
          label={o.label(row, meta.isExpanded)}
          isIconOnly={o.isIconOnly}
          tabIndex={tabIndex}
          onToggle={() => o.tree.toggle(row.id)}
        />
      );
    },
  };
}
