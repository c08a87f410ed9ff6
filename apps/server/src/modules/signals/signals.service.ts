import {
  ASSOCIATION_ENTITY_TYPE,
  ASSOCIATION_ROLES,
  dissociationsOf,
  ENTITY_TYPE_FLAGS,
  ENTITY_TYPES_BY_STORAGE,
  LINE_MESSAGES,
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  SIGNAL_MESSAGES,
  type TAssociatedResultClassifications,
  type TAssociationRole,
  type TModelNumber,
  type TPartAttribute,
  type TResultClassifications,
  type TResultClassificationsPatchBody,
  type TSignal,
  type TSignalAttributeUpdateBody,
  type TSignalEntityType,
  type TSignalGroup,
  type TSignalSingleSideBody,
  type TStation,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { AppError, badRequest, forbidden } from "../../errors.js";
import { type AuditChange, recordAudit, recordAuditMany } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { FeatureFlagsService } from "../feature-flags/feature-flags.service.js";
import { findLine, type LinesService } from "../lines/lines.service.js";
import { createSignalsRepo } from "./signals.repo.js";

type SignalRow = Awaited<ReturnType<ReturnType<typeof createSignalsRepo>["signalsOfLine"]>>[number];

const toSignal = (r: SignalRow, capLimited: ReadonlySet<string>): TSignal => ({
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
  storage: r.storage,
  hasCapLimits: capLimited.has(r.id),
});

const COLUMN_OF_ROLE = {
  upperLimit: "upperLimitSignalId",
  lowerLimit: "lowerLimitSignalId",
  result: "resultSignalId",
} as const satisfies Record<TAssociationRole, string>;
const ATTRIBUTE_OF_ROLE = { upperLimit: "upper_limit", lowerLimit: "lower_limit", result: "result" } as const;

/** A signal's settings as the audit log records them (Signal Management's columns). */
const auditFieldsOf = (s: SignalRow) => ({
  friendlyName: s.friendlyName,
  entityType: s.entityType,
  isSignalActive: s.isSignalActive,
  qualityCharacteristic: s.qualityCharacteristic,
  upperLimit: s.upperLimit,
  lowerLimit: s.lowerLimit,
  result: s.result,
  singleSide: s.singleSide,
});

/** Records each signal whose settings differ between the two readings. */
async function auditSignals(
  tx: Tx,
  ctx: AuthContext,
  before: (SignalRow & { lineId: string })[],
  after: SignalRow[],
) {
  const afterById = new Map(after.map((s) => [s.id, s]));
  const lineOf = lineCache(tx, ctx);
  const changes: AuditChange[] = [];
  for (const b of before) {
    const a = afterById.get(b.id);
    if (!a || JSON.stringify(auditFieldsOf(a)) === JSON.stringify(auditFieldsOf(b))) continue;
    const line = await lineOf(b.lineId);
    changes.push({
      resource: "signal",
      action: "update",
      resourceId: a.id,
      resourceName: a.name,
      plantId: line.plantId,
      lineId: line.id,
      before: auditFieldsOf(b),
      after: auditFieldsOf(a),
    });
  }
  await recordAuditMany(tx, ctx, changes);
}

/** The lines of the signals a request touches, each read once (inside the request's transaction). */
function lineCache(tx: Tx, ctx: AuthContext) {
  const seen = new Map<string, Promise<{ id: string; plantId: string }>>();
  return (lineId: string) => {
    const line = seen.get(lineId) ?? findLine(tx, ctx.customerId, lineId);
    seen.set(lineId, line);
    return line;
  };
}

type ClassificationRow = {
  signalId: string;
  value: string;
  result: "pass" | "fail" | "other";
  failureMode: string | null;
};
const classificationsOf = (rows: ClassificationRow[], signalId: string): TResultClassifications => {
  const c: TResultClassifications = { pass: [], fail: [], other: [] };
  for (const r of rows)
    if (r.signalId === signalId) c[r.result].push({ value: r.value, failureMode: r.failureMode });
  // By value: the stored rows have no order, and an unchanged list must compare equal.
  for (const list of Object.values(c))
    list.sort((x, y) => (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
  return c;
};

export const signalNotFound = () => new AppError("NOT_FOUND", SIGNAL_MESSAGES.notFound);
const stationNotFound = () => new AppError("NOT_FOUND", MSG.stationNotFound);

export function createSignalsService(deps: { db: Db; lines: LinesService; flags: FeatureFlagsService }) {
  const repo = createSignalsRepo(deps.db);
  return {
    /** The line's stations with their signals (requirements.md monitor-forms §2 "Signals tab"). */
    async stations(
      ctx: AuthContext,
      lineId: string,
      opts: { activeOnly?: boolean } = {},
    ): Promise<TStation[]> {
      const [stations, signals, capLimited] = await Promise.all([
        repo.stations(ctx.customerId, lineId),
        repo.signalsOfLine(ctx.customerId, lineId),
        repo.signalsWithCapLimits(ctx.customerId, lineId),
      ]);
      // The customer's stations on the line prove the line is theirs; none: is there such a line?
      if (stations.length === 0) await deps.lines.get(ctx, lineId);
      return stations.map((s) => ({
        id: s.id,
        name: s.name,
        final: s.final,
        isDefault: s.isDefault,
        signals: signals
          .filter((x) => x.stationId === s.id && (!opts.activeOnly || x.isSignalActive))
          .map((x) => toSignal(x, capLimited)),
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

    /** The line's signal groups (requirements.md settings §7 "signal groups endpoint"). */
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

    /**
     * PATCH /api/stations/{id} (requirements.md settings §7): marks a station final or not. Only a station
     * holding a result signal may become final (§4 "Final station switch"); unmarking is always allowed.
     */
    async setStationFinal(ctx: AuthContext, stationId: string, final: boolean): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const r = createSignalsRepo(tx);
        const station = await r.station(ctx.customerId, stationId);
        if (!station) throw stationNotFound();
        if (final && !station.final && !(await r.stationHasResult(stationId)))
          throw badRequest(MSG.finalStationNeedsResult);
        await r.setStationFinal(stationId, final);
        const line = await findLine(tx, ctx.customerId, station.lineId);
        await recordAudit(tx, ctx, {
          resource: "station",
          action: "update",
          resourceId: station.id,
          resourceName: station.name,
          plantId: line.plantId,
          lineId: line.id,
          before: { final: station.final },
          after: { final },
        });
      });
    },

    /**
     * PATCH /api/signal-attribute-update (requirements.md settings §7): friendly names, status, quality characteristic,
     * entity types and associations of a line's signals, all or nothing. An entity type change
     * removes the associations it breaks (dissociationsOf, as the summary dialog shows them); then
     * every association the request sets must point at a signal of the line with the right type.
     */
    async updateAttributes(ctx: AuthContext, body: TSignalAttributeUpdateBody): Promise<void> {
      const { signalRequest, signals: changes } = body;
      if (signalRequest.customer_uuid !== ctx.customerId)
        throw new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);
      const line = await deps.lines.get(ctx, signalRequest.line_uuid);
      if (line.plantId !== signalRequest.plant_uuid) throw new AppError("NOT_FOUND", LINE_MESSAGES.notFound);
      const ids = changes.map((c) => c.signal_uuid);
      if (new Set(ids).size !== ids.length) throw badRequest(MSG.duplicateSignal);
      const { flags } = await deps.flags.get(ctx.customerId);

      await deps.db.transaction(async (tx) => {
        const r = createSignalsRepo(tx);
        const all = await r.signalsOfLine(ctx.customerId, line.id);
        const byId = new Map(all.map((s) => [s.id, s]));
        for (const id of ids) if (!byId.has(id)) throw signalNotFound();

        const newTypes = new Map<string, TSignalEntityType>();
        for (const c of changes) {
          const s = byId.get(c.signal_uuid) as SignalRow;
          const type = c.signal_attributes.signal_entity_type;
          if (!type || type === s.entityType) continue;
          const flag = ENTITY_TYPE_FLAGS[type];
          if (flag && !flags[flag]) throw forbidden(MSG.entityTypeDisabled(type));
          if (!ENTITY_TYPES_BY_STORAGE[s.storage].includes(type))
            throw badRequest(MSG.entityTypeStorage(s.friendlyName ?? s.name, type));
          newTypes.set(s.id, type);
        }

        // The next state of every touched signal: breaks first, then what the request sets.
        type Next = Partial<Parameters<typeof r.updateSignal>[1]>;
        const next = new Map<string, Next>();
        const touch = (id: string) => {
          const n = next.get(id) ?? {};
          next.set(id, n);
          return n;
        };
        for (const d of dissociationsOf(all, newTypes)) touch(d.measurementId)[COLUMN_OF_ROLE[d.role]] = null;
        for (const c of changes) {
          const a = c.signal_attributes;
          const n = touch(c.signal_uuid);
          if (a.signal_entity_type !== undefined) n.entityType = a.signal_entity_type;
          if (a.signal_friendly_name !== undefined) n.friendlyName = a.signal_friendly_name;
          if (a.signal_active !== undefined) n.isSignalActive = a.signal_active;
          if (a.quality_characteristic !== undefined) n.qualityCharacteristic = a.quality_characteristic;
          for (const role of ASSOCIATION_ROLES) {
            const v = a[ATTRIBUTE_OF_ROLE[role]];
            if (v !== undefined) n[COLUMN_OF_ROLE[role]] = v;
          }
        }

        const typeOf = (id: string) => newTypes.get(id) ?? byId.get(id)?.entityType;
        for (const c of changes) {
          const s = byId.get(c.signal_uuid) as SignalRow;
          const label = s.friendlyName ?? s.name;
          for (const role of ASSOCIATION_ROLES) {
            const target = c.signal_attributes[ATTRIBUTE_OF_ROLE[role]];
            if (!target) continue;
            if (typeOf(s.id) !== "MEASUREMENT") throw badRequest(MSG.associationsOnlyOnMeasurements(label));
            if (!byId.has(target)) throw signalNotFound();
            if (typeOf(target) !== ASSOCIATION_ENTITY_TYPE[role]) {
              const t = byId.get(target) as SignalRow;
              throw badRequest(MSG.associationWrongType(t.friendlyName ?? t.name, role));
            }
          }
        }
        for (const [id, values] of next) if (Object.keys(values).length > 0) await r.updateSignal(id, values);
        await auditSignals(
          tx,
          ctx,
          all.map((s) => ({ ...s, lineId: line.id })),
          await r.signalsOfLine(ctx.customerId, line.id),
        );
      });
    },

    /** PATCH /api/signals (requirements.md settings §7): single-sided boundaries of measurements, behind their flag. */
    async setSingleSides(ctx: AuthContext, body: TSignalSingleSideBody): Promise<void> {
      const ids = body.map((b) => b.id);
      if (new Set(ids).size !== ids.length) throw badRequest(MSG.duplicateSignal);
      const { flags } = await deps.flags.get(ctx.customerId);
      await deps.db.transaction(async (tx) => {
        const r = createSignalsRepo(tx);
        const found = await r.signalsByIds(ctx.customerId, ids);
        if (found.length !== ids.length) throw signalNotFound();
        if (!flags.capSingleSided) throw forbidden(MSG.singleSidedDisabled);
        const byId = new Map(found.map((s) => [s.id, s]));
        for (const b of body) {
          const s = byId.get(b.id) as (typeof found)[number];
          if (s.entityType !== "MEASUREMENT")
            throw badRequest(MSG.singleSideOnlyMeasurements(s.friendlyName ?? s.name));
          await r.updateSignal(b.id, { singleSide: b.singleSide });
        }
        await auditSignals(tx, ctx, found, await r.signalsByIds(ctx.customerId, ids));
      });
    },

    /**
     * PATCH /api/signal/result-classifications (requirements.md settings §7): each named result signal's classifications
     * become the given three lists (values unique per signal, checked by the contract).
     */
    async saveResultClassifications(
      ctx: AuthContext,
      bySignal: TResultClassificationsPatchBody,
    ): Promise<void> {
      const ids = Object.keys(bySignal);
      await deps.db.transaction(async (tx) => {
        const r = createSignalsRepo(tx);
        const found = await r.signalsByIds(ctx.customerId, ids);
        if (found.length !== ids.length) throw signalNotFound();
        if (found.some((s) => s.entityType !== "RESULT")) throw badRequest(MSG.allMustBeResults);
        const before = await r.classifications(ctx.customerId, ids);
        for (const id of ids) {
          const c = (bySignal[id] as TResultClassificationsPatchBody[string]).resultClassifications;
          await r.deleteClassifications(id);
          await r.insertClassifications(
            (["pass", "fail", "other"] as const).flatMap((result) =>
              c[result].map((row) => ({
                customerId: ctx.customerId,
                signalId: id,
                value: row.value,
                result,
                failureMode: row.failureMode,
              })),
            ),
          );
        }
        const after = await r.classifications(ctx.customerId, ids);
        const lineOf = lineCache(tx, ctx);
        const changes: AuditChange[] = [];
        for (const s of found) {
          const line = await lineOf(s.lineId);
          changes.push({
            resource: "signal",
            action: "update",
            resourceId: s.id,
            resourceName: s.name,
            plantId: line.plantId,
            lineId: line.id,
            before: { resultClassifications: classificationsOf(before, s.id) },
            after: { resultClassifications: classificationsOf(after, s.id) },
          });
        }
        await recordAuditMany(tx, ctx, changes);
      });
    },
  };
}
export type SignalsService = ReturnType<typeof createSignalsService>;
