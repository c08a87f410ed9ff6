import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, parseCsv, toCsv } from "./csv.js";

const FORMULA = ["=", "+", "-", "@"];
const DANGEROUS_START = [...FORMULA, "\t", "\r"];
/** Whatever a spreadsheet may split a line on: the comma, the semicolon of many locales, tabs, line breaks. */
const SEPARATORS = /[,;\t\r\n]/;
// Cells built to hit the edge cases often: formula characters, quotes, separators, line breaks.
const cellArb = fc.oneof(
  fc.string(),
  fc
    .tuple(fc.constantFrom(...DANGEROUS_START, '"', ",", ";", "\n", "'", " "), fc.string())
    .map(([a, b]) => a + b),
  fc
    .array(fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", '"', ",", ";", "a", " ", "'"), {
      maxLength: 10,
    })
    .map((a) => a.join("")),
);

/**
 * Every field any of those separators could cut from the file, read as a spreadsheet that does
 * or does not honour quotes might: leading spaces and quotes dropped. None may begin a formula.
 */
function fieldsOfAnySplit(text: string): string[] {
  return text
    .replace(/^\uFEFF/, "")
    .split(SEPARATORS)
    .map((f) => f.replace(/^[ "]*/, ""));
}

describe("CSV export (docs/architecture.md 'CSV export')", () => {
  it("starts with a byte order mark and ends rows with CRLF", () => {
    expect(
      toCsv([
        ["a", "b"],
        [1, null],
      ]),
    ).toBe("\uFEFFa,b\r\n1,\r\n");
  });

  it("quotes every cell holding a comma, a semicolon, a quote or a line break, and only those", () => {
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"');
    expect(csvCell("plain text 1.5")).toBe("plain text 1.5");
    expect(csvCell("it's")).toBe("it's");
  });

  it("guards a formula character at the start of a cell and after any separator inside it", () => {
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("\r")).toBe('"\'\r"');
    expect(csvCell("\tx")).toBe("'\tx");
    // A semicolon-locale spreadsheet splits here, whatever the quotes say.
    expect(csvCell('Press;=HYPERLINK("http://evil.example")')).toBe(
      '"Press;\'=HYPERLINK(""http://evil.example"")"',
    );
    expect(csvCell("a, +1;@x\t-2\n=3")).toBe("\"a,' +1;'@x\t'-2\n'=3\"");
    // Spaces and quotes before the formula character do not hide it.
    expect(csvCell(' ="x"')).toBe('"\' =""x"""');
    expect(csvCell('a; "=x"')).toBe('"a;\' ""=x"""');
    // No formula character, nothing added.
    expect(csvCell("a;b, c")).toBe('"a;b, c"');
  });

  it("leaves no field that any separator could cut from the file beginning a formula", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (rows) => {
          for (const field of fieldsOfAnySplit(toCsv(rows)))
            expect(
              FORMULA.some((f) => field.startsWith(f)),
              JSON.stringify(field),
            ).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("reads back any grid of cells as written, but for the ' guards", () => {
    const noApostrophe = cellArb.map((c) => c.replaceAll("'", ""));
    fc.assert(
      fc.property(
        fc.array(fc.array(noApostrophe, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const read = parseCsv(toCsv(rows));
          expect(read.map((r) => r.map((c) => c.replaceAll("'", "")))).toEqual(rows);
          // A cell is changed only where a formula could start.
          read.flat().forEach((c, i) => {
            const original = rows.flat()[i] as string;
            if (c !== original) expect(/(^|[,;\t\r\n])[ "]*[=+\-@]|^[\t\r]/.test(original)).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
