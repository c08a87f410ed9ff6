import { z } from "zod";

export const ZId = z.uuid();
export type TId = z.infer<typeof ZId>;

/** Every error answer: `{ message }` in the product's words. */
export const ZMessage = z.object({ message: z.string() });
export type TMessage = z.infer<typeof ZMessage>;

/** A trimmed, bounded, required string. */
export const zText = (max: number, min = 1) => z.string().trim().min(min).max(max);

export const ZIdParams = z.strictObject({ id: ZId });

export const ZIsoDateTime = z.iso.datetime({ offset: true });

/** Server messages shared by every route (spec settings §8 "Server"). */
export const SERVER_MESSAGES = {
  unauthorized: "Unauthorized",
  forbidden: "Forbidden resource",
  internal: "Internal server error",
  crossOrigin: "Requests from another site are refused",
} as const;
