/** Bytes read from the start of a file to find its header row (64 KiB). */
const HEADER_PROBE_BYTES = 64 * 1024;

/**
 * The first record of CSV text (RFC 4180: commas between cells, double quotes around cells that
 * hold commas, quotes written twice, or line breaks). Cells are trimmed as the server trims them.
 */
export function firstCsvRecord(text: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === "") {
      cell = "";
      inQuotes = true;
    } else if (ch === ",") {
      cells.push(cell.trim());
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      // A header after blank lines: the server skips empty lines too.
      if (cells.length === 0 && cell.trim() === "") continue;
      break;
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** The header row of a CSV file, read from its first bytes only. */
export async function readCsvHeader(file: Blob): Promise<string[]> {
  return firstCsvRecord(await file.slice(0, HEADER_PROBE_BYTES).text());
}

/** A file size for people: "812 B", "48.2 KB", "5.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1_048_576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
