import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  evaluateLimitFormula,
  type FormulaNode,
  MAX_FORMULA_DEPTH,
  MAX_FORMULA_LENGTH,
  parseLimitFormula,
} from "./limitFormula.js";

const A = "3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c";
const B = "00000000-0000-4000-8000-000000000001";

function parse(source: string): { ast: FormulaNode; references: readonly string[] } {
  const result = parseLimitFormula(source);
  if (!result.ok) throw new Error(`unexpected parse error: ${result.error.message}`);
  return result;
}

function value(source: string, values: Record<string, number> = {}): number {
  const result = evaluateLimitFormula(parse(source).ast, values);
  if (!result.ok) throw new Error(`unexpected evaluation error: ${result.error.message}`);
  return result.value;
}

function parseError(source: string): { message: string; position: number } {
  const result = parseLimitFormula(source);
  if (result.ok) throw new Error(`expected a parse error for ${source}`);
  return result.error;
}

describe("parseLimitFormula / evaluateLimitFormula", () => {
  it("evaluates numbers with the usual precedence and associativity", () => {
    expect(value("1 + 2 * 3")).toBe(7);
    expect(value("(1 + 2) * 3")).toBe(9);
    expect(value("10 - 4 - 3")).toBe(3);
    expect(value("12 / 3 / 2")).toBe(2);
    expect(value("-2 * -3")).toBe(6);
    expect(value("2 - -3")).toBe(5);
    expect(value("--4")).toBe(4);
    expect(value(".5 + 1.25e1 + 3.")).toBe(16);
    expect(value("  7\t\n")).toBe(7);
  });

  it("evaluates min, max and abs, in any case", () => {
    expect(value("min(3, 1, 2)")).toBe(1);
    expect(value("MAX(3, 1 + 9, 2)")).toBe(10);
    expect(value("abs(-2.5)")).toBe(2.5);
    expect(value("min(4)")).toBe(4);
    expect(value("max(abs(-7), min(2, 3) * 4)")).toBe(8);
  });

  it("references signals by {uuid}, listing each id once in lower case", () => {
    const { ast, references } = parse(`{${A}} + 0.5 * {${B.toUpperCase()}} - {${A}}`);
    expect(references).toEqual([A, B]);
    expect(evaluateLimitFormula(ast, { [A]: 10, [B]: 4 })).toEqual({ ok: true, value: 2 });
    expect(
      evaluateLimitFormula(
        ast,
        new Map([
          [A, 1],
          [B, 1],
        ]),
      ),
    ).toEqual({ ok: true, value: 0.5 });
    expect(parse("12.5").references).toEqual([]);
  });

  it.each([
    ["", 0, /empty/],
    ["   ", 0, /empty/],
    ["1 +", 3, /unexpected end/],
    ["1 ; 2", 2, /unexpected ';'/],
    ["2 * x", 4, /unknown name 'x'/],
    ["eval(1)", 0, /unknown name 'eval'/],
    ["Function(1)", 0, /unknown name 'Function'/],
    ["constructor", 0, /unknown name/],
    ["1 ** 2", 3, /unexpected '\*'/],
    ["(1 + 2", 6, /expected '\)'/],
    ["min 1", 4, /expected '\('/],
    ["abs(1, 2)", 0, /abs takes 1 argument/],
    ["{not-a-uuid}", 1, /signal id/],
    [`{${A}`, 37, /expected '}'/],
    [`${A}`, 1, /unexpected 'f'/],
    ["1e999", 0, /out of range/],
    ["+1", 0, /unexpected '\+'/],
    ["1 2", 2, /unexpected '2'/],
    ["2 × 3", 2, /unexpected '×'/],
    ["min()", 4, /unexpected '\)'/],
  ] as const)("rejects %j at position %i", (source, position, message) => {
    const error = parseError(source);
    expect(error.position).toBe(position);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`position ${position}`);
  });

  it("bounds length and nesting so hostile input cannot exhaust the stack", () => {
    expect(parseError("1+".repeat(MAX_FORMULA_LENGTH)).message).toMatch(/longer than/);
    const deep = `${"(".repeat(MAX_FORMULA_DEPTH + 1)}1${")".repeat(MAX_FORMULA_DEPTH + 1)}`;
    expect(parseError(deep).message).toMatch(/nested/);
    const fine = `${"(".repeat(MAX_FORMULA_DEPTH - 1)}1${")".repeat(MAX_FORMULA_DEPTH - 1)}`;
    expect(value(fine)).toBe(1);
    expect(parseError("-".repeat(200)).message).toMatch(/nested/);
  });

  it("reports evaluation problems with the position and signal instead of NaN or Infinity", () => {
    const missing = evaluateLimitFormula(parse(`1 + {${A}}`).ast, {});
    expect(missing).toEqual({
      ok: false,
      error: { message: `no value for signal ${A} (at position 4)`, position: 4, signalId: A },
    });
    const nonFinite = evaluateLimitFormula(parse(`{${A}}`).ast, { [A]: Number.NaN });
    expect(nonFinite.ok).toBe(false);
    const byZero = evaluateLimitFormula(parse(`5 / ({${A}} - 2)`).ast, { [A]: 2 });
    expect(byZero).toMatchObject({
      ok: false,
      error: { position: 2, message: expect.stringMatching(/division by zero/) },
    });
    const overflow = evaluateLimitFormula(parse("1e300 * 1e300").ast, {});
    expect(overflow).toMatchObject({ ok: false, error: { message: expect.stringMatching(/out of range/) } });
    // Inherited object keys are not signal values.
    expect(evaluateLimitFormula(parse(`{${A}}`).ast, Object.create({ [A]: 1 })).ok).toBe(false);
  });

  it("never executes code: the evaluator source calls neither eval nor Function", () => {
    const source = readFileSync(new URL("./limitFormula.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/\beval\s*\(|new\s+Function|\bFunction\s*\(/);
  });
});
