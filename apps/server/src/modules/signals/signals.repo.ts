import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import {
  modelNumbers,
  partAttributeValues,
  resultClassifications,
  signalGroupMembers,
  signalGroups,
  signals,
  spcLimits,
  stations,
} from "../../db/schema/index.js";

const signalColumns = {
  id: signals.id,
  stationId: signals.stationId,
  name: signals.name,
  friendlyName: signals.friendlyName,
  entityType: signals.entityType,
  isSignalActive: signals.isSignalActive,
  qualityCharacteristic: signals.qualityCharacteristic,
  stationName: stations.name,
  upperLimit: signals.upperLimitSignalId,
  lowerLimit: signals.lowerLimitSignalId,
  result: signals.resultSignalId,
  singleSide: signals.singleSide,
  storage: signals.storage,
};

export function createSignalsRepo(db: Tx) {
  return {
    stations(customerId: string, lineId: string) {
      return db
        .select({
          id: stations.id,
          name: stations.name,
          final: stations.final,
          isDefault: stations.isDefault,
        })
        .from(stations)
        .where(and(eq(stations.customerId, customerId), eq(stations.lineId, lineId)))
        .orderBy(asc(stations.name));
    },

    /** The customer's station, or undefined. */
    async station(customerId: string, stationId: string) {
      const [row] = await db
        .select({ id: stations.id, lineId: stations.lineId, name: stations.name, final: stations.final })
        .from(stations)
        .where(and(eq(stations.customerId, customerId), eq(stations.id, stationId)));
      return row;
    },

    async stationHasResult(stationId: string) {
      const [row] = await db
        .select({ id: signals.id })
        .from(signals)
        .where(and(eq(signals.stationId, stationId), eq(signals.entityType, "RESULT")))
        .limit(1);
      return !!row;
    },

    setStationFinal(stationId: string, final: boolean) {
      return db.update(stations).set({ final }).where(eq(stations.id, stationId));
    },

    updateSignal(
      id: string,
      values: Partial<
        Pick<
          typeof signals.$inferInsert,
          | "friendlyName"
          | "entityType"
          | "isSignalActive"
          | "qualityCharacteristic"
          | "singleSide"
          | "upperLimitSignalId"
          | "lowerLimitSignalId"
          | "resultSignalId"
        >
      >,
    ) {
      return db.update(signals).set(values).where(eq(signals.id, id));
    },

    deleteClassifications(signalId: string) {
      return db.delete(resultClassifications).where(eq(resultClassifications.signalId, signalId));
    },

    insertClassifications(rows: (typeof resultClassifications.$inferInsert)[]) {
      if (rows.length === 0) return Promise.resolve();
      return db.insert(resultClassifications).values(rows);
    },

    signalsOfLine(customerId: string, lineId: string) {
      return db
        .select(signalColumns)
        .from(signals)
        .innerJoin(stations, eq(stations.id, signals.stationId))
        .where(and(eq(signals.customerId, customerId), eq(signals.lineId, lineId)))
        .orderBy(asc(stations.name), asc(signals.name));
    },

    /** The customer's signals among `ids` (with their line), whatever line they are on. */
    signalsByIds(customerId: string, ids: string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .select({ ...signalColumns, lineId: signals.lineId })
        .from(signals)
        .innerJoin(stations, eq(stations.id, signals.stationId))
        .where(and(eq(signals.customerId, customerId), inArray(signals.id, ids)));
    },

    /** The line's signals that have cap limits. */
    async signalsWithCapLimits(customerId: string, lineId: string) {
      const rows = await db
        .selectDistinct({ signalId: spcLimits.signalId })
        .from(spcLimits)
        .where(and(eq(spcLimits.customerId, customerId), eq(spcLimits.lineId, lineId)));
      return new Set(rows.map((r) => r.signalId));
    },

    attributeValues(signalIds: string[]) {
      if (signalIds.length === 0) return Promise.resolve([]);
      return db
        .select({ signalId: partAttributeValues.signalId, value: partAttributeValues.value })
        .from(partAttributeValues)
        .where(inArray(partAttributeValues.signalId, signalIds))
        .orderBy(asc(partAttributeValues.value));
    },

    modelNumbers(customerId: string, lineId: string) {
      return db
        .select({ value: modelNumbers.value, isChallenge: modelNumbers.isChallenge })
        .from(modelNumbers)
        .where(and(eq(modelNumbers.customerId, customerId), eq(modelNumbers.lineId, lineId)))
        .orderBy(asc(modelNumbers.value));
    },

    groups(customerId: string, lineId: string) {
      return db
        .select({ id: signalGroups.id, name: signalGroups.name })
        .from(signalGroups)
        .where(and(eq(signalGroups.customerId, customerId), eq(signalGroups.lineId, lineId)))
        .orderBy(asc(signalGroups.name));
    },

    /** The customer's groups among `ids`, with their line. */
    groupsByIds(customerId: string, ids: string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .select({ id: signalGroups.id, lineId: signalGroups.lineId })
        .from(signalGroups)
        .where(and(eq(signalGroups.customerId, customerId), inArray(signalGroups.id, ids)));
    },

    groupMembers(groupIds: string[]) {
      if (groupIds.length === 0) return Promise.resolve([]);
      return db
        .select({ groupId: signalGroupMembers.groupId, signalId: signalGroupMembers.signalId })
        .from(signalGroupMembers)
        .where(inArray(signalGroupMembers.groupId, groupIds));
    },

    classifications(customerId: string, signalIds: string[]) {
      if (signalIds.length === 0) return Promise.resolve([]);
      return db
        .select({
          signalId: resultClassifications.signalId,
          value: resultClassifications.value,
          result: resultClassifications.result,
          failureMode: resultClassifications.failureMode,
        })
        .from(resultClassifications)
        .where(
          and(
            eq(resultClassifications.customerId, customerId),
            inArray(resultClassifications.signalId, signalIds),
          ),
        )
        .orderBy(asc(resultClassifications.value));
    },
  };
}
export type SignalsRepo = ReturnType<typeof createSignalsRepo>;
