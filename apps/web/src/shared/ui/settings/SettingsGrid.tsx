import { GRID_ROW_HEIGHT, SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import {
  Box,
  LinearProgress,
  Paper,
  type SxProps,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TablePagination,
  TableRow,
  type Theme,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import {
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTexts } from "../../i18n/language";
import {
  arrowOf,
  type CellFocus,
  cellFocusOf,
  cellOf,
  findCell,
  HEADER_ROW_ID,
  isTextInput,
  neighbourCell,
} from "./grid-keyboard";
import { SettingsGridHeader } from "./SettingsGridHeader";
import {
  cellContent,
  cellValue,
  type GridApi,
  GridApiContext,
  type GridRowHeightParams,
  type GridRowId,
  type SettingsColumn,
} from "./settings-grid";
import type { GridRowEdit } from "./useInlineRowEdit";
import { type SettingsGridRowsOptions, useSettingsGridRows } from "./useSettingsGridRows";

export type SettingsGridProps<R extends object> = SettingsGridRowsOptions<R> & {
  /** The grid's accessible name (its page title). */
  label: string;
  /** What the grid says when it has no rows (the spec's empty text). */
  emptyText: string;
  /** Above the grid inside its frame: a toolbar, totals. */
  toolbar?: ReactNode;
  /** Most the grid's rows take before they scroll; default the window less the page's header. */
  height?: string;
  /** A progress bar over the rows while they load. */
  loading?: boolean;
  /** Default the spec's 65 (requirements.md settings §2, §9). */
  rowHeight?: number;
  /** "auto": the row is as high as its content (a detail row); else the grid's row height. */
  getRowHeight?: (p: GridRowHeightParams<R>) => "auto" | number | null | undefined;
  getRowClassName?: (p: { id: GridRowId; row: R }) => string;
  isCellEditable?: (p: { id: GridRowId; row: R; field: string }) => boolean;
  /** Lets the page move the focus to a cell. */
  apiRef?: RefObject<GridApi | null>;
  /** A row edited in place (useInlineRowEdit's gridProps; InlineEditGrid passes it). */
  rowEdit?: GridRowEdit<R>;
  sx?: SxProps<Theme>;
};

const PAGE_SIZES = [25, 50, 100];

/**
 * The stacked layout: the header row wraps (its names still sort), each row a block of cells in as
 * many columns as fit, each cell its column's name beside its value (none for an empty value); a
 * row's fixed height gives way to its content.
 */
const STACKED_TABLE_SX: SxProps<Theme> = {
  display: "block",
  "& thead, & tbody": { display: "block" },
  "& thead tr": { display: "flex", flexWrap: "wrap", columnGap: 2 },
  "& thead th": { width: "auto", minWidth: 0, border: 0, py: 0.5, px: 1 },
  "& thead th:empty, & thead th:has(> span:empty)": { display: "none" },
  "& tbody tr": {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fill, minmax(300px, 1fr))",
    columnGap: 2,
    height: "auto !important",
    py: 1,
    borderTop: 1,
    borderColor: "divider",
  },
  "& tbody td[colspan]": { gridColumn: "1 / -1" },
  // A column with nothing to show in this row takes no line.
  "& tbody td:has(> span[aria-hidden] + div:empty)": { display: "none" },
  "& tbody td": {
    display: "flex",
    // MUI reverses a right-aligned cell's flex row.
    flexDirection: "row",
    alignItems: "center",
    gap: 1,
    minHeight: 40,
    border: 0,
    textAlign: "left",
  },
  "& tbody td > div": { justifyContent: "flex-start" },
};

const STACKED_LABEL_SX: SxProps<Theme> = {
  flex: "0 0 40%",
  maxWidth: 200,
  color: "text.secondary",
  typography: "body2",
};

/**
 * The Settings sections' grid, without the data grid library (issue #17: it alone was ≈ 121 kB
 * gzipped): a table with the roles of a grid (grid, row, columnheader with aria-sort, gridcell),
 * row height 65 (requirements.md settings §2, §9), sorting by a header click, 25/50/100 rows a page, the
 * section's empty text and 'Error Loading Data', one row edited in place (useInlineRowEdit:
 * double click or Enter opens an editable cell's row, Enter saves, Escape cancels, Tab moves
 * between its fields) and the data grid's keyboard use (grid-keyboard.ts).
 */
export function SettingsGrid<R extends object>(p: SettingsGridProps<R>) {
  const M = useTexts(SETTINGS_KIT_MESSAGES);
  const g = useSettingsGridRows(p);
  const { rowEdit } = p;
  // Below md (a tablet) each row is a stack of "column: value" lines inside the frame (issue 32 §1).
  const stacked = useMediaQuery(useTheme().breakpoints.down("md"));
  const tableRef = useRef<HTMLTableElement>(null);
  const [focus, setFocus] = useState<CellFocus | null>(null);
  // The focus moves with `focus` (arrows, setCellFocus), not when it followed the DOM's.
  const isMovePending = useRef(false);
  const latest = useRef({ g, p });
  latest.current = { g, p };

  const isEditable = (col: SettingsColumn<R>, row: R) =>
    !!col.editable && (p.isCellEditable?.({ id: g.idOf(row), row, field: col.field }) ?? true);
  const isRowEditing = (id: string) => rowEdit?.editingId != null && String(rowEdit.editingId) === id;

  const api = useMemo<GridApi>(
    () => ({
      getRow: (id) => latest.current.g.rowById(String(id)) ?? null,
      setCellFocus: (id, field) => {
        isMovePending.current = true;
        setFocus({ id: String(id), field });
      },
      setEditCellValue: ({ id, field, value }) => {
        const { g, p } = latest.current;
        const row = g.rowById(String(id));
        const col = p.columns.find((c) => c.field === field);
        if (!row || !col) return;
        const error = col.preProcessEditCellProps?.({ id, row, props: { value } }).error ?? false;
        p.rowEdit?.setEditCell(id, field, { value, error });
      },
    }),
    [],
  );
  const apiHolder = useMemo(() => ({ current: api }), [api]);

  useLayoutEffect(() => {
    if (p.apiRef) (p.apiRef as { current: GridApi | null }).current = api;
    if (!rowEdit) return;
    rowEdit.host.current = {
      getRow: (id) => latest.current.g.rowById(String(id)),
      editableColumns: (row) => latest.current.p.columns.filter((c) => isEditable(c, row)),
      // An edit cell focuses its own field when it has the grid's focus.
      focusCell: (id, field) => setFocus({ id: String(id), field }),
      onRowSaved: g.keepSaved,
    };
  });

  // The tab stop: the focused cell while it is shown, else the first cell (or header).
  const firstRow = g.shown[0];
  const firstField = p.columns[0]?.field;
  const tabStop: CellFocus | null =
    focus && (focus.id === HEADER_ROW_ID || g.rowById(focus.id))
      ? focus
      : firstField == null
        ? null
        : { id: firstRow ? String(g.idOf(firstRow)) : HEADER_ROW_ID, field: firstField };
  const isTabStop = (id: string, field: string) => tabStop?.id === id && tabStop.field === field;

  useLayoutEffect(() => {
    if (!isMovePending.current || !focus || isRowEditing(focus.id)) return;
    isMovePending.current = false;
    const cell = findCell(tableRef.current, focus);
    (cell?.querySelector<HTMLElement>('[tabindex="0"]') ?? cell)?.focus();
  });

  const handleFocus = (e: FocusEvent) => {
    const at = cellFocusOf(cellOf(tableRef.current, e.target));
    if (!at) return;
    isMovePending.current = false;
    setFocus((f) => (f?.id === at.id && f.field === at.field ? f : at));
  };

  const handleKeyDown = (e: KeyboardEvent) => {
    const cell = cellOf(tableRef.current, e.target);
    const at = cellFocusOf(cell);
    if (e.defaultPrevented || !cell || !at || !tableRef.current) return;
    const row = g.rowById(at.id);
    if (row && rowEdit && isRowEditing(at.id)) {
      const id = g.idOf(row);
      if (e.key === "Escape" || (e.key === "Enter" && isTextInput(e.target))) {
        e.preventDefault();
        if (e.key === "Escape") rowEdit.cancel(id);
        else rowEdit.save(id);
        isMovePending.current = true;
        setFocus(at);
      }
      return;
    }
    if (e.target === cell && (e.key === "Enter" || e.key === " ") && at.id === HEADER_ROW_ID) {
      e.preventDefault();
      g.toggleSort(at.field);
      return;
    }
    const col = p.columns.find((c) => c.field === at.field);
    if (e.target === cell && e.key === "Enter" && row && rowEdit && col && isEditable(col, row)) {
      e.preventDefault();
      rowEdit.requestStart(g.idOf(row), at.field);
      return;
    }
    const dir = arrowOf(e.key);
    if (!dir || isTextInput(e.target)) return;
    const next = cellFocusOf(neighbourCell(tableRef.current, cell as HTMLTableCellElement, dir));
    if (!next) return;
    e.preventDefault();
    isMovePending.current = true;
    setFocus(next);
  };

  const rowHeight = p.rowHeight ?? GRID_ROW_HEIGHT;
  const renderCells = (row: R) => {
    const id = g.idOf(row);
    const sid = String(id);
    const isEditing = isRowEditing(sid);
    const cells: ReactNode[] = [];
    for (let i = 0; i < p.columns.length; ) {
      const col = p.columns[i] as SettingsColumn<R>;
      const value = cellValue(col, row);
      const span = Math.max(1, Math.min(col.colSpan?.(value, row) ?? 1, p.columns.length - i));
      const tabIndex = isTabStop(sid, col.field) ? 0 : -1;
      const params = {
        id,
        row,
        field: col.field,
        value,
        tabIndex,
        hasFocus: focus?.id === sid && focus.field === col.field,
        api,
      } as const;
      const isEditCell = isEditing && isEditable(col, row);
      const content = cellContent(
        col,
        params,
        isEditCell ? (rowEdit?.editCell(col.field) ?? null) : undefined,
      );
      cells.push(
        <TableCell
          key={col.field}
          role="gridcell"
          data-rowid={sid}
          data-field={col.field}
          tabIndex={tabIndex}
          colSpan={span > 1 ? span : undefined}
          align={col.type === "number" ? "right" : col.type === "actions" ? "center" : undefined}
          onDoubleClick={() => rowEdit && isEditable(col, row) && rowEdit.requestStart(id, col.field)}
          sx={{ py: 0, "&:focus": { outline: "2px solid", outlineColor: "primary.main", outlineOffset: -2 } }}
        >
          {stacked && span === 1 && col.headerName ? (
            <>
              <Box component="span" aria-hidden sx={STACKED_LABEL_SX}>
                {col.headerName}
              </Box>
              <Box sx={{ flex: 1, minWidth: 0 }}>{content}</Box>
            </>
          ) : (
            content
          )}
        </TableCell>,
      );
      i += span;
    }
    return cells;
  };

  return (
    <Paper
      variant="outlined"
      sx={[{ display: "flex", flexDirection: "column" }, ...(Array.isArray(p.sx) ? p.sx : [p.sx])]}
    >
      {p.toolbar}
      <GridApiContext.Provider value={apiHolder}>
        <TableContainer sx={{ maxHeight: p.height ?? "calc(100vh - 300px)", position: "relative" }}>
          {p.loading && (
            <LinearProgress sx={{ position: "absolute", top: 0, left: 0, right: 0, zIndex: 3 }} />
          )}
          <Table
            ref={tableRef}
            stickyHeader
            role="grid"
            aria-label={p.label}
            aria-rowcount={g.rowCount + 1}
            sx={stacked ? STACKED_TABLE_SX : undefined}
            onFocus={handleFocus}
            onKeyDown={handleKeyDown}
          >
            <SettingsGridHeader
              columns={p.columns}
              sortModel={g.sortModel}
              tabStopField={tabStop?.id === HEADER_ROW_ID ? tabStop.field : null}
              onSort={g.toggleSort}
            />
            <TableBody>
              {g.shown.map((row) => {
                const id = g.idOf(row);
                const height = p.getRowHeight?.({ id, model: row });
                const className = [p.getRowClassName?.({ id, row }), rowEdit?.getRowClassName({ id })]
                  .filter(Boolean)
                  .join(" ");
                return (
                  <TableRow
                    key={String(id)}
                    role="row"
                    hover
                    className={className || undefined}
                    // The row height as the data grid set it (a CSS variable), which the grids' tests read.
                    style={
                      height === "auto"
                        ? undefined
                        : ({
                            "--height": `${typeof height === "number" ? height : rowHeight}px`,
                            height: "var(--height)",
                          } as CSSProperties)
                    }
                  >
                    {renderCells(row)}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </GridApiContext.Provider>
      {g.shown.length === 0 && !p.loading && (
        <Box sx={{ display: "grid", placeItems: "center", minHeight: 160 }}>
          {p.isError ? (
            <Typography role="alert" color="error">
              {M.errorLoadingData}
            </Typography>
          ) : (
            <Typography color="text.secondary">{p.emptyText}</Typography>
          )}
        </Box>
      )}
      <TablePagination
        component="div"
        count={g.rowCount}
        page={g.page}
        rowsPerPage={g.pageSize}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_, page) => g.setPagination({ page, pageSize: g.pageSize })}
        onRowsPerPageChange={(e) => g.setPagination({ page: 0, pageSize: Number(e.target.value) })}
      />
    </Paper>
  );
}
