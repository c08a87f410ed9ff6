import { z } from "zod";
import { ZId, zString } from "./common.js";

export const PLANT_MESSAGES = { notFound: "Plant not found" } as const;

export const ZPlant = z.object({ id: ZId, name: zString(), timeZone: zString() });
export type TPlant = z.infer<typeof ZPlant>;
export const ZPlantList = z.array(ZPlant);
export const ZPlantParams = z.strictObject({ plantId: ZId });

/** GET /api/plants/{plantId}/ingestor (spec monitor-forms §7). */
export const ZIngestor = z.object({ id: ZId });
export type TIngestor = z.infer<typeof ZIngestor>;
