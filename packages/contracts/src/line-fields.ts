import { z } from "zod";
import { ZId, zString } from "./common.js";
import {
  ALERT_VIEWING_WINDOW_MAX,
  ALERT_VIEWING_WINDOW_MIN,
  EXCLUDED_VALUES_MAX,
  FEEDER_LINES_MAX,
  FRIENDLY_NAME_MAX,
  INGESTION_THRESHOLD_MAX,
  LINE_MANAGEMENT_MESSAGES as M,
} from "./lines.js";

// The line fields that Settings edits, and the bodies that change them, apart from lines.ts: the
// line overview and the top bar use lines.ts's texts and helpers only, and so load without zod
// (issue #17: wherever one export of a module is used, all of the module's schemas are built).

/** Friendly Name (line): alphanumeric, no leading spaces (requirements.md settings §5); spaces inside are kept. */
export const ZLineFriendlyName = zString()
  .max(FRIENDLY_NAME_MAX)
  .refine((s) => !/^\s/.test(s), { error: M.friendlyNameLeadingSpace, abort: true })
  .refine((s) => /^[\p{L}\p{N} ]*$/u.test(s), { error: M.friendlyNameAlphanumeric });

/** Ingestion Alert Threshold / No Data Alert hours: a whole number 0 to 1,000,000. */
export const ZIngestionThresholdHours = z
  .number({ error: M.wholeNumber })
  .int({ error: M.wholeNumber })
  .min(0, { error: M.thresholdMin })
  .max(INGESTION_THRESHOLD_MAX, { error: M.thresholdMax });

export const ZAlertViewingWindowDays = z
  .number({ error: M.alertFilterRange })
  .int({ error: M.alertFilterRange })
  .min(ALERT_VIEWING_WINDOW_MIN, { error: M.alertFilterRange })
  .max(ALERT_VIEWING_WINDOW_MAX, { error: M.alertFilterRange });

const uniqueList = <T extends z.ZodType<string>>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((a) => new Set(a).size === a.length, { error: "must not repeat a value" });

/**
 * PATCH /api/lines/{lineId} (requirements.md settings §7): any of the fields; the empty friendly name is
 * sent as null (§5). The answer is the updated line.
 */
export const ZLinePatch = z
  .strictObject({
    active: z.boolean(),
    friendlyName: ZLineFriendlyName.nullable(),
    ingestionThresholdHours: ZIngestionThresholdHours.nullable(),
    feederLineIds: uniqueList(ZId, FEEDER_LINES_MAX),
    excludedPartIds: uniqueList(zString().min(1).max(200), EXCLUDED_VALUES_MAX),
    excludedModelNumbers: uniqueList(zString().min(1).max(200), EXCLUDED_VALUES_MAX),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { error: "Nothing to update" });
export type TLinePatch = z.infer<typeof ZLinePatch>;

export const ZAlertViewingWindowBody = z.strictObject({ alertViewingWindowDays: ZAlertViewingWindowDays });
