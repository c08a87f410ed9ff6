import {
  LINE_MESSAGES,
  SIGNAL_MESSAGES,
  type TAssociatedResultClassifications,
  type TModelNumber,
  type TPartAttribute,
  type TResultClassifications,
  type TSignal,
  type TSignalGroup,
  type TStation,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { LinesService } from "../lines/lines.service.js";
import { createSignalsRepo } from "./signals.repo.js";

type SignalRow = Awaited<ReturnType<ReturnType<typeof createSignalsRepo>["signalsOfLine"]>>[number];

const toSignal = (r: SignalRow): TSignal => ({
  id: r.id,
  name: r.name,
  friendlyName: r.friendlyName,
  entityType: r.entityType,
  isSignalActive: r.isSignalActive,
  qualityCharacteristic: r.qualityCharacteristic,
  stationName: r.stationName,
  upperLimit: r.upperLimit,
  lowerLimit: r.lowerLimit,
  result: r.result,
  singleSide: r.singleSide,
});

export const signalNotFound = () => new AppError("NOT_FOUND", SIGNAL_MESSAGES.notFound);

export function createSignalsService(deps: { db: Db; lines: LinesService }) {
  const repo = createSignalsRepo(deps.db);
  return {
    /** The line's stations with their signals (spec monitor-forms §2 "Signals tab"). */
    async stations(
      ctx: AuthContext,
      lineId: string,
      opts: { activeOnly?: boolean } = {},
    ): Promise<TStation[]> {
      await deps.lines.get(ctx, lineId);
      const [stations, signals] = await Promise.all([
        repo.stations(ctx.customerId, lineId),
        repo.signalsOfLine(ctx.customerId, lineId),
      ]);
      return stations.map((s) => ({
        id: s.id,
        name: s.name,
        final: s.final,
        signals: signals
          .filter((x) => x.stationId === s.id && (!opts.activeOnly || x.isSignalActive))
          .map(toSignal),
      }));
    },

    /** PART_ATTRIBUTE signals of the line with the values seen for each. */
    async partAttributes(ctx: AuthContext, lineId: string): Promise<TPartAttribute[]> {
      await deps.lines.get(ctx, lineId);
      const attrs = (await repo.signalsOfLine(ctx.customerId, lineId)).filter(
        (s) => s.entityType === "PART_ATTRIBUTE",
      );
      const values = await repo.attributeValues(attrs.map((a) => a.id));
      return attrs.map((a) => ({
        attributeUuid: a.id,
        attributeName: a.friendlyName ?? a.name,
        stationName: a.stationName,
        isSignalActive: a.isSignalActive,
        attributeValues: values.filter((v) => v.signalId === a.id).map((v) => v.value),
      }));
    },

    async modelNumbers(ctx: AuthContext, lineId: string): Promise<TModelNumber[]> {
      await deps.lines.get(ctx, lineId);
      return repo.modelNumbers(ctx.customerId, lineId);
    },

    /** The line's signal groups (spec settings §7 "signal groups endpoint"). */
    async signalGroups(
      ctx: AuthContext,
      body: { customerUuid: string; plantUuid: string; lineUuid: string },
    ): Promise<TSignalGroup[]> {
      if (body.customerUuid !== ctx.customerId)
        throw new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);
      const line = await deps.lines.get(ctx, body.lineUuid);
      if (line.plantId !== body.plantUuid) throw new AppError("NOT_FOUND", LINE_MESSAGES.notFound);
      const groups = await repo.groups(ctx.customerId, line.id);
      const members = await repo.groupMembers(groups.map((g) => g.id));
      return groups.map((g) => ({
        signalGroupUuid: g.id,
        signalGroupName: g.name,
        signalUuids: members.filter((m) => m.groupId === g.id).map((m) => m.signalId),
      }));
    },

    /**
     * By signal id, the classifications of its result signal: a measurement's associated result,
     * or the signal itself when it is a RESULT. No result: three empty lists.
     */
    async associatedResultClassifications(
      ctx: AuthContext,
      ids: string[],
    ): Promise<TAssociatedResultClassifications> {
      const unique = [...new Set(ids)];
      const found = await repo.signalsByIds(ctx.customerId, unique);
      if (found.length !== unique.length) throw signalNotFound();
      const resultOf = new Map(
        found.map((s) => [s.id, s.entityType === "RESULT" ? s.id : (s.result ?? null)] as const),
      );
      const resultIds = [...new Set([...resultOf.values()].filter((x): x is string => x != null))];
      const rows = await repo.classifications(ctx.customerId, resultIds);
      const answer: TAssociatedResultClassifications = {};
      for (const id of unique) {
        const rid = resultOf.get(id);
        const c: TResultClassifications = { pass: [], fail: [], other: [] };
        for (const r of rows)
          if (r.signalId === rid) c[r.result].push({ value: r.value, failureMode: r.failureMode });
        answer[id] = { associatedResultClassifications: c };
      }
      return answer;
    },
  };
}
export type SignalsService = ReturnType<typeof createSignalsService>;
