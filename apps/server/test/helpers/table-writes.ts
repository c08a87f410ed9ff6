// Finds the places the server writes a table (issue 30's one-writer guards: the alerts store,
// modules/part-records): Drizzle's insert / update / delete of the table's object, under an
// imported alias too, and SQL text that writes it (INSERT, UPDATE, DELETE, COPY, TRUNCATE) by its
// name or through `${table}`. Reads do not count.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { getTableName, type Table } from "drizzle-orm";

/** apps/server/src: the sources the guards scan. */
export const SERVER_SRC = fileURLToPath(new URL("../../src", import.meta.url));

const SCANNED = /\.(ts|tsx|js|mjs|cjs|sql)$/;

const alternatives = (names: string[]) => names.map((n) => n.replace(/[$.]/g, "\\$&")).join("|");

/** The writes of `tables` (by their names in the schema's exports) in a text, as the text spells them. */
export function tableWrites(text: string, tables: Record<string, Table>): string[] {
  const jsNames = Object.keys(tables);
  // `import { deadLetters as dl }` writes through `dl`.
  const aliases = [...text.matchAll(new RegExp(`\\b(?:${alternatives(jsNames)})\\s+as\\s+(\\w+)`, "g"))].map(
    (m) => m[1] as string,
  );
  const js = alternatives([...jsNames, ...aliases]);
  const sqlNames = alternatives(Object.values(tables).map((t) => getTableName(t)));
  const drizzle = new RegExp(`\\.\\s*(?:insert|update|delete)\\s*\\(\\s*(?:\\w+\\.)?(?:${js})\\s*[,)]`, "g");
  const sqlText = new RegExp(
    `\\b(?:insert\\s+into|update|delete\\s+from|copy|truncate(?:\\s+table)?)\\s+(?:only\\s+)?` +
      `(?:"?public"?\\s*\\.\\s*)?(?:"?(?:${sqlNames})"?(?![\\w])|\\$\\{\\s*(?:\\w+\\.)?(?:${js})\\s*\\})`,
    "gi",
  );
  return [...text.matchAll(drizzle), ...text.matchAll(sqlText)].map((m) => m[0].replace(/\s+/g, " "));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : filesUnder(path);
    return SCANNED.test(e.name) ? [path] : [];
  });
}

/** Every server source (tests and migrations included; a guard filters) with its writes of `tables`. */
export function scanServerWrites(tables: Record<string, Table>): { file: string; writes: string[] }[] {
  return filesUnder(SERVER_SRC).map((path) => ({
    file: relative(SERVER_SRC, path).split("\\").join("/"),
    writes: tableWrites(readFileSync(path, "utf8"), tables),
  }));
}
