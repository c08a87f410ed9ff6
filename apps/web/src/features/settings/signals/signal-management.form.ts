import {
  ASSOCIATION_ROLES,
  dissociationsOf,
  ENTITY_TYPE_FLAGS,
  ENTITY_TYPE_LABELS,
  ENTITY_TYPES_BY_STORAGE,
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  SIGNAL_ENTITY_TYPES,
  SPC_FORMULA_FIELDS,
  SPC_LIMIT_KEYS,
  SPC_LIMIT_LABELS,
  type TAssociationRole,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TFeatureFlags,
  type TResultClassifications,
  type TSignal,
  type TSignalEntityType,
  type TSpcSignalLimits,
} from "@linewatch/contracts";
import { parseLimitFormula } from "@linewatch/stats/limitFormula";
import { signalLabel } from "../../signals/signal-tree";

// The signal form's rules as pure functions (requirements.md settings §2.8 "Right-hand form", §4 "Signal
// form", "Entity type change", §5 "Mixed values", "Result classification configuration").

/** The one value every selected signal has, or mixed (requirements.md settings §2.8: mixed indicators). */
export function commonValue<T>(signals: readonly TSignal[], get: (s: TSignal) => T) {
  const first = signals[0];
  if (!first) return { mixed: false, value: undefined };
  const value = get(first);
  return signals.every((s) => get(s) === value) ? { mixed: false, value } : { mixed: true, value: undefined };
}

export type TEntityTypeOption = { type: TSignalEntityType; label: string; disabled: boolean };

/**
 * The Entity Type select's options: a type behind a flag that is off is left out (unless a selected
 * signal already has it); a type the stored values of a selected signal cannot take is disabled.
 */
export function entityTypeOptions(
  selected: readonly TSignal[],
  flags: Partial<TFeatureFlags>,
): TEntityTypeOption[] {
  return SIGNAL_ENTITY_TYPES.filter((type) => {
    const flag = ENTITY_TYPE_FLAGS[type];
    return !flag || flags[flag] || selected.some((s) => s.entityType === type);
  }).map((type) => ({
    type,
    label: ENTITY_TYPE_LABELS[type],
    disabled: selected.some((s) => !ENTITY_TYPES_BY_STORAGE[s.storage].includes(type)),
  }));
}

export const ROLE_LABELS: Record<TAssociationRole, string> = {
  upperLimit: TEXT.containers.upperLimit,
  lowerLimit: TEXT.containers.lowerLimit,
  result: TEXT.containers.result,
};

export type TDissociationLine = { measurement: string; role: string; signal: string };

/** What the entity type summary dialog lists before a change is confirmed. */
export function entityChangeSummary(
  all: readonly TSignal[],
  selected: readonly TSignal[],
  type: TSignalEntityType,
): { converted: TSignal[]; dissociations: TDissociationLine[]; capLimits: TSignal[] } {
  const converted = selected.filter((s) => s.entityType !== type);
  const byId = new Map(all.map((s) => [s.id, s]));
  const name = (id: string) => {
    const s = byId.get(id);
    return s ? signalLabel(s) : id;
  };
  const dissociations = dissociationsOf(all, new Map(converted.map((s) => [s.id, type]))).map((d) => ({
    measurement: name(d.measurementId),
    role: ROLE_LABELS[d.role],
    signal: name(d.signalId),
  }));
  // A measurement with cap limits that stops being one: its limits stay stored but are not used.
  const capLimits =
    type === "MEASUREMENT" ? [] : converted.filter((s) => s.entityType === "MEASUREMENT" && s.hasCapLimits);
  return { converted, dissociations, capLimits };
}

/** Distribution block: every selected signal a measurement, and the single-sided flag on. */
export const showsDistribution = (selected: readonly TSignal[], flags: Partial<TFeatureFlags>) =>
  !!flags.capSingleSided && selected.length > 0 && selected.every((s) => s.entityType === "MEASUREMENT");

/** The labeling section is hidden for part attributes (requirements.md settings §4 "Signal form"). */
export const showsLabeling = (selected: readonly TSignal[]) =>
  selected.length > 0 && !selected.some((s) => s.entityType === "PART_ATTRIBUTE");

export type TAssociationView =
  | { kind: "message"; text: string }
  | { kind: "list"; items: { role: string; name: string }[] };

/**
 * The Associations section (requirements.md settings §5, §8): a measurement shows its limits and result, a limit or a
 * result the measurements it belongs to; several measurements show their shared associations.
 */
export function associationView(selected: readonly TSignal[], all: readonly TSignal[]): TAssociationView {
  const types = new Set(selected.map((s) => s.entityType));
  if (types.size > 1) return { kind: "message", text: MSG.associationsMultipleTypes };
  const byId = new Map(all.map((s) => [s.id, s]));
  const name = (id: string) => {
    const s = byId.get(id);
    return s ? signalLabel(s) : id;
  };
  const first = selected[0];
  if (!first) return { kind: "message", text: TEXT.noAssociations };
  if (first.entityType === "MEASUREMENT") {
    const key = (s: TSignal) => ASSOCIATION_ROLES.map((r) => s[r] ?? "").join("|");
    if (selected.some((s) => key(s) !== key(first))) return { kind: "message", text: TEXT.mixedAssociations };
    const items = ASSOCIATION_ROLES.flatMap((role) => {
      const id = first[role];
      return id ? [{ role: ROLE_LABELS[role], name: name(id) }] : [];
    });
    return items.length ? { kind: "list", items } : { kind: "message", text: TEXT.noAssociations };
  }
  if (selected.length > 1) return { kind: "message", text: TEXT.cannotViewMultiple };
  const items = all
    .filter((m) => m.entityType === "MEASUREMENT" && ASSOCIATION_ROLES.some((r) => m[r] === first.id))
    .map((m) => ({ role: TEXT.containers.measurement, name: signalLabel(m) }));
  return items.length ? { kind: "list", items } : { kind: "message", text: TEXT.noAssociations };
}

/**
 * Whether the selection's classifications can be viewed together (requirements.md settings §5 "Result classification
 * configuration"): all results, and no value classified one way on one signal and another way on
 * another (our reading of "the same configuration": the common rows must mean the same everywhere).
 */
export function classificationViewError(
  selected: readonly TSignal[],
  classifications?: Readonly<Record<string, TResultClassifications>>,
): string | null {
  if (selected.length === 0 || selected.some((s) => s.entityType !== "RESULT")) return MSG.allMustBeResults;
  if (!classifications) return null;
  const meaning = new Map<string, string>();
  for (const s of selected) {
    const c = classifications[s.id];
    if (!c) continue;
    for (const result of ["pass", "fail", "other"] as const)
      for (const row of c[result]) {
        const was = meaning.get(row.value);
        if (was !== undefined && was !== result) return MSG.sameConfiguration;
        meaning.set(row.value, result);
      }
  }
  return null;
}

/** A cap limit formula that reads a signal being converted: whose limit, which cell and model, what it uses. */
export type TCapFormulaLine = { signal: string; cell: string; model: string; uses: string[] };

/**
 * The cap limit formulas (spc-limits: the line's measurements' LSL / LCL / UCL / USL per model)
 * that reference a signal whose entity type `newTypes` changes (issue #15: a change that touches a
 * cap limit says so before it is confirmed). The limits of a measurement that itself leaves
 * measurements are not listed: they are no longer used at all (`capLimits` of the summary). The
 * formulas are kept on save and go on working: a formula may name any numeric signal of the line,
 * and an entity type change never changes what a signal stores (`ENTITY_TYPES_BY_STORAGE`).
 */
export function capFormulaReferences(
  limits: readonly TSpcSignalLimits[],
  all: readonly TSignal[],
  newTypes: ReadonlyMap<string, TSignalEntityType>,
): TCapFormulaLine[] {
  const byId = new Map(all.map((s) => [s.id.toLowerCase(), s]));
  const changed = new Set(
    [...newTypes]
      .filter(([id, type]) => byId.get(id.toLowerCase())?.entityType !== type)
      .map(([id]) => id.toLowerCase()),
  );
  if (changed.size === 0) return [];
  const lines: TCapFormulaLine[] = [];
  for (const item of limits) {
    const ownerType = newTypes.get(item.signalUUID);
    if (ownerType && ownerType !== "MEASUREMENT") continue;
    const owner = byId.get(item.signalUUID.toLowerCase());
    for (const row of item.limits)
      for (const key of SPC_LIMIT_KEYS) {
        const src = row[SPC_FORMULA_FIELDS[key]];
        if (!src) continue;
        const parsed = parseLimitFormula(src);
        if (!parsed.ok) continue;
        const uses = [...new Set(parsed.references)].filter((id) => changed.has(id));
        if (uses.length === 0) continue;
        lines.push({
          signal: owner ? signalLabel(owner) : item.signalName,
          cell: SPC_LIMIT_LABELS[key],
          model: row.model_number,
          uses: uses.map((id) => {
            const s = byId.get(id);
            return s ? signalLabel(s) : id;
          }),
        });
      }
  }
  return lines;
}
