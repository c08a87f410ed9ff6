import { useCallback, useMemo, useRef, useState } from "react";
import { type Compare, type FlatRow, flattenExpandableRows } from "./expandable-rows";
import type { GridPaginationModel, GridRowHeightParams, GridSortModel } from "./settings-grid";

export type ExpandableRowsOptions<P, C> = {
  rows: readonly P[];
  getId: (row: P) => string;
  /** A parent's children, one row each under it (Cap Limits: a signal's model numbers). */
  getChildren?: (row: P) => readonly C[];
  getChildId?: (child: C, parent: P) => string;
  /** Each row expands into one detail row below it (ETQ Reliance: the line's form). */
  hasDetail?: boolean;
  initialSortModel?: GridSortModel;
  /** Comparison by a field; default the field's value (numbers by value, text by locale). */
  compareParents?: Compare<P>;
  compareChildren?: Compare<C>;
  /** Parents a page (25, 50 or 100 as SettingsGrid offers). */
  pageSize?: number;
};

export type ExpandableGridProps<P, C> = {
  rows: FlatRow<P, C>[];
  sortingMode: "server";
  sortModel: GridSortModel;
  onSortModelChange: (model: GridSortModel) => void;
  paginationMode: "server";
  paginationModel: GridPaginationModel;
  onPaginationModelChange: (model: GridPaginationModel) => void;
  rowCount: number;
  getRowHeight: (p: GridRowHeightParams<FlatRow<P, C>>) => "auto" | null;
};

/**
 * Rows that expand on SettingsGrid: which rows are expanded, and the grid's props for the flat
 * rows (flattenExpandableRows). Sorting and paging are done here, by parents, so children stay
 * under their parent on the parent's page. A detail row sizes itself to its content.
 */
export function useExpandableRows<P, C = never>(o: ExpandableRowsOptions<P, C>) {
  const [expandedIds, setExpandedIds] = useState<ReadonlySet<string>>(new Set());
  const [sortModel, setSortModel] = useState<GridSortModel>(o.initialSortModel ?? []);
  const [paginationModel, setPaginationModel] = useState<GridPaginationModel>({
    page: 0,
    pageSize: o.pageSize ?? 25,
  });

  // The latest options, for the flattening: the rows' identity (with the expanded set, the sort
  // and the page) decides when the flat rows are built again, so the callbacks need not be stable.
  const options = useRef(o);
  options.current = o;
  const { rows, parentCount } = useMemo(() => {
    const { rows: _rows, initialSortModel: _sort, pageSize: _size, ...tree } = options.current;
    return flattenExpandableRows(o.rows, {
      ...tree,
      expandedIds,
      sortModel,
      page: { index: paginationModel.page, size: paginationModel.pageSize },
    });
  }, [o.rows, expandedIds, sortModel, paginationModel]);

  const setExpanded = useCallback((id: string, isExpanded: boolean) => {
    setExpandedIds((s) => {
      if (s.has(id) === isExpanded) return s;
      const next = new Set(s);
      if (isExpanded) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  // A new sort starts on the first page.
  const onSortModelChange = useCallback((m: GridSortModel) => {
    setSortModel(m);
    setPaginationModel((p) => ({ ...p, page: 0 }));
  }, []);
  const gridProps: ExpandableGridProps<P, C> = {
    rows,
    sortingMode: "server",
    sortModel,
    onSortModelChange,
    paginationMode: "server",
    paginationModel,
    onPaginationModelChange: setPaginationModel,
    rowCount: parentCount,
    getRowHeight: detailRowHeight,
  };

  return {
    rows,
    expandedIds,
    isExpanded: (id: string) => expandedIds.has(id),
    toggle: (id: string) => setExpanded(id, !expandedIds.has(id)),
    setExpanded,
    collapseAll: () => setExpandedIds(new Set()),
    gridProps,
  };
}

export type ExpandableRows<P, C = never> = ReturnType<typeof useExpandableRows<P, C>>;

/** A detail row (a form) is as high as its content; the others keep the grid's row height. */
const detailRowHeight = <P, C>({ model }: GridRowHeightParams<FlatRow<P, C>>): "auto" | null =>
  model.__row.kind === "detail" ? "auto" : null;
