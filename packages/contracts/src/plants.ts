import { z } from "zod";
import { ZId, zString } from "./common.js";
import { canonicalTimeZone, PLANT_MESSAGES, PLANT_NAME_MAX } from "./plant-texts.js";

/**
 * A plant of the customer (issue 28 §1). `GET /api/plants` lists the active ones (the top bar and
 * every plant selector); `?includeInactive=true` lists all (Settings → Plants, to reactivate).
 */
export const ZPlant = z.object({ id: ZId, name: zString(), timeZone: zString(), active: z.boolean() });
export type TPlant = z.infer<typeof ZPlant>;
export const ZPlantList = z.array(ZPlant);
export const ZPlantParams = z.strictObject({ plantId: ZId });

export const ZPlantListQuery = z.strictObject({
  includeInactive: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});
export type TPlantListQuery = z.input<typeof ZPlantListQuery>;

/** Trimmed, non-empty, at most PLANT_NAME_MAX characters. */
export const ZPlantName = zString()
  .trim()
  .min(1, PLANT_MESSAGES.nameRequired)
  .max(PLANT_NAME_MAX, PLANT_MESSAGES.nameTooLong);

/** An IANA time zone the runtime knows, answered in its canonical spelling. */
export const ZTimeZone = zString()
  .trim()
  .min(1, PLANT_MESSAGES.timeZoneRequired)
  .transform((tz, ctx) => {
    const canonical = canonicalTimeZone(tz);
    if (canonical) return canonical;
    ctx.addIssue({ code: "custom", message: PLANT_MESSAGES.timeZoneInvalid });
    return z.NEVER;
  });

/** POST /api/plants (administrators). */
export const ZCreatePlantBody = z.strictObject({ name: ZPlantName, timeZone: ZTimeZone });
export type TCreatePlantBody = z.input<typeof ZCreatePlantBody>;

/** PATCH /api/plants/:plantId (administrators): rename, move the time zone, (de)activate. */
export const ZUpdatePlantBody = z
  .strictObject({
    name: ZPlantName.optional(),
    timeZone: ZTimeZone.optional(),
    active: z.boolean().optional(),
  })
  .refine((b) => b.name !== undefined || b.timeZone !== undefined || b.active !== undefined, {
    message: PLANT_MESSAGES.nothingToChange,
  });
export type TUpdatePlantBody = z.input<typeof ZUpdatePlantBody>;

/** GET /api/plants/{plantId}/ingestor (requirements.md monitor-forms §7). */
export const ZIngestor = z.object({ id: ZId });
export type TIngestor = z.infer<typeof ZIngestor>;
