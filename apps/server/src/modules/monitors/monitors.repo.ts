import type { TMonitorType, TRuleType, TStoredMonitorFilter } from "@linewatch/contracts";
import { and, asc, eq, ne, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { monitorRules, monitors } from "../../db/schema/index.js";

const columns = {
  id: monitors.id,
  customerId: monitors.customerId,
  plantId: monitors.plantId,
  lineId: monitors.lineId,
  name: monitors.name,
  type: monitors.type,
  active: monitors.active,
  frequency: monitors.frequency,
  notes: monitors.notes,
  alertThreshold: monitors.alertThreshold,
  useExcludedPartIds: monitors.useExcludedPartIds,
  useExcludedModelNumbers: monitors.useExcludedModelNumbers,
  filter: monitors.filter,
  filterMd5: monitors.filterMd5,
  lastState: monitors.lastState,
  lastEvaluatedAt: monitors.lastEvaluatedAt,
  nextRunAt: monitors.nextRunAt,
};

export type MonitorRow = Omit<{ [K in keyof typeof columns]: (typeof columns)[K]["_"]["data"] }, "filter"> & {
  filter: TStoredMonitorFilter;
};

export type MonitorValues = {
  customerId: string;
  plantId: string;
  lineId: string;
  name: string;
  type: TMonitorType;
  active: boolean;
  frequency: number;
  notes: string;
  alertThreshold: "low" | "medium" | "high";
  useExcludedPartIds: boolean;
  useExcludedModelNumbers: boolean;
  filter: TStoredMonitorFilter;
  filterMd5: string;
  nextRunAt: Date | null;
};

export type RuleValues = {
  type: TRuleType;
  active: boolean;
  runs: number | null;
  breaches: number | null;
  seconds: number | null;
};

const excluding = (id: string | undefined): SQL[] => (id ? [ne(monitors.id, id)] : []);

export function createMonitorsRepo(db: Tx) {
  return {
    async find(customerId: string, id: string): Promise<MonitorRow | undefined> {
      const [row] = await db
        .select(columns)
        .from(monitors)
        .where(and(eq(monitors.customerId, customerId), eq(monitors.id, id)));
      return row as MonitorRow | undefined;
    },

    async list(customerId: string, lineId: string, type?: TMonitorType): Promise<MonitorRow[]> {
      const rows = await db
        .select(columns)
        .from(monitors)
        .where(
          and(
            eq(monitors.customerId, customerId),
            eq(monitors.lineId, lineId),
            ...(type ? [eq(monitors.type, type)] : []),
          ),
        )
        .orderBy(asc(monitors.name));
      return rows as MonitorRow[];
    },

    async names(lineId: string, type: TMonitorType): Promise<string[]> {
      const rows = await db
        .select({ name: monitors.name })
        .from(monitors)
        .where(and(eq(monitors.lineId, lineId), eq(monitors.type, type)));
      return rows.map((r) => r.name);
    },

    async findByName(lineId: string, type: TMonitorType, name: string, exceptId?: string) {
      const [row] = await db
        .select({ id: monitors.id })
        .from(monitors)
        .where(
          and(
            eq(monitors.lineId, lineId),
            eq(monitors.type, type),
            eq(monitors.name, name),
            ...excluding(exceptId),
          ),
        );
      return row;
    },

    async findByMd5(lineId: string, md5: string, exceptId?: string) {
      const [row] = await db
        .select({ id: monitors.id, name: monitors.name })
        .from(monitors)
        .where(and(eq(monitors.lineId, lineId), eq(monitors.filterMd5, md5), ...excluding(exceptId)));
      return row;
    },

    async insert(values: MonitorValues): Promise<string> {
      const [row] = await db.insert(monitors).values(values).returning({ id: monitors.id });
      if (!row) throw new Error("insert returned nothing");
      return row.id;
    },

    async update(customerId: string, id: string, values: Partial<MonitorValues> & { updatedAt: Date }) {
      await db
        .update(monitors)
        .set(values)
        .where(and(eq(monitors.customerId, customerId), eq(monitors.id, id)));
    },

    async delete(customerId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(monitors)
        .where(and(eq(monitors.customerId, customerId), eq(monitors.id, id)))
        .returning({ id: monitors.id });
      return rows.length > 0;
    },

    rules(monitorId: string): Promise<RuleValues[]> {
      return db
        .select({
          type: monitorRules.type,
          active: monitorRules.active,
          runs: monitorRules.runs,
          breaches: monitorRules.breaches,
          seconds: monitorRules.seconds,
        })
        .from(monitorRules)
        .where(eq(monitorRules.monitorId, monitorId));
    },

    async upsertRule(monitorId: string, rule: RuleValues) {
      await db
        .insert(monitorRules)
        .values({ monitorId, ...rule })
        .onConflictDoUpdate({
          target: [monitorRules.monitorId, monitorRules.type],
          set: { active: rule.active, runs: rule.runs, breaches: rule.breaches, seconds: rule.seconds },
        });
    },
  };
}
