import { GRID_ROW_HEIGHT, SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { Box, Paper, Typography } from "@mui/material";
import { DataGrid, type DataGridProps, type GridValidRowModel } from "@mui/x-data-grid";
import type { ReactNode } from "react";

export type SettingsGridProps<R extends GridValidRowModel> = Omit<DataGridProps<R>, "slots"> & {
  /** The grid's accessible name (its page title). */
  label: string;
  /** What the grid says when it has no rows (the spec's empty text). */
  emptyText: string;
  /** The load failed: the overlay 'Error Loading Data' instead of rows (spec settings §8). */
  isError?: boolean;
  /** Above the grid inside its frame: a toolbar, totals. */
  toolbar?: ReactNode;
  /** CSS height of the grid's box; default the window less the page's header. */
  height?: string;
};

/**
 * The Settings sections' grid: row height 65 (spec settings §2, §9), 25/50/100 rows a page, no
 * column filter or row selection by click, the section's empty text, the 'Error Loading Data'
 * overlay, and no eval() (the Content-Security-Policy has no unsafe-eval). Columns, sorting and
 * editing are the section's.
 */
export function SettingsGrid<R extends GridValidRowModel>({
  label,
  emptyText,
  isError = false,
  toolbar,
  height = "calc(100vh - 300px)",
  ...grid
}: SettingsGridProps<R>) {
  return (
    <Paper variant="outlined" sx={{ display: "flex", flexDirection: "column" }}>
      {toolbar}
      <Box sx={{ height, minHeight: 320 }}>
        <DataGrid<R>
          disableEval
          aria-label={label}
          rowHeight={GRID_ROW_HEIGHT}
          pageSizeOptions={[25, 50, 100]}
          disableColumnFilter
          disableRowSelectionOnClick
          {...grid}
          rows={isError ? [] : grid.rows}
          localeText={{ noRowsLabel: emptyText, ...grid.localeText }}
          slots={isError ? { noRowsOverlay: ErrorLoadingOverlay } : undefined}
          sx={{ border: 0, ...grid.sx }}
        />
      </Box>
    </Paper>
  );
}

function ErrorLoadingOverlay() {
  return (
    <Box role="alert" sx={{ display: "grid", placeItems: "center", height: "100%" }}>
      <Typography color="error">{SETTINGS_KIT_MESSAGES.errorLoadingData}</Typography>
    </Box>
  );
}
