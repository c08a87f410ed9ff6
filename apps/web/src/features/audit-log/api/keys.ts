import type { TAuditResource } from "@linewatch/contracts";
import type { TAuditFilter } from "../audit-log.filters";

/** Query keys of the audit log; the customer is part of the key (provider staff switch customers). */
export const auditLogKeys = {
  all: ["audit-log"] as const,
  page: (customerId: string | undefined, filter: TAuditFilter, offset: number) =>
    ["audit-log", customerId ?? "none", "page", filter, offset] as const,
  history: (customerId: string | undefined, resource: TAuditResource, resourceId: string, offset: number) =>
    ["audit-log", customerId ?? "none", "history", resource, resourceId, offset] as const,
};
