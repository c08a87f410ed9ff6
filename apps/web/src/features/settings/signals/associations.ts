import {
  ASSOCIATION_ROLES,
  dissociationsOf,
  ENTITY_TYPE_LABELS,
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  type TAssociationRole,
  type TSignal,
  type TSignalAttributes,
  type TSignalEntityType,
} from "@linewatch/contracts";
import { signalLabel } from "../../signals/signal-tree";

// Association editing as pure data (requirements.md settings §2.8 "Association editing panel", §4 "Association
// editing", §5 "Association containers", §9 heights): where each signal sits, the rules Confirm
// waits for, and the plan the two-step confirmation shows and the save sends.

export const CONTAINERS = ["measurement", "upperLimit", "lowerLimit", "result"] as const;
export type TContainer = (typeof CONTAINERS)[number];
export const CONTAINER_TYPE: Record<TContainer, TSignalEntityType> = {
  measurement: "MEASUREMENT",
  upperLimit: "UPPER_LIMIT",
  lowerLimit: "LOWER_LIMIT",
  result: "RESULT",
};
/** requirements.md settings §9: 55 %, 15 %, 15 %, 15 % of the panel's height. */
export const CONTAINER_HEIGHTS: Record<TContainer, string> = {
  measurement: "55%",
  upperLimit: "15%",
  lowerLimit: "15%",
  result: "15%",
};
export type TPlacement = Record<TContainer, string[]>;

const containerOfType = (t: TSignalEntityType): TContainer | null =>
  CONTAINERS.find((c) => CONTAINER_TYPE[c] === t) ?? null;

/**
 * The containers after the tree's selection changed: signals still selected stay where they were
 * put, new ones go to the container of their entity type, unselected ones leave.
 */
export function syncPlacement(
  prev: TPlacement,
  selectedIds: readonly string[],
  signalById: ReadonlyMap<string, TSignal>,
): TPlacement {
  const keep = new Set(selectedIds);
  const next = Object.fromEntries(
    CONTAINERS.map((c) => [c, prev[c].filter((id) => keep.has(id))]),
  ) as TPlacement;
  const placed = new Set(CONTAINERS.flatMap((c) => next[c]));
  for (const id of selectedIds) {
    if (placed.has(id)) continue;
    const s = signalById.get(id);
    const c = s ? containerOfType(s.entityType) : null;
    if (c) next[c].push(id);
  }
  return next;
}

export const emptyPlacement = (): TPlacement => ({
  measurement: [],
  upperLimit: [],
  lowerLimit: [],
  result: [],
});

export function moveSignal(p: TPlacement, id: string, to: TContainer): TPlacement {
  const next = Object.fromEntries(CONTAINERS.map((c) => [c, p[c].filter((x) => x !== id)])) as TPlacement;
  next[to].push(id);
  return next;
}

/** requirements.md settings §5 "Association containers": Confirm stays disabled while any of these is said. */
export function placementErrors(p: TPlacement): Partial<Record<TContainer, string>> {
  const errors: Partial<Record<TContainer, string>> = {};
  if (p.measurement.length === 0) errors.measurement = MSG.atLeastOneMeasurement;
  if (p.upperLimit.length > 1) errors.upperLimit = MSG.noMoreThanOne("upper limit");
  if (p.lowerLimit.length > 1) errors.lowerLimit = MSG.noMoreThanOne("lower limit");
  if (p.result.length > 1) errors.result = MSG.noMoreThanOne("result");
  return errors;
}

/** `capLimits`: a measurement with cap limits leaves measurements (its limits are no longer used). */
export type TEntityChange = { signal: string; from: string; to: string; capLimits: boolean };
export type TAssociationChange = {
  kind: "create" | "delete";
  measurement: string;
  role: TAssociationRole;
  signal: string;
};
export type TAssociationPlan = {
  entityChanges: TEntityChange[];
  associationChanges: TAssociationChange[];
  request: { signal_uuid: string; signal_attributes: TSignalAttributes }[];
};

const ROLE_CONTAINER: Record<TAssociationRole, TContainer> = {
  upperLimit: "upperLimit",
  lowerLimit: "lowerLimit",
  result: "result",
};

/**
 * What Confirm would do: signals put in a container of another type change entity type (step 1);
 * each measurement in the Measurement container gets the upper limit, lower limit and result in
 * theirs, an empty container clearing the old one (step 2, with the associations of measurements
 * elsewhere that the type changes break). `request` is the one PATCH that does all of it.
 */
export function planAssociation(p: TPlacement, all: readonly TSignal[]): TAssociationPlan {
  const byId = new Map(all.map((s) => [s.id, s]));
  const name = (id: string | null) => {
    const s = id ? byId.get(id) : undefined;
    return s ? signalLabel(s) : (id ?? "");
  };
  const newTypes = new Map<string, TSignalEntityType>();
  const entityChanges: TEntityChange[] = [];
  for (const c of CONTAINERS)
    for (const id of p[c]) {
      const s = byId.get(id);
      if (s && s.entityType !== CONTAINER_TYPE[c]) {
        newTypes.set(id, CONTAINER_TYPE[c]);
        entityChanges.push({
          signal: name(id),
          from: ENTITY_TYPE_LABELS[s.entityType],
          to: ENTITY_TYPE_LABELS[CONTAINER_TYPE[c]],
          capLimits: s.entityType === "MEASUREMENT" && s.hasCapLimits && c !== "measurement",
        });
      }
    }

  const associationChanges: TAssociationChange[] = [];
  const request = new Map<string, TSignalAttributes>();
  const attrs = (id: string) => {
    const a = request.get(id) ?? {};
    request.set(id, a);
    return a;
  };
  for (const [id, type] of newTypes) attrs(id).signal_entity_type = type;

  const inMeasurements = new Set(p.measurement);
  for (const id of p.measurement) {
    const m = byId.get(id);
    if (!m) continue;
    const wasMeasurement = m.entityType === "MEASUREMENT";
    for (const role of ASSOCIATION_ROLES) {
      const old = wasMeasurement ? m[role] : null;
      const next = p[ROLE_CONTAINER[role]][0] ?? null;
      if (old === next) continue;
      if (old) associationChanges.push({ kind: "delete", measurement: name(id), role, signal: name(old) });
      if (next) associationChanges.push({ kind: "create", measurement: name(id), role, signal: name(next) });
      const key = role === "upperLimit" ? "upper_limit" : role === "lowerLimit" ? "lower_limit" : "result";
      attrs(id)[key] = next;
    }
  }
  // Measurements outside the panel that lose an association because its signal changes type.
  for (const d of dissociationsOf(all, newTypes))
    if (!inMeasurements.has(d.measurementId))
      associationChanges.push({
        kind: "delete",
        measurement: name(d.measurementId),
        role: d.role,
        signal: name(d.signalId),
      });

  return {
    entityChanges,
    associationChanges,
    request: [...request].map(([signal_uuid, signal_attributes]) => ({ signal_uuid, signal_attributes })),
  };
}

/** The signals shown when association editing opens: the selection and what its measurements hold. */
export function withCurrentAssociations(
  selectedIds: readonly string[],
  signalById: ReadonlyMap<string, TSignal>,
) {
  const out = [...selectedIds];
  for (const id of selectedIds) {
    const s = signalById.get(id);
    if (s?.entityType !== "MEASUREMENT") continue;
    for (const role of ASSOCIATION_ROLES) {
      const a = s[role];
      if (a && signalById.has(a) && !out.includes(a)) out.push(a);
    }
  }
  return out;
}
