import { z } from "zod";
import { RETENTION_BOUNDS, RETENTION_MESSAGES, type TRetentionField } from "./retention-texts.js";

/**
 * A customer's data retention (issue 31 §2; docs/decisions/0301-retention-per-customer.md): days
 * per kind of row, null for "keep for ever". `GET /api/retention` answers the stored values or the
 * defaults (RETENTION_DEFAULTS); `PUT /api/retention` (administrators) sets all four.
 */
const days = (field: TRetentionField) =>
  z
    .number(RETENTION_MESSAGES.required(field))
    .int(RETENTION_MESSAGES.whole(field))
    .min(RETENTION_BOUNDS.min[field], RETENTION_MESSAGES.min(field))
    .max(RETENTION_BOUNDS.maxDays, RETENTION_MESSAGES.max(field))
    .nullable();

export const ZRetention = z.strictObject({
  partRecordsDays: days("partRecordsDays"),
  evaluationsDays: days("evaluationsDays"),
  resolvedAlertsDays: days("resolvedAlertsDays"),
  auditLogDays: days("auditLogDays"),
});
export type TRetention = z.infer<typeof ZRetention>;

/** GET /api/retention: the values in force, and whether they are the defaults (no row stored). */
export const ZRetentionResponse = z.object({
  ...ZRetention.shape,
  isDefault: z.boolean(),
});
export type TRetentionResponse = z.infer<typeof ZRetentionResponse>;

/** PUT /api/retention: all four fields, each a whole number of days in its bounds or null. */
export const ZRetentionBody = ZRetention;
export type TRetentionBody = z.infer<typeof ZRetentionBody>;
