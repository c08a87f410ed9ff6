import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  cellValue,
  fieldValue,
  type GridPaginationModel,
  type GridRowId,
  type GridSortDirection,
  type GridSortModel,
  type SettingsColumn,
} from "./settings-grid";

export type SettingsGridRowsOptions<R extends object> = {
  rows: readonly R[];
  columns: readonly SettingsColumn<R>[];
  /** Default the row's `id`. */
  getRowId?: (row: R) => GridRowId;
  /** The load failed: 'Error Loading Data' instead of rows (requirements.md settings §8). */
  isError?: boolean;
  initialState?: {
    sorting?: { sortModel?: GridSortModel };
    pagination?: { paginationModel?: Partial<GridPaginationModel> };
  };
  sortModel?: GridSortModel;
  onSortModelChange?: (model: GridSortModel) => void;
  /** "server": the rows come sorted (the caller sorts on onSortModelChange). */
  sortingMode?: "client" | "server";
  /** What a header click cycles through; default ascending, descending, none. */
  sortingOrder?: GridSortDirection[];
  paginationModel?: GridPaginationModel;
  onPaginationModelChange?: (model: GridPaginationModel) => void;
  /** "server": the rows are the page already, of `rowCount` in all. */
  paginationMode?: "client" | "server";
  rowCount?: number;
};

const DEFAULT_SORTING_ORDER: GridSortDirection[] = ["asc", "desc", null];
// The data grid's default page size, which the sections that set none had.
const DEFAULT_PAGE_SIZE = 100;
const collator = new Intl.Collator();

/** The data grid's order of cell values: empty first, numbers by value, text by the locale. */
export function compareCells(a: unknown, b: unknown): number {
  if (a == null || b == null) return a == null ? (b == null ? 0 : -1) : 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}

/**
 * SettingsGrid's rows: sorted (unless the caller sorts), the page of them shown, and a row saved
 * in place standing in for the page's row until the page's rows change.
 */
export function useSettingsGridRows<R extends object>(p: SettingsGridRowsOptions<R>) {
  const getRowId = p.getRowId;
  const idOf = useCallback(
    (row: R): GridRowId => (getRowId ? getRowId(row) : (fieldValue(row, "id") as GridRowId)),
    [getRowId],
  );
  const [ownSort, setOwnSort] = useState<GridSortModel>(p.initialState?.sorting?.sortModel ?? []);
  const sortModel = p.sortModel ?? ownSort;
  const [ownPage, setOwnPage] = useState<GridPaginationModel>({
    page: 0,
    pageSize: DEFAULT_PAGE_SIZE,
    ...p.initialState?.pagination?.paginationModel,
  });
  const pagination = p.paginationModel ?? ownPage;
  const [saved, setSaved] = useState<{ rows: readonly R[]; byId: ReadonlyMap<string, R> }>({
    rows: p.rows,
    byId: new Map(),
  });
  const rowsRef = useRef(p.rows);
  rowsRef.current = p.rows;
  // New rows from the page replace what was saved in place.
  useEffect(() => {
    setSaved((s) => (s.rows === p.rows || s.byId.size === 0 ? s : { rows: p.rows, byId: new Map() }));
  }, [p.rows]);

  const rows = useMemo(() => {
    const byId = saved.rows === p.rows ? saved.byId : null;
    const withSaved = byId?.size ? p.rows.map((r) => byId.get(String(idOf(r))) ?? r) : p.rows;
    if (p.isError) return [];
    const items = sortModel.filter((s) => s.sort);
    if (p.sortingMode === "server" || items.length === 0) return withSaved;
    const cols = items.map((s) => ({ s, col: p.columns.find((c) => c.field === s.field) }));
    // Array.prototype.sort is stable: rows equal on every field keep their order.
    return [...withSaved].sort((a, b) => {
      for (const { s, col } of cols) {
        if (!col) continue;
        const c = (col.sortComparator ?? compareCells)(cellValue(col, a), cellValue(col, b));
        if (c !== 0) return s.sort === "desc" ? -c : c;
      }
      return 0;
    });
  }, [p.rows, p.isError, p.sortingMode, p.columns, sortModel, saved, idOf]);

  const isServerPaged = p.paginationMode === "server";
  const rowCount = p.isError ? 0 : isServerPaged ? (p.rowCount ?? rows.length) : rows.length;
  const lastPage = Math.max(0, Math.ceil(rowCount / pagination.pageSize) - 1);
  const page = Math.min(pagination.page, lastPage);
  const shown = isServerPaged
    ? rows
    : rows.slice(page * pagination.pageSize, (page + 1) * pagination.pageSize);
  const byId = useMemo(() => new Map(shown.map((r) => [String(idOf(r)), r])), [shown, idOf]);

  const { onSortModelChange, onPaginationModelChange, sortingOrder = DEFAULT_SORTING_ORDER } = p;
  const setSort = (m: GridSortModel) => {
    if (!p.sortModel) setOwnSort(m);
    onSortModelChange?.(m);
  };
  const setPagination = (m: GridPaginationModel) => {
    if (!p.paginationModel) setOwnPage(m);
    onPaginationModelChange?.(m);
  };

  /** A header click: the next direction of `sortingOrder` for the column, alone. */
  const toggleSort = (field: string) => {
    const col = p.columns.find((c) => c.field === field);
    if (!col || col.sortable === false || col.type === "actions") return;
    const current = sortModel.find((s) => s.field === field)?.sort ?? null;
    const at = sortingOrder.indexOf(current);
    const next = at < 0 ? sortingOrder[0] : sortingOrder[(at + 1) % sortingOrder.length];
    setSort(next ? [{ field, sort: next }] : []);
  };

  const keepSaved = useCallback(
    (id: GridRowId, row: R) =>
      setSaved((s) => ({
        rows: rowsRef.current,
        byId: new Map(s.rows === rowsRef.current ? s.byId : []).set(String(id), row),
      })),
    [],
  );

  return {
    idOf,
    shown,
    rowById: (id: string) => byId.get(id),
    rowCount,
    page,
    pageSize: pagination.pageSize,
    sortModel,
    toggleSort,
    setPagination,
    keepSaved,
  };
}
