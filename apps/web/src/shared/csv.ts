// CSV exports: the cells and the file are written by packages/contracts (one implementation for the
// server's exports and the browser's); this module adds the browser download.
import { toCsv } from "@linewatch/contracts";

export { csvCell, parseCsv, toCsv } from "@linewatch/contracts";

/** Saves the rows as `name`.csv in the browser's downloads. */
export function downloadCsv(name: string, rows: readonly (readonly unknown[])[]) {
  const blob = new Blob([toCsv(rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${name}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
