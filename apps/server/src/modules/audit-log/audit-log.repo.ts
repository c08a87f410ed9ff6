import type { TAuditAction, TAuditFields, TAuditResource } from "@linewatch/contracts";
import { and, count, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { auditLog } from "../../db/schema/index.js";

export type AuditRow = typeof auditLog.$inferSelect;

export type AuditInsert = {
  customerId: string;
  actorUserId: string | null;
  actorEmail: string;
  actorIsProviderStaff: boolean;
  resource: TAuditResource;
  resourceId: string;
  resourceName: string;
  action: TAuditAction;
  plantId: string | null;
  lineId: string | null;
  before: TAuditFields | null;
  after: TAuditFields | null;
};

export type AuditFilter = {
  resource?: TAuditResource;
  resourceId?: string;
  userId?: string;
  from?: Date;
  to?: Date;
};

const columns = {
  id: auditLog.id,
  at: auditLog.at,
  actorUserId: auditLog.actorUserId,
  actorEmail: auditLog.actorEmail,
  actorIsProviderStaff: auditLog.actorIsProviderStaff,
  resource: auditLog.resource,
  resourceId: auditLog.resourceId,
  resourceName: auditLog.resourceName,
  action: auditLog.action,
  plantId: auditLog.plantId,
  lineId: auditLog.lineId,
  before: auditLog.before,
  after: auditLog.after,
};
export type AuditSelected = { [K in keyof typeof columns]: (typeof columns)[K]["_"]["data"] } & {
  actorUserId: string | null;
  plantId: string | null;
  lineId: string | null;
  before: TAuditFields | null;
  after: TAuditFields | null;
};

/**
 * Append-only on purpose: insert and read, nothing that updates or deletes a record. (Records past
 * a retention the customer's administrators set go in modules/retention, decision 0301.)
 */
export function createAuditLogRepo(db: Tx) {
  const where = (customerId: string, f: AuditFilter): SQL | undefined =>
    and(
      eq(auditLog.customerId, customerId),
      f.resource ? eq(auditLog.resource, f.resource) : undefined,
      f.resourceId ? eq(auditLog.resourceId, f.resourceId) : undefined,
      f.userId ? eq(auditLog.actorUserId, f.userId) : undefined,
      f.from ? gte(auditLog.at, f.from) : undefined,
      f.to ? lt(auditLog.at, f.to) : undefined,
    );
  return {
    async insert(rows: AuditInsert[]) {
      if (rows.length > 0) await db.insert(auditLog).values(rows);
    },

    /** Newest first; (at, id) descending so pages never repeat or skip a record. */
    list(customerId: string, f: AuditFilter, page: { limit: number; offset: number }) {
      return db
        .select(columns)
        .from(auditLog)
        .where(where(customerId, f))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(page.limit)
        .offset(page.offset) as Promise<AuditSelected[]>;
    },

    /**
     * The next `limit` records after `after` (none: from the newest), in list's order, each with
     * its time as PostgreSQL's text (microseconds, which a Date loses) for the next call: pages
     * that records added meanwhile cannot shift, as an offset would.
     */
    listAfter(
      customerId: string,
      f: AuditFilter,
      limit: number,
      after?: { at: string; id: string },
    ): Promise<(AuditSelected & { atText: string })[]> {
      return db
        .select({ ...columns, atText: sql<string>`${auditLog.at}::text` })
        .from(auditLog)
        .where(
          and(
            where(customerId, f),
            // at ≤ the last one's bounds the index scan; the row comparison breaks ties by id.
            after
              ? sql`${auditLog.at} <= ${after.at}::timestamptz and (${auditLog.at}, ${auditLog.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(limit) as Promise<(AuditSelected & { atText: string })[]>;
    },

    async count(customerId: string, f: AuditFilter): Promise<number> {
      const [row] = await db.select({ n: count() }).from(auditLog).where(where(customerId, f));
      return Number(row?.n ?? 0);
    },
  };
}
