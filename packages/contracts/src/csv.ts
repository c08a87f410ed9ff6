// CSV exports (docs/architecture.md "CSV export"): UTF-8 with a byte order mark, RFC 4180 quoting, and
// no field a spreadsheet could run as a formula. A spreadsheet may split a line on the comma, on
// the semicolon (the list separator of many locales, where quotes that do not open a field mean
// nothing), on tabs or on line breaks; so a formula character (= + - @) is guarded with ' at the
// start of a cell and after every such separator inside it, also behind spaces or quotes, and a
// cell beginning with a tab or carriage return is guarded as before. Every cell holding a comma, a
// semicolon, a quote or a line break is quoted.

/** Where a field could begin (the cell's start, or after a separator) followed by a formula character. */
const FORMULA_AFTER = /(^|[,;\t\r\n])(?=[ "]*[=+\-@])/g;
const CONTROL_START = /^[\t\r]/;
const NEEDS_QUOTES = /[",;\r\n]/;

/** One cell as written to the file: guarded, then quoted when it needs quotes. */
export function csvCell(value: unknown): string {
  let s = value == null ? "" : String(value);
  s = s.replace(FORMULA_AFTER, "$1'");
  if (CONTROL_START.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows as lines of the file, each ending with CRLF (a streamed file's later parts). */
export function toCsvLines(rows: readonly (readonly unknown[])[]): string {
  return rows.map((r) => `${r.map(csvCell).join(",")}\r\n`).join("");
}

/** The file's text: the byte order mark, then rows joined with CRLF. */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return `\uFEFF${toCsvLines(rows)}`;
}

/**
 * Reads a file `toCsv` wrote back into its cells (BOM dropped, quotes undone); the ' of an escaped
 * cell stays, as a spreadsheet would keep it. For tests and checks, not for arbitrary CSV.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && src[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length) rows.push([...row, cell]);
  return rows;
}
