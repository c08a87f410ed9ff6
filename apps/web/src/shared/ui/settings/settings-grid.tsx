import { Box, IconButton } from "@mui/material";
import { createContext, type ReactElement, type ReactNode, useContext } from "react";

// The column and row shapes of the Settings grids (SettingsGrid), named and shaped as the MIT
// DataGrid's that they replace (issue #17: the data grid alone was ≈ 121 kB gzipped): the part of
// that API the Settings sections use — columns with valueGetter/valueFormatter/renderCell, row
// editing's renderEditCell/preProcessEditCellProps/valueSetter, actions columns, colSpan, sorting
// and pagination models — so a section's columns read as they did.

export type GridRowId = string | number;
// biome-ignore lint/suspicious/noExplicitAny: a row is any record, as in the data grid
export type GridValidRowModel = { [key: string]: any };
export type GridSortDirection = "asc" | "desc" | null | undefined;
export type GridSortItem = { field: string; sort: GridSortDirection };
export type GridSortModel = GridSortItem[];
export type GridPaginationModel = { page: number; pageSize: number };
export type GridRowHeightParams = { id: GridRowId; model: GridValidRowModel };

/** What a cell's content may ask of its grid (the data grid's apiRef, in part). */
export type GridApi = {
  getRow: (id: GridRowId) => GridValidRowModel | null;
  /** Moves the keyboard focus to a cell (its control with tabIndex 0, else the cell). */
  setCellFocus: (id: GridRowId, field: string) => void;
  /** The typed value of a cell of the row in edit; the column's preProcessEditCellProps checks it. */
  setEditCellValue: (p: { id: GridRowId; field: string; value: unknown }) => void;
};

// biome-ignore lint/suspicious/noExplicitAny: cell values are the row's, of any type
type AnyValue = any;

export type GridRenderCellParams<R extends GridValidRowModel = GridValidRowModel, V = AnyValue> = {
  id: GridRowId;
  row: R;
  field: string;
  value: V;
  /** 0 for the cell that holds the grid's tab stop: its control takes it, so arrows reach it. */
  tabIndex: -1 | 0;
  hasFocus: boolean;
  api: GridApi;
};

export type GridRenderEditCellParams<
  R extends GridValidRowModel = GridValidRowModel,
  V = AnyValue,
> = GridRenderCellParams<R, V> & {
  /** The column's message for the typed value (preProcessEditCellProps), or false. */
  error: string | boolean;
};

export type GridColDef<R extends GridValidRowModel = GridValidRowModel> = {
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
  /** Kept for the columns' shape; the grid has no column menu. */
  disableColumnMenu?: boolean;
  /** Edited in place in the row in edit (useInlineRowEdit). */
  editable?: boolean;
  valueGetter?: (value: AnyValue, row: R) => unknown;
  valueFormatter?: (value: AnyValue, row: R) => ReactNode;
  /** The row with the edited value stored (default `{ ...row, [field]: value }`). */
  valueSetter?: (value: AnyValue, row: R) => R;
  renderCell?: (params: GridRenderCellParams<R>) => ReactNode;
  renderEditCell?: (params: GridRenderEditCellParams<R>) => ReactNode;
  preProcessEditCellProps?: (p: {
    id: GridRowId;
    row: R;
    props: { value: unknown; error?: string | boolean };
  }) => { value: unknown; error?: string | boolean };
  getActions?: (p: { id: GridRowId; row: R }) => ReactElement[];
  /** How many columns the cell spans (a detail row: all of them). */
  colSpan?: (value: unknown, row: R) => number;
};

/** The row's value of a column: its valueGetter's, else the row's field. */
export const cellValue = <R extends GridValidRowModel>(col: GridColDef<R>, row: R): unknown =>
  col.valueGetter ? col.valueGetter(row[col.field], row) : row[col.field];

/**
 * What a cell shows: its edit cell in the row in edit (`edit`: the typed value, null before any
 * typing; undefined when the cell is not being edited), its actions, its renderCell, or its value
 * (formatted).
 */
export function cellContent<R extends GridValidRowModel>(
  col: GridColDef<R>,
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
