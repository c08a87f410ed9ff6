import { GRID_ROW_HEIGHT, SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import {
  Box,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Typography,
} from "@mui/material";
import { type CSSProperties, type ReactNode, useMemo, useState } from "react";
import { compareValues } from "./expandable-rows";

/** A column of a LightSettingsGrid. */
export type LightGridColumn<R> = {
  field: string;
  headerName: string;
  /** Fixed width in px; else the column takes the room left (with `minWidth`). */
  width?: number;
  minWidth?: number;
  /** Sortable by clicking its header (default true). */
  sortable?: boolean;
  /** The value it sorts by; default the row's `field`. */
  sortValue?: (row: R) => unknown;
  /** The cell's content; default the row's `field` as text. */
  renderCell?: (row: R) => ReactNode;
};

export type LightGridSort = { field: string; sort: "asc" | "desc" } | null;

export type LightSettingsGridProps<R> = {
  /** The grid's accessible name (its page title). */
  label: string;
  /** What the grid says when it has no rows (the spec's empty text). */
  emptyText: string;
  rows: readonly R[];
  columns: readonly LightGridColumn<R>[];
  getRowId: (row: R) => string;
  /** The load failed: 'Error Loading Data' instead of rows (requirements.md settings §8). */
  isError?: boolean;
  initialSort?: LightGridSort;
  /** Rows a page to start with (25, 50 or 100 are offered). */
  initialPageSize?: number;
};

const PAGE_SIZES = [25, 50, 100];

/**
 * The Settings sections' grid for read-only rows (no editing in place), without the data grid
 * library (issue #17: the MUI DataGrid alone is ≈ 101 kB gzipped): a table with the roles of a
 * grid (grid, row, columnheader with aria-sort, gridcell), the spec's row height 65 (requirements.md settings §2,
 * §9), sorting by a header click (ascending, descending, none), 25/50/100 rows a page, the
 * section's empty text and the 'Error Loading Data' message. Cells keep their own controls
 * (switches, buttons), reached with Tab.
 */
export function LightSettingsGrid<R>(p: LightSettingsGridProps<R>) {
  const [sort, setSort] = useState<LightGridSort>(p.initialSort ?? null);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(p.initialPageSize ?? PAGE_SIZES[0] ?? 25);

  const sorted = useMemo(() => {
    if (!sort) return p.rows;
    const column = p.columns.find((c) => c.field === sort.field);
    const sortValueOf = column?.sortValue ?? ((r: R) => (r as Record<string, unknown>)[sort.field]);
    const dir = sort.sort === "asc" ? 1 : -1;
    // Array.prototype.sort is stable: equal rows keep their order.
    return [...p.rows].sort((a, b) => dir * compareValues(sortValueOf(a), sortValueOf(b)));
  }, [p.rows, p.columns, sort]);
  const rows = p.isError ? [] : sorted;
  const lastPage = Math.max(0, Math.ceil(rows.length / pageSize) - 1);
  const shownPage = Math.min(page, lastPage);
  const shown = rows.slice(shownPage * pageSize, (shownPage + 1) * pageSize);

  // Ascending, descending, then unsorted, as the data grid does.
  const toggleSort = (field: string) => {
    setSort((s) =>
      s?.field !== field ? { field, sort: "asc" } : s.sort === "asc" ? { field, sort: "desc" } : null,
    );
    setPage(0);
  };

  return (
    <Paper variant="outlined" sx={{ display: "flex", flexDirection: "column" }}>
      <TableContainer>
        <Table role="grid" aria-label={p.label} aria-rowcount={rows.length + 1}>
          <TableHead>
            <TableRow role="row">
              {p.columns.map((c) => {
                const direction = sort?.field === c.field ? sort.sort : undefined;
                return (
                  <TableCell
                    key={c.field}
                    role="columnheader"
                    aria-sort={
                      direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none"
                    }
                    sx={{ width: c.width, minWidth: c.minWidth, fontWeight: 500 }}
                  >
                    {c.sortable === false ? (
                      c.headerName
                    ) : (
                      <TableSortLabel
                        active={direction != null}
                        direction={direction ?? "asc"}
                        onClick={() => toggleSort(c.field)}
                      >
                        {c.headerName}
                      </TableSortLabel>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row) => (
              <TableRow
                key={p.getRowId(row)}
                role="row"
                hover
                // The row height as the data grid sets it (a CSS variable), which the grids' tests read.
                style={{ "--height": `${GRID_ROW_HEIGHT}px`, height: "var(--height)" } as CSSProperties}
              >
                {p.columns.map((c) => (
                  <TableCell key={c.field} role="gridcell" data-field={c.field} sx={{ py: 0 }}>
                    {c.renderCell
                      ? c.renderCell(row)
                      : String((row as Record<string, unknown>)[c.field] ?? "")}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length === 0 && (
        <Box sx={{ display: "grid", placeItems: "center", minHeight: 160 }}>
          {p.isError ? (
            <Typography role="alert" color="error">
              {SETTINGS_KIT_MESSAGES.errorLoadingData}
            </Typography>
          ) : (
            <Typography color="text.secondary">{p.emptyText}</Typography>
          )}
        </Box>
      )}
      <TablePagination
        component="div"
        count={rows.length}
        page={shownPage}
        rowsPerPage={pageSize}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(e) => {
          setPageSize(Number(e.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}
