import { Box, IconButton } from "@mui/material";
import { createContext, type ReactElement, type ReactNode, useContext } from "react";

// The column and row shapes of the Settings grids (SettingsGrid, InlineEditGrid), named and
// shaped as the MIT DataGrid's that they replace (issue #17: the data grid alone was ≈ 121 kB
// gzipped): the part of that API the Settings sections use — columns with
// valueGetter/valueFormatter/renderCell, row editing's renderEditCell/preProcessEditCellProps/
// valueSetter, actions columns, colSpan, sorting and pagination models — with the row typed: a
// column of a grid of `R` rows is a SettingsColumn<R>, and every part of it gets the row as an `R`.

export type GridRowId = string | number;
export type GridSortDirection = "asc" | "desc" | null | undefined;
export type GridSortItem = { field: string; sort: GridSortDirection };
export type GridSortModel = GridSortItem[];
export type GridPaginationModel = { page: number; pageSize: number };
export type GridRowHeightParams<R extends object> = { id: GridRowId; model: R };

/** What a cell's content may ask of its grid (the data grid's apiRef, in part). */
export type GridApi = {
  /** The shown row of `id` (the caller knows its grid's row type), or null. */
  getRow: (id: GridRowId) => object | null;
  /** Moves the keyboard focus to a cell (its control with tabIndex 0, else the cell). */
  setCellFocus: (id: GridRowId, field: string) => void;
  /** The typed value of a cell of the row in edit; the column's preProcessEditCellProps checks it. */
  setEditCellValue: (p: { id: GridRowId; field: string; value: unknown }) => void;
};

export type GridRenderCellParams<R extends object> = {
  id: GridRowId;
  row: R;
  field: string;
  /** The column's value of the row (cellValue); the row itself is typed. */
  value: unknown;
  /** 0 for the cell that holds the grid's tab stop: its control takes it, so arrows reach it. */
  tabIndex: -1 | 0;
  hasFocus: boolean;
  api: GridApi;
};

export type GridRenderEditCellParams<R extends object> = GridRenderCellParams<R> & {
  /** The column's message for the typed value (preProcessEditCellProps), or false. */
  error: string | boolean;
};

/**
 * A column of a Settings grid of `R` rows: the one column shape of SettingsGrid and
 * InlineEditGrid (whose edit parts are optional: `editable` and what follows it).
 */
export type SettingsColumn<R extends object> = {
  /** The row's key the column shows, or the column's own name when valueGetter or renderCell read the row. */
  field: string;
  headerName?: string;
  /** The header's tooltip. */
  description?: string;
  /** Fixed width in px; else the column shares the room left by `flex` (with `minWidth`). */
  width?: number;
  flex?: number;
  minWidth?: number;
  /** "number" aligns right; "actions" shows `getActions`. */
  type?: "string" | "number" | "actions";
  /** Sortable by a header click (default true; never for actions). */
  sortable?: boolean;
  /** How two of the column's values sort (default compareCells: empty first, then by the locale). */
  sortComparator?: (a: unknown, b: unknown) => number;
  /** Kept for the columns' shape; the grid has no column menu. */
  disableColumnMenu?: boolean;
  /** The cell's value (what it shows and sorts by); default the row's `field`. */
  valueGetter?: (value: unknown, row: R) => unknown;
  valueFormatter?: (value: unknown, row: R) => ReactNode;
  renderCell?: (params: GridRenderCellParams<R>) => ReactNode;
  getActions?: (p: { id: GridRowId; row: R }) => ReactElement[];
  /** How many columns the cell spans (a detail row: all of them). */
  colSpan?: (value: unknown, row: R) => number;
  /** Edited in place in the row in edit (useInlineRowEdit). */
  editable?: boolean;
  /** The row with the edited value stored (default `{ ...row, [field]: value }`). */
  valueSetter?: (value: unknown, row: R) => R;
  renderEditCell?: (params: GridRenderEditCellParams<R>) => ReactNode;
  preProcessEditCellProps?: (p: {
    id: GridRowId;
    row: R;
    props: { value: unknown; error?: string | boolean };
  }) => { value: unknown; error?: string | boolean };
};

/** The row's own value of `field` (undefined when the row has no such key). */
export const fieldValue = (row: object, field: string): unknown => (row as Record<string, unknown>)[field];

/** The row's value of a column: its valueGetter's, else the row's field. */
export const cellValue = <R extends object>(col: SettingsColumn<R>, row: R): unknown =>
  col.valueGetter ? col.valueGetter(fieldValue(row, col.field), row) : fieldValue(row, col.field);

/**
 * What a cell shows: its edit cell in the row in edit (`edit`: the typed value, null before any
 * typing; undefined when the cell is not being edited), its actions, its renderCell, or its value
 * (formatted).
 */
export function cellContent<R extends object>(
  col: SettingsColumn<R>,
  params: GridRenderCellParams<R>,
  edit: { value: unknown; error: string | boolean } | null | undefined,
): ReactNode {
  if (edit !== undefined && col.renderEditCell) {
    return col.renderEditCell({
      ...params,
      value: edit ? edit.value : params.value,
      error: edit?.error ?? false,
    });
  }
  if (col.type === "actions") {
    return (
      <CellTabIndexContext.Provider value={params.tabIndex}>
        <Box sx={{ display: "flex", gap: 0.5, justifyContent: "center" }}>
          {col.getActions?.({ id: params.id, row: params.row })}
        </Box>
      </CellTabIndexContext.Provider>
    );
  }
  if (col.renderCell) return col.renderCell(params);
  if (col.valueFormatter) return col.valueFormatter(params.value, params.row);
  return params.value == null ? "" : String(params.value);
}

/** The grid's api, for the cells it renders (the data grid's useGridApiContext). */
export const GridApiContext = createContext<{ current: GridApi } | null>(null);

export function useGridApiContext(): { current: GridApi } {
  const api = useContext(GridApiContext);
  if (!api) throw new Error("useGridApiContext outside a SettingsGrid");
  return api;
}

/** The tabIndex of the cell being rendered, for its action buttons. */
export const CellTabIndexContext = createContext<-1 | 0>(0);

/** A row's action: an icon button named by `label` (the data grid's GridActionsCellItem). */
export function GridActionsCellItem(p: {
  icon: ReactNode;
  label: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  const tabIndex = useContext(CellTabIndexContext);
  return (
    <IconButton
      size="small"
      aria-label={p.label}
      disabled={p.disabled}
      tabIndex={tabIndex}
      onClick={p.onClick}
    >
      {p.icon}
    </IconButton>
  );
}
