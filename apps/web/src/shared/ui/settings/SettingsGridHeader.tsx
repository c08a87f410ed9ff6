import { TableCell, TableHead, TableRow, TableSortLabel, Tooltip } from "@mui/material";
import { HEADER_ROW_ID } from "./grid-keyboard";
import type { GridSortModel, SettingsColumn } from "./settings-grid";

/**
 * SettingsGrid's header row: each column's name (its description as a tooltip), aria-sort, and a
 * click (or Enter, SettingsGrid's keys) that sorts by it. The headers are cells of the grid's
 * keyboard navigation; `tabStopField` holds the grid's tab stop.
 */
export function SettingsGridHeader<R extends object>(p: {
  columns: readonly SettingsColumn<R>[];
  sortModel: GridSortModel;
  tabStopField: string | null;
  onSort: (field: string) => void;
}) {
  return (
    <TableHead>
      <TableRow role="row">
        {p.columns.map((c) => {
          const direction = p.sortModel.find((s) => s.field === c.field)?.sort ?? undefined;
          const isSortable = c.sortable !== false && c.type !== "actions";
          const name = c.headerName ?? "";
          return (
            <TableCell
              key={c.field}
              role="columnheader"
              data-rowid={HEADER_ROW_ID}
              data-field={c.field}
              tabIndex={p.tabStopField === c.field ? 0 : -1}
              aria-sort={direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none"}
              align={c.type === "number" ? "right" : undefined}
              onClick={isSortable ? () => p.onSort(c.field) : undefined}
              sx={{
                width: c.width,
                minWidth: c.width ?? c.minWidth,
                fontWeight: 500,
                cursor: isSortable ? "pointer" : undefined,
              }}
            >
              <Tooltip title={c.description ?? ""} describeChild>
                {isSortable ? (
                  <TableSortLabel tabIndex={-1} active={direction != null} direction={direction ?? "asc"}>
                    {name}
                  </TableSortLabel>
                ) : (
                  <span>{name}</span>
                )}
              </Tooltip>
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
}
