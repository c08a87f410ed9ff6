import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, parseCsv, toCsv } from "./csv.js";

const DANGEROUS = ["=", "+", "-", "@", "\t", "\r"];
// Cells built to hit the edge cases often: formula starts, quotes, commas and line breaks.
const cellArb = fc.oneof(
  fc.string(),
  fc.tuple(fc.constantFrom(...DANGEROUS, '"', ",", "\n", "'"), fc.string()).map(([a, b]) => a + b),
  fc
    .array(fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", '"', ",", "a", " "), { maxLength: 8 })
    .map((a) => a.join("")),
);

describe("CSV export (architecture.md 'CSV export')", () => {
  it("starts with a byte order mark and ends rows with CRLF", () => {
    expect(
      toCsv([
        ["a", "b"],
        [1, null],
      ]),
    ).toBe("\uFEFFa,b\r\n1,\r\n");
  });

  it("escapes every cell that begins with = + - @ tab or carriage return, and only those", () => {
    fc.assert(
      fc.property(cellArb, (cell) => {
        const [[read]] = parseCsv(toCsv([[cell]])) as [[string]];
        const dangerous = DANGEROUS.some((d) => cell.startsWith(d));
        expect(read).toBe(dangerous ? `'${cell}` : cell);
        // What a spreadsheet reads never begins a formula.
        expect(DANGEROUS.some((d) => read.startsWith(d))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads back any grid of cells as written, row by row", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const expected = rows.map((r) =>
            r.map((c) => (DANGEROUS.some((d) => c.startsWith(d)) ? `'${c}` : c)),
          );
          expect(parseCsv(toCsv(rows))).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("quotes cells with quotes, commas and line breaks", () => {
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("\r")).toBe('"\'\r"');
  });
});
