import {
  AUDIT_PAGE_SIZE,
  type TAuditResource,
  ZAuditResource,
  ZId,
  ZIsoDateTime,
} from "@linewatch/contracts";

/**
 * The audit log's filter as the page keeps it in the address (so a link reproduces the view):
 * `resource`, `user` (a user id), `from` and `to` (instants, ISO 8601), `page` (from 1). A value
 * that is not valid is left out, as if absent.
 */
export type TAuditFilter = {
  resource?: TAuditResource;
  userId?: string;
  /** Inclusive lower bound, ISO instant. */
  from?: string;
  /** Exclusive upper bound, ISO instant. */
  to?: string;
};

export type TAuditView = { filter: TAuditFilter; page: number };

const valid = <T>(
  schema: { safeParse: (v: unknown) => { success: boolean; data?: T } },
  v: string | null,
) => {
  if (v === null) return undefined;
  const r = schema.safeParse(v);
  return r.success ? (r.data as T) : undefined;
};

/** The view a page address names. */
export function auditViewFromParams(params: URLSearchParams): TAuditView {
  const filter: TAuditFilter = {};
  const resource = valid<TAuditResource>(ZAuditResource, params.get("resource"));
  const userId = valid<string>(ZId, params.get("user"));
  const from = valid<string>(ZIsoDateTime, params.get("from"));
  const to = valid<string>(ZIsoDateTime, params.get("to"));
  if (resource) filter.resource = resource;
  if (userId) filter.userId = userId;
  if (from) filter.from = from;
  if (to) filter.to = to;
  const page = Number(params.get("page"));
  return { filter, page: Number.isInteger(page) && page >= 1 ? page : 1 };
}

/** The page address's search params for a view (the first page and absent filters are left out). */
export function auditViewToParams(view: TAuditView): URLSearchParams {
  const p = new URLSearchParams();
  const f = view.filter;
  if (f.resource) p.set("resource", f.resource);
  if (f.userId) p.set("user", f.userId);
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  if (view.page > 1) p.set("page", String(view.page));
  return p;
}

/** The API's query string for a filter (ZAuditLogQuery / ZAuditLogExportQuery), plus paging. */
export function auditQueryString(filter: TAuditFilter, paging?: { limit: number; offset: number }): string {
  const p = new URLSearchParams();
  if (filter.resource) p.set("resource", filter.resource);
  if (filter.userId) p.set("userId", filter.userId);
  if (filter.from) p.set("from", filter.from);
  if (filter.to) p.set("to", filter.to);
  if (paging) {
    p.set("limit", String(paging.limit));
    p.set("offset", String(paging.offset));
  }
  return p.toString();
}

/** The API offset of a page of the log (pages from 1). */
export const auditOffset = (page: number) => (page - 1) * AUDIT_PAGE_SIZE;
