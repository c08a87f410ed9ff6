import { AUDIT_PAGE_SIZE, type TAuditLogPage, type TAuditResource } from "@linewatch/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ApiError, get } from "../../../shared/api/client";
import { useMe } from "../../../shared/data/session/queries";
import { auditQueryString, type TAuditFilter } from "../audit-log.filters";
import { auditLogKeys } from "./keys";

/** GET /api/audit-log (administrators): one page of the records the filter matches, newest first. */
export function useAuditLog(filter: TAuditFilter, offset: number, enabled = true) {
  const customerId = useMe().data?.customer.id;
  return useQuery({
    queryKey: auditLogKeys.page(customerId, filter, offset),
    queryFn: () =>
      get<TAuditLogPage>(`/api/audit-log?${auditQueryString(filter, { limit: AUDIT_PAGE_SIZE, offset })}`),
    enabled: enabled && !!customerId,
    // A page turn keeps the rows shown until the next page arrives (the pager does not jump).
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /api/audit-log/resources/:resource/:resourceId: one resource's own history, newest first. */
export function useResourceHistory(resource: TAuditResource, resourceId: string, offset: number) {
  const customerId = useMe().data?.customer.id;
  return useQuery({
    queryKey: auditLogKeys.history(customerId, resource, resourceId, offset),
    queryFn: () =>
      get<TAuditLogPage>(
        `/api/audit-log/resources/${resource}/${encodeURIComponent(resourceId)}?limit=${AUDIT_PAGE_SIZE}&offset=${offset}`,
      ),
    enabled: !!customerId,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The export's address for a filter (GET /api/audit-log/export, the list's filter as query string). */
export const auditExportPath = (filter: TAuditFilter) => {
  const qs = auditQueryString(filter);
  return `/api/audit-log/export${qs ? `?${qs}` : ""}`;
};

/**
 * Downloads the CSV of the records the filter matches. Fetched (not a plain link) so a refusal
 * (too many records: 400 with the server's message) is an ApiError the page can show.
 */
export async function downloadAuditCsv(filter: TAuditFilter): Promise<void> {
  const res = await fetch(auditExportPath(filter), { credentials: "same-origin" });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: unknown };
    const message = typeof body.message === "string" ? body.message : res.statusText;
    throw new ApiError(res.status, res.statusText, message);
  }
  const name =
    /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "audit-log.csv";
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Freed once the browser has taken the file (a revoke in the same task can cancel it in some).
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // 60 s
}
