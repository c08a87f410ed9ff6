import {
  AUDIT_ADMIN_ONLY_RESOURCES,
  AUDIT_EXPORT_MAX,
  AUDIT_TEXTS,
  auditChanges,
  type TAuditAction,
  type TAuditEntry,
  type TAuditFields,
  type TAuditHistoryParams,
  type TAuditHistoryQuery,
  type TAuditLogExportQuery,
  type TAuditLogPage,
  type TAuditLogQuery,
  type TAuditResource,
  toCsv,
  toCsvLines,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { badRequest, forbidden } from "../../errors.js";
import { type AuditFilter, type AuditSelected, createAuditLogRepo } from "./audit-log.repo.js";

/**
 * Who made a change: the signed-in user (an AuthContext fits), for the customer the session acts
 * for. Spelled out rather than imported: the auth service records password changes through here.
 * A change no signed-in user made (the user:create command line) has no userId, and `email` says
 * what made it.
 */
export type AuditActor = {
  customerId: string;
  userId: string | null;
  email: string;
  isProviderStaff: boolean;
};
/** Who reads the log: an AuthContext. */
type AuditReader = { customerId: string; isAdministrator: boolean };

/** What changed: the resource and its user-visible configuration before and after. */
export type AuditChange = {
  resource: TAuditResource;
  resourceId: string;
  resourceName: string;
  action: TAuditAction;
  plantId?: string | null;
  lineId?: string | null;
  /** null for a create. */
  before: TAuditFields | null;
  /** null for a delete. */
  after: TAuditFields | null;
};

/** JSON round trip: the fields as the jsonb column will hold them (Dates as ISO strings, no undefined). */
const plain = (f: TAuditFields | null): TAuditFields | null =>
  f === null ? null : (JSON.parse(JSON.stringify(f)) as TAuditFields);

/**
 * Records a change in the change's own transaction `tx`, so the change and its record commit
 * or roll back together. An update that changes no field records nothing. Callers put
 * AUDIT_SECRET_MARK where a secret was set or changed; no secret value is ever passed here.
 * The time is the database's transaction time (one clock for every process).
 */
export function recordAudit(tx: Tx, actor: AuditActor, change: AuditChange): Promise<void> {
  return recordAuditMany(tx, actor, [change]);
}

/** Several changes of one request (a save of many signals' limits), inserted 500 a statement. */
export async function recordAuditMany(tx: Tx, actor: AuditActor, changes: AuditChange[]): Promise<void> {
  const rows = changes.flatMap((change) => {
    const before = plain(change.before);
    const after = plain(change.after);
    if (change.action === "update" && auditChanges(before, after).length === 0) return [];
    return [
      {
        customerId: actor.customerId,
        actorUserId: actor.userId,
        actorEmail: actor.email,
        actorIsProviderStaff: actor.isProviderStaff,
        resource: change.resource,
        resourceId: change.resourceId,
        resourceName: change.resourceName,
        action: change.action,
        plantId: change.plantId ?? null,
        lineId: change.lineId ?? null,
        before,
        after,
      },
    ];
  });
  const repo = createAuditLogRepo(tx);
  for (let i = 0; i < rows.length; i += 500) await repo.insert(rows.slice(i, i + 500));
}

const toEntry = (r: AuditSelected): TAuditEntry => ({
  id: r.id,
  at: r.at.toISOString(),
  actorUserId: r.actorUserId,
  actorEmail: r.actorEmail,
  actorIsProviderStaff: r.actorIsProviderStaff,
  resource: r.resource,
  resourceId: r.resourceId,
  resourceName: r.resourceName,
  action: r.action,
  plantId: r.plantId,
  lineId: r.lineId,
  before: r.before,
  after: r.after,
});

const filterOf = (q: TAuditLogExportQuery): AuditFilter => ({
  resource: q.resource,
  resourceId: q.resourceId,
  userId: q.userId,
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
});

/** A field's value in a CSV cell: text as it is, anything else as JSON; absent is empty. */
const cellOf = (v: unknown) => (v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** The audit log (issue 18 §2): read by administrators, a resource's history by its readers. */
export function createAuditLogService(deps: { db: Db; exportPageSize?: number }) {
  const repo = createAuditLogRepo(deps.db);
  const exportPageSize = deps.exportPageSize ?? 5_000;

  /** The export's file in parts: the BOM and header, then a page of records at a time. */
  async function* exportParts(customerId: string, f: AuditFilter): AsyncGenerator<string> {
    yield toCsv([[...AUDIT_TEXTS.csvHeader]]);
    let after: { at: string; id: string } | undefined;
    for (let sent = 0; sent < AUDIT_EXPORT_MAX; ) {
      const rows = await repo.listAfter(
        customerId,
        f,
        Math.min(exportPageSize, AUDIT_EXPORT_MAX - sent),
        after,
      );
      if (rows.length === 0) return;
      const lines: unknown[][] = [];
      for (const r of rows) {
        const head = [
          r.at.toISOString(),
          r.actorEmail,
          r.actorIsProviderStaff ? "Yes" : "No",
          AUDIT_TEXTS.resourceLabels[r.resource],
          r.resourceId,
          r.resourceName,
          AUDIT_TEXTS.actionLabels[r.action],
        ];
        const changes = auditChanges(r.before, r.after);
        if (changes.length === 0) lines.push([...head, "", "", ""]);
        for (const c of changes) lines.push([...head, c.field, cellOf(c.before), cellOf(c.after)]);
      }
      yield toCsvLines(lines);
      sent += rows.length;
      const last = rows[rows.length - 1] as (typeof rows)[number];
      after = { at: last.atText, id: last.id };
    }
  }

  async function page(ctx: AuditReader, f: AuditFilter, p: { limit: number; offset: number }) {
    const [rows, total] = await Promise.all([repo.list(ctx.customerId, f, p), repo.count(ctx.customerId, f)]);
    return { entries: rows.map(toEntry), total } satisfies TAuditLogPage;
  }

  return {
    record: recordAudit,

    /** GET /api/audit-log: the customer's records, newest first. */
    list(ctx: AuditReader, q: TAuditLogQuery): Promise<TAuditLogPage> {
      return page(ctx, filterOf(q), q);
    },

    /** One resource's own history; users, data sources and tokens only for administrators. */
    history(ctx: AuditReader, params: TAuditHistoryParams, q: TAuditHistoryQuery): Promise<TAuditLogPage> {
      if (AUDIT_ADMIN_ONLY_RESOURCES.includes(params.resource) && !ctx.isAdministrator) throw forbidden();
      return page(ctx, { resource: params.resource, resourceId: params.resourceId }, q);
    },

    /**
     * The CSV export: one row per changed field (auditChanges), newest record first, header
     * AUDIT_TEXTS.csvHeader; more than AUDIT_EXPORT_MAX matching records is refused before the
     * file starts. The file comes in parts, a page of records at a time (keyset pages), so a large
     * export is never held whole in memory.
     */
    async exportCsv(ctx: AuditReader, q: TAuditLogExportQuery): Promise<AsyncIterable<string>> {
      const f = filterOf(q);
      if ((await repo.count(ctx.customerId, f)) > AUDIT_EXPORT_MAX)
        throw badRequest(AUDIT_TEXTS.exportTooLarge);
      return exportParts(ctx.customerId, f);
    },
  };
}
export type AuditLogService = ReturnType<typeof createAuditLogService>;
