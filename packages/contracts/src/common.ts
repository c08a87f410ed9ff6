import { z } from "zod";

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
 * Every string of every contract: text the database can hold, so a NUL answers 400 naming the
 * field instead of failing in the database. Contracts use this, never `z.string()` directly.
 */
export const zString = (params?: Parameters<typeof z.string>[0]) =>
  // abort: one message for the one problem; the field's other checks would only add noise.
  z.string(params).refine(isStorableText, { error: TEXT_MESSAGES.unstorable, abort: true });

export const ZId = z.uuid();
export type TId = z.infer<typeof ZId>;

/** Every error answer: `{ message }` in the product's words. */
export const ZMessage = z.object({ message: zString() });
export type TMessage = z.infer<typeof ZMessage>;

/** A trimmed, bounded, required string. */
export const zText = (max: number, min = 1) => zString().trim().min(min).max(max);

export const ZIdParams = z.strictObject({ id: ZId });

export const ZIsoDateTime = z.iso.datetime({ offset: true });

/** Server messages shared by every route (spec settings §8 "Server"). */
export const SERVER_MESSAGES = {
  unauthorized: "Unauthorized",
  forbidden: "Forbidden resource",
  internal: "Internal server error",
  crossOrigin: "Requests from another site are refused",
} as const;
