/**
 * Safe evaluator for SPC limit formulas (spec settings "SPC signal limits": "A formula may contain a
 * reference to a signal by id"; docs/monitoring.md "CAP": numbers, + − × ÷, parentheses, min, max, abs,
 * signal references; no code execution). A hand-written recursive-descent parser; nothing here
 * calls eval or Function.
 *
 * Syntax (whitespace is ignored between tokens):
 *   formula  := sum
 *   sum      := product (("+" | "-") product)*
 *   product  := unary (("*" | "/") unary)*
 *   unary    := "-" unary | primary
 *   primary  := number | signal | call | "(" sum ")"
 *   number   := digits ["." digits] | "." digits, optional exponent e.g. 1.5e-3
 *   signal   := "{" uuid "}"      e.g. {3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c}
 *   call     := ("min" | "max") "(" sum ("," sum)* ")" | "abs" "(" sum ")"   (names in any case)
 *
 * Signal ids sit in braces because a bare uuid would be ambiguous: its hyphens read as minus
 * signs and "1e10000-…" starts like a number. Ids are matched case-insensitively and reported in
 * lower case. Positions are 0-based character indices into the source; an unexpected end is
 * reported at the source length.
 */

export type FormulaNode =
  | { readonly kind: "number"; readonly value: number; readonly position: number }
  | { readonly kind: "signal"; readonly id: string; readonly position: number }
  | { readonly kind: "negate"; readonly operand: FormulaNode; readonly position: number }
  | {
      readonly kind: "binary";
      readonly operator: "+" | "-" | "*" | "/";
      readonly left: FormulaNode;
      readonly right: FormulaNode;
      readonly position: number;
    }
  | {
      readonly kind: "call";
      readonly name: "min" | "max" | "abs";
      readonly args: readonly FormulaNode[];
      readonly position: number;
    };

export interface FormulaError {
  readonly message: string;
  /** 0-based index of the offending character in the source. */
  readonly position: number;
}

export type ParseLimitFormulaResult =
  | {
      readonly ok: true;
      readonly ast: FormulaNode;
      /** Referenced signal ids, lower case, each once, in order of first appearance. */
      readonly references: readonly string[];
    }
  | { readonly ok: false; readonly error: FormulaError };

export type EvaluateLimitFormulaResult =
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly error: FormulaError & { readonly signalId?: string } };

/** Longest formula accepted, in characters; a limit cell never needs more. */
export const MAX_FORMULA_LENGTH = 1000;
/** Deepest nesting of parentheses, calls and unary minus, so a hostile input cannot exhaust the stack. */
export const MAX_FORMULA_DEPTH = 64;

const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/y;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

class ParseFailure extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Parses a limit formula into an AST and the ids it references; never throws. */
export function parseLimitFormula(source: string): ParseLimitFormulaResult {
  if (source.length > MAX_FORMULA_LENGTH) {
    return fail(`formula is longer than ${MAX_FORMULA_LENGTH} characters`, MAX_FORMULA_LENGTH);
  }
  const parser = new Parser(source);
  try {
    parser.skipSpace();
    if (parser.isAtEnd()) return fail("formula is empty", 0);
    const ast = parser.sum(0);
    parser.skipSpace();
    if (!parser.isAtEnd()) throw parser.unexpected();
    return { ok: true, ast, references: [...parser.references] };
  } catch (error) {
    if (error instanceof ParseFailure) return fail(error.message, error.position);
    throw error;
  }
}

function fail(message: string, position: number): ParseLimitFormulaResult {
  return { ok: false, error: { message: `${message} (at position ${position})`, position } };
}

class Parser {
  private index = 0;
  readonly references = new Set<string>();

  constructor(private readonly source: string) {}

  isAtEnd(): boolean {
    return this.index >= this.source.length;
  }

  skipSpace(): void {
    while (!this.isAtEnd() && /\s/.test(this.source[this.index] as string)) this.index++;
  }

  unexpected(): ParseFailure {
    if (this.isAtEnd()) return new ParseFailure("unexpected end of formula", this.index);
    return new ParseFailure(`unexpected '${this.source[this.index]}'`, this.index);
  }

  private peek(): string | undefined {
    this.skipSpace();
    return this.source[this.index];
  }

  private expect(char: string): void {
    if (this.peek() !== char) {
      const failure = this.unexpected();
      throw new ParseFailure(
        `expected '${char}' but found ${failure.message.replace("unexpected ", "")}`,
        failure.position,
      );
    }
    this.index++;
  }

  private checkDepth(depth: number): void {
    if (depth > MAX_FORMULA_DEPTH) {
      throw new ParseFailure(`formula is nested more than ${MAX_FORMULA_DEPTH} levels deep`, this.index);
    }
  }

  sum(depth: number): FormulaNode {
    let left = this.product(depth);
    for (;;) {
      const op = this.peek();
      if (op !== "+" && op !== "-") return left;
      const position = this.index++;
      left = { kind: "binary", operator: op, left, right: this.product(depth), position };
    }
  }

  private product(depth: number): FormulaNode {
    let left = this.unary(depth);
    for (;;) {
      const op = this.peek();
      if (op !== "*" && op !== "/") return left;
      const position = this.index++;
      left = { kind: "binary", operator: op, left, right: this.unary(depth), position };
    }
  }

  private unary(depth: number): FormulaNode {
    this.checkDepth(depth);
    if (this.peek() === "-") {
      const position = this.index++;
      return { kind: "negate", operand: this.unary(depth + 1), position };
    }
    return this.primary(depth);
  }

  private primary(depth: number): FormulaNode {
    const char = this.peek();
    const position = this.index;
    if (char === "(") {
      this.index++;
      const inner = this.sum(depth + 1);
      this.expect(")");
      return inner;
    }
    if (char === "{") {
      UUID.lastIndex = position + 1;
      const match = UUID.exec(this.source);
      if (match === null) throw new ParseFailure("expected a signal id (uuid) after '{'", position + 1);
      const end = position + 1 + match[0].length;
      if (this.source[end] !== "}") throw new ParseFailure("expected '}' after the signal id", end);
      this.index = end + 1;
      const id = match[0].toLowerCase();
      this.references.add(id);
      return { kind: "signal", id, position };
    }
    NUMBER.lastIndex = position;
    const number = NUMBER.exec(this.source);
    if (number !== null) {
      const value = Number(number[0]);
      if (!Number.isFinite(value)) throw new ParseFailure(`number ${number[0]} is out of range`, position);
      this.index = position + number[0].length;
      return { kind: "number", value, position };
    }
    NAME.lastIndex = position;
    const name = NAME.exec(this.source);
    if (name !== null) {
      const lower = name[0].toLowerCase();
      if (lower !== "min" && lower !== "max" && lower !== "abs") {
        throw new ParseFailure(`unknown name '${name[0]}'; only min, max and abs are allowed`, position);
      }
      this.index = position + name[0].length;
      this.expect("(");
      const args = [this.sum(depth + 1)];
      while (this.peek() === ",") {
        this.index++;
        args.push(this.sum(depth + 1));
      }
      this.expect(")");
      if (lower === "abs" && args.length !== 1) {
        throw new ParseFailure(`abs takes 1 argument, got ${args.length}`, position);
      }
      return { kind: "call", name: lower, args, position };
    }
    throw this.unexpected();
  }
}

/**
 * Evaluates a parsed formula with the referenced signals' values for one record. Never throws:
 * a missing or non-finite signal value, a division by zero or an overflow is an error carrying
 * the position of the reference or operator.
 */
export function evaluateLimitFormula(
  ast: FormulaNode,
  values: ReadonlyMap<string, number> | Readonly<Record<string, number>>,
): EvaluateLimitFormulaResult {
  const lookup = (id: string): number | undefined =>
    values instanceof Map
      ? values.get(id)
      : Object.hasOwn(values, id)
        ? (values as Record<string, number>)[id]
        : undefined;
  try {
    const value = evaluateNode(ast, lookup);
    if (!Number.isFinite(value)) {
      return { ok: false, error: { message: "formula result is out of range", position: ast.position } };
    }
    return { ok: true, value };
  } catch (error) {
    if (error instanceof EvaluationFailure) {
      return {
        ok: false,
        error: {
          message: `${error.message} (at position ${error.position})`,
          position: error.position,
          ...(error.signalId === undefined ? {} : { signalId: error.signalId }),
        },
      };
    }
    throw error;
  }
}

class EvaluationFailure extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly signalId?: string,
  ) {
    super(message);
  }
}

function evaluateNode(node: FormulaNode, lookup: (id: string) => number | undefined): number {
  switch (node.kind) {
    case "number":
      return node.value;
    case "signal": {
      const value = lookup(node.id) ?? lookup(node.id.toUpperCase());
      if (value === undefined)
        throw new EvaluationFailure(`no value for signal ${node.id}`, node.position, node.id);
      if (!Number.isFinite(value)) {
        throw new EvaluationFailure(`signal ${node.id} has a non-finite value`, node.position, node.id);
      }
      return value;
    }
    case "negate":
      return -evaluateNode(node.operand, lookup);
    case "binary": {
      const left = evaluateNode(node.left, lookup);
      const right = evaluateNode(node.right, lookup);
      switch (node.operator) {
        case "+":
          return left + right;
        case "-":
          return left - right;
        case "*":
          return left * right;
        case "/":
          if (right === 0) throw new EvaluationFailure("division by zero", node.position);
          return left / right;
      }
      break;
    }
    case "call": {
      const args = node.args.map((arg) => evaluateNode(arg, lookup));
      if (node.name === "abs") return Math.abs(args[0] as number);
      return node.name === "min" ? Math.min(...args) : Math.max(...args);
    }
  }
  throw new EvaluationFailure("unknown formula node", 0);
}
