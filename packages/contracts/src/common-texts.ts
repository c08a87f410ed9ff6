// common.ts's texts and text checks, apart from its zod helpers: the signed-in frame shows the
// server's messages and loads without zod (issue #17: a module goes whole into the chunk that
// uses it, and common.ts's helpers are kept for every page's schemas).

/**
 * Text the database cannot hold: NUL (PostgreSQL's text refuses it) and unpaired UTF-16
 * surrogates (they would be stored as U+FFFD, not as what was sent). Matched as code units.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this finds.
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const TEXT_MESSAGES = {
  unstorable: "must not contain NUL characters or unpaired surrogates",
} as const;

/** True when the database can store the text as it is. */
export const isStorableText = (s: string) => !UNSTORABLE_TEXT.test(s);

/**
 * The text with what the database cannot hold made visible instead: NUL as the six characters
 * `\u0000`, an unpaired surrogate as U+FFFD. For keeping a sample of refused input.
 */
export const toStorableText = (s: string) =>
  s.replace(new RegExp(UNSTORABLE_TEXT.source, "g"), (c) => (c === "\u0000" ? "\\u0000" : "\uFFFD"));

/**
 * One field a request's validation refused (a 400's `fields`, beside its `message`): where — the
 * request part (`body`, `querystring`, `params`, `headers`) and the field's dotted path in it, "" for the part as a
 * whole — and the contract's own message, so a form can show it under its field without reading
 * the message's words.
 */
export type TFieldProblem = { readonly in: string; readonly field: string; readonly message: string };

/** Server messages shared by every route (requirements.md settings §8 "Server"). */
export const SERVER_MESSAGES = {
  unauthorized: "Unauthorized",
  forbidden: "Forbidden resource",
  internal: "Internal server error",
  crossOrigin: "Requests from another site are refused",
} as const;
