// The Settings grids' keyboard use, as the data grid had it: one tab stop in the grid (the cell
// last focused, else the first cell), the arrow keys move it between cells and to the headers,
// a cell's control with tabIndex 0 (a select, a button) takes the focus with its cell.

/** The row id the header cells carry. */
export const HEADER_ROW_ID = "__header";

export type CellFocus = { id: string; field: string };

const ARROWS: Record<string, "up" | "down" | "left" | "right"> = {
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
};

export const arrowOf = (key: string) => ARROWS[key];

/** Where a cell sits: its element carries data-rowid and data-field. */
export function cellFocusOf(el: HTMLElement | null): CellFocus | null {
  const id = el?.dataset.rowid;
  const field = el?.dataset.field;
  return id != null && field != null ? { id, field } : null;
}

/** The cell element of the grid's table that `target` is in, if any. */
export function cellOf(table: HTMLElement | null, target: EventTarget | null): HTMLElement | null {
  if (!table || !(target instanceof HTMLElement) || !table.contains(target)) return null;
  const cell = target.closest<HTMLElement>("[data-rowid]");
  return cell && table.contains(cell) ? cell : null;
}

export function findCell(table: HTMLElement | null, focus: CellFocus): HTMLElement | null {
  if (!table) return null;
  for (const el of table.querySelectorAll<HTMLElement>("[data-rowid]")) {
    if (el.dataset.rowid === focus.id && el.dataset.field === focus.field) return el;
  }
  return null;
}

/** Text is typed in it: its arrow keys move the caret, Enter and Escape end the row's edit. */
export const isTextInput = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.tagName === "TEXTAREA" ||
    (el.tagName === "INPUT" && !/^(checkbox|radio)$/.test((el as HTMLInputElement).type)));

/** The cell next to `cell` in direction `dir` (rows by the column under it, spans counted), or null. */
export function neighbourCell(
  table: HTMLElement,
  cell: HTMLTableCellElement,
  dir: "up" | "down" | "left" | "right",
): HTMLElement | null {
  const row = cell.parentElement as HTMLTableRowElement | null;
  if (!row) return null;
  const cells = [...row.cells].filter((c) => c.dataset.rowid != null);
  const at = cells.indexOf(cell);
  if (dir === "left") return cells[at - 1] ?? null;
  if (dir === "right") return cells[at + 1] ?? null;
  const column = cells.slice(0, at).reduce((n, c) => n + c.colSpan, 0);
  const rows = [...table.querySelectorAll<HTMLTableRowElement>("tr")].filter((r) =>
    r.querySelector("[data-rowid]"),
  );
  const next = rows[rows.indexOf(row) + (dir === "up" ? -1 : 1)];
  if (!next) return null;
  let start = 0;
  for (const c of next.cells) {
    if (c.dataset.rowid == null) continue;
    if (column < start + c.colSpan) return c;
    start += c.colSpan;
  }
  return null;
}
