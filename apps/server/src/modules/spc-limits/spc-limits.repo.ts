import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { signals, spcLimits, stations } from "../../db/schema/index.js";

export type SpcLimitValues = {
  modelNumber: string;
  lslFormula: string | null;
  lclFormula: string | null;
  uclFormula: string | null;
  uslFormula: string | null;
};

export function createSpcLimitsRepo(db: Tx) {
  return {
    /** The line's numeric signals with their station, sorted by station then signal. */
    signalsOfLine(customerId: string, lineId: string) {
      return db
        .select({
          id: signals.id,
          name: signals.name,
          friendlyName: signals.friendlyName,
          entityType: signals.entityType,
          storage: signals.storage,
          singleSide: signals.singleSide,
          stationName: stations.name,
        })
        .from(signals)
        .innerJoin(stations, eq(stations.id, signals.stationId))
        .where(and(eq(signals.customerId, customerId), eq(signals.lineId, lineId)))
        .orderBy(asc(stations.name), asc(signals.name));
    },

    limitsOfLine(customerId: string, lineId: string) {
      return db
        .select({
          id: spcLimits.id,
          signalId: spcLimits.signalId,
          modelNumber: spcLimits.modelNumber,
          lslFormula: spcLimits.lslFormula,
          lclFormula: spcLimits.lclFormula,
          uclFormula: spcLimits.uclFormula,
          uslFormula: spcLimits.uslFormula,
        })
        .from(spcLimits)
        .where(and(eq(spcLimits.customerId, customerId), eq(spcLimits.lineId, lineId)))
        .orderBy(asc(spcLimits.signalId), asc(spcLimits.modelNumber));
    },

    /** Replaces the model rows of each listed signal with the given ones. */
    async replace(customerId: string, lineId: string, bySignal: Map<string, SpcLimitValues[]>) {
      const ids = [...bySignal.keys()];
      if (ids.length === 0) return;
      await db
        .delete(spcLimits)
        .where(
          and(
            eq(spcLimits.customerId, customerId),
            eq(spcLimits.lineId, lineId),
            inArray(spcLimits.signalId, ids),
          ),
        );
      const rows = [...bySignal].flatMap(([signalId, list]) =>
        list.map((v) => ({ customerId, lineId, signalId, ...v })),
      );
      // 1,000 rows a statement keeps the bind parameters far below PostgreSQL's 65,535.
      for (let i = 0; i < rows.length; i += 1000) await db.insert(spcLimits).values(rows.slice(i, i + 1000));
    },
  };
}
