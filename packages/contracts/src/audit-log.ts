import { z } from "zod";
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_MAX,
  AUDIT_PAGE_SIZE,
  AUDIT_RESOURCES,
  type TAuditResource,
} from "./audit-log-texts.js";
import { ZId, ZIsoDateTime, zString, zText } from "./common.js";

/**
 * The audit trail (issue "Beyond the spec" §2): every configuration change, recorded in the same
 * transaction as the change, append-only and scoped to the customer. Secret values never enter a
 * record: a secret field is recorded as `AUDIT_SECRET_MARK` when it was set or changed.
 */

export const ZAuditResource = z.enum(AUDIT_RESOURCES);

/** Resources whose history only administrators read (the rest: every user of the customer). */
export const AUDIT_ADMIN_ONLY_RESOURCES: readonly TAuditResource[] = [
  "data_source",
  "ingest_token",
  "api_token",
  "mqtt_credential",
  "user",
  // Data retention is read by administrators only (GET /api/retention), its history too.
  "retention",
];

export const ZAuditAction = z.enum(AUDIT_ACTIONS);

/** Stands in a record for a secret's value: only that it was set or changed is kept. */
export const AUDIT_SECRET_MARK = "(secret changed)";

/** A resource's fields as recorded: plain JSON values, no secret among them. */
export const ZAuditFields = z.record(zString(), z.unknown());
export type TAuditFields = z.infer<typeof ZAuditFields>;

export const ZAuditEntry = z.object({
  id: ZId,
  at: ZIsoDateTime,
  /** The acting user (who may since have been deleted: the e-mail says who it was). */
  actorUserId: ZId.nullable(),
  actorEmail: zString(),
  /** Provider staff acting for the customer (docs/architecture.md "who may change what"). */
  actorIsProviderStaff: z.boolean(),
  resource: ZAuditResource,
  /** The resource's id (a uuid; for monitor rules the monitor's id). */
  resourceId: zString(),
  /** The resource's name when the change was made (line name, signal name, user e-mail, …). */
  resourceName: zString(),
  action: ZAuditAction,
  plantId: ZId.nullable(),
  lineId: ZId.nullable(),
  /** The fields before the change (null for a create) and after it (null for a delete). */
  before: ZAuditFields.nullable(),
  after: ZAuditFields.nullable(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

const ZAuditFilter = z.strictObject({
  resource: ZAuditResource.optional(),
  resourceId: zText(200).optional(),
  userId: ZId.optional(),
  /** Inclusive lower bound on `at`. */
  from: ZIsoDateTime.optional(),
  /** Exclusive upper bound on `at`. */
  to: ZIsoDateTime.optional(),
});

/** GET /api/audit-log (administrators): newest first. */
export const ZAuditLogQuery = ZAuditFilter.extend({
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type TAuditLogQuery = z.infer<typeof ZAuditLogQuery>;

/** GET /api/audit-log/export (administrators): the same filter, as CSV. */
export const ZAuditLogExportQuery = ZAuditFilter;
export type TAuditLogExportQuery = z.infer<typeof ZAuditLogExportQuery>;

export const ZAuditLogPage = z.object({
  entries: z.array(ZAuditEntry),
  /** Records matching the filter, for the grid's pager. */
  total: z.number().int().min(0),
});
export type TAuditLogPage = z.infer<typeof ZAuditLogPage>;

/** GET /api/audit-log/resources/:resource/:resourceId — one resource's own history. */
export const ZAuditHistoryParams = z.strictObject({
  resource: ZAuditResource,
  resourceId: zText(200),
});
export type TAuditHistoryParams = z.infer<typeof ZAuditHistoryParams>;

export const ZAuditHistoryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type TAuditHistoryQuery = z.infer<typeof ZAuditHistoryQuery>;

/** One changed field of a record, for display and export. */
export type TAuditChange = { field: string; before: unknown; after: unknown };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields a record changed, in the order they first appear (before's keys, then after's new
 * ones). A create lists every field with `before` undefined, a delete every field with `after`
 * undefined; an update only the fields whose values differ.
 */
export function auditChanges(before: TAuditFields | null, after: TAuditFields | null): TAuditChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }))
    .filter((c) => before === null || after === null || !same(c.before, c.after));
}
