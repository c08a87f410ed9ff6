import { z } from "zod";
import { isStorableText, TEXT_MESSAGES, type TFieldProblem } from "./common-texts.js";

/**
 * Every string of every contract: text the database can hold, so a NUL answers 400 naming the
 * field instead of failing in the database. Contracts use this, never `z.string()` directly.
 */
export const zString = (params?: Parameters<typeof z.string>[0]) =>
  // abort: one message for the one problem; the field's other checks would only add noise.
  z.string(params).refine(isStorableText, { error: TEXT_MESSAGES.unstorable, abort: true });

export const ZId = z.uuid();
export type TId = z.infer<typeof ZId>;

/** A field a request's validation refused (TFieldProblem). */
export const ZFieldProblem = z.object({
  in: zString(),
  field: zString(),
  message: zString(),
}) satisfies z.ZodType<TFieldProblem>;

/**
 * Every error answer: `{ message }` in the product's words; a refusal by the request's validation
 * (400) also lists the fields it refused, each with the contract's message.
 */
export const ZMessage = z.object({ message: zString(), fields: z.array(ZFieldProblem).optional() });
export type TMessage = z.infer<typeof ZMessage>;

/** A trimmed, bounded, required string. */
export const zText = (max: number, min = 1) => zString().trim().min(min).max(max);

export const ZIdParams = z.strictObject({ id: ZId });

export const ZIsoDateTime = z.iso.datetime({ offset: true });
