import { createSlicer, type Slicer } from "./slices.js";

/** One element of a top-level JSON array, with where its text lies in the whole. */
export type JsonElement = { value: unknown; start: number; end: number };
/** A JSON text: a top-level array element by element, or any other value whole. */
export type ParsedJson = { kind: "array"; elements: JsonElement[] } | { kind: "value"; value: unknown };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** JSON's four whitespace characters (RFC 8259 §2). */
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Where the array element starting at `i` ends: the index of the `,` or `]` after it at its own
 * depth, or -1 when the text ends first. Strings are skipped whole, so brackets and commas in
 * them count for nothing; whether the element itself is valid JSON is JSON.parse's to say.
 */
function elementEnd(text: string, i: number): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // The closing quote is the next one not escaped by an odd number of backslashes.
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) return -1;
        let b = q - 1;
        while (b > i && text.charCodeAt(b) === BACKSLASH) b--;
        from = q + 1;
        if ((q - 1 - b) % 2 === 0) break;
      }
      i = from - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return i;
      depth--;
    } else if (c === COMMA && depth === 0) return i;
  }
  return -1;
}

const syntaxError = (message: string) => new SyntaxError(message);

/**
 * JSON.parse for large texts, in slices (lib/slices.ts): a top-level array is cut into its
 * elements, each parsed on its own, with the event loop let run between slices — a 30 MB array
 * parsed at once held it for 1.4–2 s on a busy 2-core machine. Any other value is parsed whole.
 * Accepts and refuses exactly what `parse` (JSON.parse unless given) does on the whole text;
 * a refusal is a SyntaxError naming the element. The elements' positions let a caller keep a
 * record's text as it was received without serialising it again.
 */
export async function parseJsonInSlices(
  text: string,
  opts: { parse?: (text: string) => unknown; slicer?: Slicer } = {},
): Promise<ParsedJson> {
  const parse = opts.parse ?? JSON.parse;
  const slicer = opts.slicer ?? createSlicer();
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACKET) return { kind: "value", value: parse(text) };
  const elements: JsonElement[] = [];
  const finish = (close: number): ParsedJson => {
    const after = skipSpace(text, close + 1);
    if (after < text.length)
      throw syntaxError(`Unexpected non-whitespace character after JSON at position ${after}`);
    return { kind: "array", elements };
  };
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return finish(i);
  for (;;) {
    const end = elementEnd(text, i);
    if (end < 0) throw syntaxError("Unexpected end of JSON input");
    let value: unknown;
    try {
      value = parse(text.slice(i, end));
    } catch (err) {
      throw syntaxError(`${(err as Error).message} (element ${elements.length + 1} of the array)`);
    }
    let last = end;
    while (last > i && isSpace(text.charCodeAt(last - 1))) last--;
    elements.push({ value, start: i, end: last });
    if (text.charCodeAt(end) === CLOSE_BRACKET) return finish(end);
    if (text.charCodeAt(end) !== COMMA)
      throw syntaxError(`Unexpected token '${text[end]}' in JSON at position ${end}`);
    i = skipSpace(text, end + 1);
    await slicer.next();
  }
}
