import { z } from "zod";
import { ZId, zString } from "./common.js";
import {
  type TSignalEntityType,
  ZQualityCharacteristic,
  ZSignalEntityType,
  ZSignalLimitSide,
} from "./domain.js";
import { type QUALITY_CHARACTERISTICS, RESULT_VALUES, SIGNAL_STORAGES } from "./domain-values.js";

// Line signals as the monitor forms read them (requirements.md settings §3 "Signal", "Signal group";
// requirements.md monitor-forms §2 "Signals tab", §7).

export const ZSignal = z.object({
  id: ZId,
  name: zString(),
  friendlyName: zString().nullable(),
  entityType: ZSignalEntityType,
  isSignalActive: z.boolean(),
  qualityCharacteristic: ZQualityCharacteristic,
  stationName: zString(),
  /** Associated signals' ids: a measurement's upper limit, lower limit and result. */
  upperLimit: ZId.nullable(),
  lowerLimit: ZId.nullable(),
  result: ZId.nullable(),
  singleSide: ZSignalLimitSide.nullable(),
  /** How its values are stored (fixed at creation): which entity types it can take. */
  storage: z.enum(SIGNAL_STORAGES),
  /** It has cap (SPC) limits: an entity type change away from measurement leaves them unused. */
  hasCapLimits: z.boolean(),
});
export type TSignal = z.infer<typeof ZSignal>;

export const ZStation = z.object({
  id: ZId,
  name: zString(),
  final: z.boolean(),
  /** The line's catch-all station for signals that arrive without one (not configurable). */
  isDefault: z.boolean(),
  signals: z.array(ZSignal),
});
export type TStation = z.infer<typeof ZStation>;
export const ZStationList = z.array(ZStation);

/** `?active=true` leaves only active signals (the monitor form's tree shows only those). */
export const ZLineSignalsQuery = z.strictObject({
  active: z.enum(["true", "false"]).optional(),
});

export const ZSignalGroup = z.object({
  signalGroupUuid: ZId,
  signalGroupName: zString(),
  signalUuids: z.array(ZId),
});
export type TSignalGroup = z.infer<typeof ZSignalGroup>;
export const ZSignalGroupList = z.array(ZSignalGroup);
export const ZSignalGroupsBody = z.strictObject({ customerUuid: ZId, plantUuid: ZId, lineUuid: ZId });

/** A part attribute (a PART_ATTRIBUTE signal) with the values seen for it. */
export const ZPartAttribute = z.object({
  attributeUuid: ZId,
  attributeName: zString(),
  stationName: zString(),
  isSignalActive: z.boolean(),
  attributeValues: z.array(zString()),
});
export type TPartAttribute = z.infer<typeof ZPartAttribute>;
export const ZPartAttributeList = z.array(ZPartAttribute);

export const ZModelNumber = z.object({ value: zString(), isChallenge: z.boolean() });
export type TModelNumber = z.infer<typeof ZModelNumber>;
export const ZModelNumberList = z.array(ZModelNumber);

export const ZClassificationEntry = z.object({ value: zString(), failureMode: zString().nullable() });
export const ZResultClassifications = z.object({
  pass: z.array(ZClassificationEntry),
  fail: z.array(ZClassificationEntry),
  other: z.array(ZClassificationEntry),
});
export type TResultClassifications = z.infer<typeof ZResultClassifications>;

/** Body: signal ids. Answer: by signal id, the classifications of its result signal. */
export const ZAssociatedResultClassificationsBody = z.array(ZId).min(1).max(1000);
export const ZAssociatedResultClassifications = z.record(
  zString(),
  z.object({ associatedResultClassifications: ZResultClassifications }),
);
export type TAssociatedResultClassifications = z.infer<typeof ZAssociatedResultClassifications>;

export const SIGNAL_MESSAGES = {
  notFound: "Signal not found",
  groupNotFound: "Signal group not found",
} as const;

// ── Signal Management (requirements.md settings §2.8, §3, §4, §5, §7, §8) ──────────────────────────────────

export const ENTITY_TYPE_LABELS: Record<TSignalEntityType, string> = {
  MEASUREMENT: "Measurement",
  PART_ATTRIBUTE: "Part Attribute",
  UPPER_LIMIT: "Upper Limit",
  LOWER_LIMIT: "Lower Limit",
  RESULT: "Result",
  COMPONENT_ID: "Component ID",
  UNITS: "Units",
  UNKNOWN: "Unknown",
};

export const QUALITY_CHARACTERISTIC_LABELS: Record<(typeof QUALITY_CHARACTERISTICS)[number], string> = {
  NONE: "None",
  CRITICAL: "Critical",
  SIGNIFICANT: "Significant",
  HIGH_IMPACT: "High impact",
};

/**
 * The entity types a signal's stored values allow: numbers can be measured or be limits, text can
 * be a result, a part attribute or a component id; units and unknown fit either. A signal's storage
 * is fixed at creation (part records keep its slot), so a text signal never becomes a measurement.
 */
export const ENTITY_TYPES_BY_STORAGE: Record<(typeof SIGNAL_STORAGES)[number], readonly TSignalEntityType[]> =
  {
    num: ["MEASUREMENT", "UPPER_LIMIT", "LOWER_LIMIT", "UNITS", "UNKNOWN"],
    text: ["RESULT", "PART_ATTRIBUTE", "COMPONENT_ID", "UNITS", "UNKNOWN"],
  };

/** The feature flag that offers an entity type in the select (requirements.md settings §6); others are always offered. */
export const ENTITY_TYPE_FLAGS: Partial<
  Record<
    TSignalEntityType,
    "limitEntityTypeSelection" | "resultEntityTypeSelection" | "componentEntityTypeSelection"
  >
> = {
  UPPER_LIMIT: "limitEntityTypeSelection",
  LOWER_LIMIT: "limitEntityTypeSelection",
  RESULT: "resultEntityTypeSelection",
  COMPONENT_ID: "componentEntityTypeSelection",
};

/** A measurement's associations and the entity type each one must have. */
export const ASSOCIATION_ROLES = ["upperLimit", "lowerLimit", "result"] as const;
export type TAssociationRole = (typeof ASSOCIATION_ROLES)[number];
export const ASSOCIATION_ENTITY_TYPE: Record<TAssociationRole, TSignalEntityType> = {
  upperLimit: "UPPER_LIMIT",
  lowerLimit: "LOWER_LIMIT",
  result: "RESULT",
};

export const SIGNAL_MANAGEMENT_MESSAGES = {
  stationNotFound: "Station not found",
  // requirements.md settings §2.8 (info text), §4 "Final station switch", §8
  finalStationNeedsResult:
    "Only stations that contain a result signal can be designated as a 'Final Station'",
  stationSaveFailed: "Failed to update Station",
  // requirements.md settings §5 "Friendly name (signal)"
  noLeadingSpaces: "No leading spaces allowed.",
  // requirements.md settings §5 "Association containers"
  atLeastOneMeasurement: "At least one measurement must be selected.",
  noMoreThanOne: (what: "upper limit" | "lower limit" | "result") =>
    `No more than 1 ${what} may be selected.`,
  // requirements.md settings §5 "Result classification"
  classificationEmpty: "Can not be empty",
  classificationExists: "Already exists",
  // requirements.md settings §5 "Result classification configuration"
  allMustBeResults: "All selected signals must be of entity type result",
  sameConfiguration: "Only result signals with the same configuration can be selected to view together",
  associationsMultipleTypes: "Associations can't be viewed for selection sets with multiple entity types.",
  // requirements.md settings §8 "Signals and stations"
  associationSaved: "Successfully Saved Association",
  associationFailed: "Error Saving Associations",
  entitySaved: "Successfully Saved Entity Change",
  entityFailed: "Error Saving Entity Change",
  distributionSaved: "Successfully Saved Distribution",
  distributionFailed: "Error Saving Distribution",
  // Not worded by the spec (docs/spec-deviations.md "Signal Management")
  duplicateSignal: "A signal may appear only once in a request",
  entityTypeStorage: (name: string, type: TSignalEntityType) =>
    `${name} holds ${ENTITY_TYPES_BY_STORAGE.num.includes(type) ? "text" : "numbers"} and can not become ${ENTITY_TYPE_LABELS[type]}`,
  entityTypeDisabled: (type: TSignalEntityType) =>
    `Entity type ${ENTITY_TYPE_LABELS[type]} is not enabled for this customer`,
  associationsOnlyOnMeasurements: (name: string) =>
    `${name} is not a measurement and can not have associations`,
  associationWrongType: (name: string, role: TAssociationRole) =>
    `${name} can not be associated as ${ENTITY_TYPE_LABELS[ASSOCIATION_ENTITY_TYPE[role]].toLowerCase()}: it is not of entity type ${ENTITY_TYPE_LABELS[ASSOCIATION_ENTITY_TYPE[role]].toLowerCase()}`,
  singleSideOnlyMeasurements: (name: string) => `${name} is not a measurement and can not be single sided`,
  singleSidedDisabled: "Single-sided distributions are not enabled for this customer",
} as const;

/** Friendly name: no leading whitespace; empty means none (requirements.md settings §5 "Friendly name (signal)"). */
export const ZSignalFriendlyName = zString()
  .max(200)
  .refine((s) => !/^\s/.test(s), SIGNAL_MANAGEMENT_MESSAGES.noLeadingSpaces)
  .transform((s) => (s.trim() === "" ? null : s.trimEnd()));

export const ZStationParams = z.strictObject({ stationId: ZId });
/** PATCH /api/stations/{stationId} (requirements.md settings §7): 204 on success. */
export const ZStationPatchBody = z.strictObject({ final: z.boolean() });

/** What PATCH /api/signal-attribute-update may set; null clears an association (requirements.md settings §7). */
export const ZSignalAttributes = z.strictObject({
  quality_characteristic: ZQualityCharacteristic.optional(),
  signal_entity_type: ZSignalEntityType.optional(),
  signal_friendly_name: ZSignalFriendlyName.nullable().optional(),
  signal_active: z.boolean().optional(),
  upper_limit: ZId.nullable().optional(),
  lower_limit: ZId.nullable().optional(),
  result: ZId.nullable().optional(),
});
export type TSignalAttributes = z.infer<typeof ZSignalAttributes>;

export const ZSignalAttributeUpdateBody = z.strictObject({
  signalRequest: z.strictObject({ customer_uuid: ZId, plant_uuid: ZId, line_uuid: ZId }),
  signals: z
    .array(z.strictObject({ signal_uuid: ZId, signal_attributes: ZSignalAttributes }))
    .min(1)
    .max(10000),
});
export type TSignalAttributeUpdateBody = z.infer<typeof ZSignalAttributeUpdateBody>;

/** PATCH /api/signals (requirements.md settings §7): each signal's single-sided boundary, null for none. */
export const ZSignalSingleSideBody = z
  .array(z.strictObject({ id: ZId, singleSide: ZSignalLimitSide.nullable() }))
  .min(1)
  .max(10000);
export type TSignalSingleSideBody = z.infer<typeof ZSignalSingleSideBody>;

export const ZResultValue = z.enum(RESULT_VALUES);
export type TResultValue = z.infer<typeof ZResultValue>;

const ZClassificationWrite = z.strictObject({
  value: zString().trim().min(1, SIGNAL_MANAGEMENT_MESSAGES.classificationEmpty).max(200),
  failureMode: zString()
    .trim()
    .max(200)
    .nullable()
    .transform((s) => (s ? s : null)),
});

/** One signal's classifications as saved: three lists, each value once across them. */
export const ZResultClassificationsWrite = z
  .strictObject({
    pass: z.array(ZClassificationWrite).max(1000),
    fail: z.array(ZClassificationWrite).max(1000),
    other: z.array(ZClassificationWrite).max(1000),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    for (const result of RESULT_VALUES)
      c[result].forEach((row, i) => {
        if (seen.has(row.value))
          ctx.addIssue({
            code: "custom",
            path: [result, i, "value"],
            message: SIGNAL_MANAGEMENT_MESSAGES.classificationExists,
          });
        seen.add(row.value);
      });
  });

/** PATCH /api/signal/result-classifications (requirements.md settings §7): by signal id, its classifications. */
export const ZResultClassificationsPatchBody = z
  .record(ZId, z.strictObject({ resultClassifications: ZResultClassificationsWrite }))
  .refine((r) => Object.keys(r).length > 0 && Object.keys(r).length <= 1000, "Between 1 and 1000 signals");
export type TResultClassificationsPatchBody = z.infer<typeof ZResultClassificationsPatchBody>;

// ── Entity type changes: what they undo (requirements.md settings §4 "Entity type change") ─────────────────────────

type TAssociable = Pick<TSignal, "id" | "entityType" | "upperLimit" | "lowerLimit" | "result">;

/** An association a change removes: `signalId` stops being `measurementId`'s `role`. */
export type TDissociation = { measurementId: string; role: TAssociationRole; signalId: string };

/**
 * The associations that entity type changes break: a measurement that stops being one loses its
 * own; a limit or result that changes type leaves the measurements that point at it. The summary
 * dialog lists them and the server applies them, from this one function.
 */
export function dissociationsOf(
  signals: readonly TAssociable[],
  newTypes: ReadonlyMap<string, TSignalEntityType>,
): TDissociation[] {
  const typeOf = (s: TAssociable) => newTypes.get(s.id) ?? s.entityType;
  const byId = new Map(signals.map((s) => [s.id, s]));
  const out: TDissociation[] = [];
  for (const m of signals) {
    if (m.entityType !== "MEASUREMENT") continue;
    const stays = typeOf(m) === "MEASUREMENT";
    for (const role of ASSOCIATION_ROLES) {
      const target = m[role];
      if (!target) continue;
      const t = byId.get(target);
      const targetLeaves = !!t && newTypes.has(target) && typeOf(t) !== ASSOCIATION_ENTITY_TYPE[role];
      if (!stays || targetLeaves) out.push({ measurementId: m.id, role, signalId: target });
    }
  }
  return out;
}

/** The Signal Management page's words (requirements.md settings §2.8, §4, §8), spelled as the spec spells them. */
export const SIGNAL_MANAGEMENT_TEXT = {
  title: "Signal Management",
  lineLabel: "Line",
  noLines: "No Lines",
  noLinesText: "No lines exist for this plant.",
  searchLabel: "Search stations and signals",
  noResults: "No stations or signals match the search",
  noStations: "No stations on this line",
  noSignals: "No signals at this station",
  final: "Final",
  configureStation: "Configure Station",
  configuringHint: "Configuring Signal Data",
  configuringHintText:
    "Select a signal in the tree to configure it, or several with Ctrl (⌘) or Shift. Configure Station shows a station and whether it is the final station.",
  onlyAssociable: "Only measurements, results and limits can be associated",
  lockedWhileClassifications: "Can't change selections while viewing result classifications",
  // Station form
  stationName: "Name",
  finalStation: "Final Station",
  // Signal form
  signalStatus: "Signal Status",
  on: "On",
  off: "Off",
  name: "Name",
  friendlyName: "Friendly Name",
  configure: "Configure",
  save: "Save",
  cancel: "Cancel",
  entityType: "Entity Type",
  mixed: "Mixed",
  distribution: "Distribution",
  singleSided: "Single Sided",
  lowerBoundary: "Lower Boundary",
  upperBoundary: "Upper Boundary",
  labeling: "Labeling",
  qualityCharacteristic: "Quality Characteristic",
  associations: "Associations",
  editAssociations: "Edit Associations",
  resultClassifications: "Result Classifications",
  editResultClassifications: "Edit Result Classifications",
  selectionSummary: (n: number) => `See selection summary (${n})`,
  selectionSummaryTitle: "Selection summary",
  useFriendlyNames: "Use Friendly Names",
  clearSelection: "Clear Selection",
  close: "Close",
  // requirements.md settings §8 association view states
  cannotViewMultiple: "Cannot be Viewed for Multiple Signals",
  noAssociations: "No Associations Set",
  mixedAssociations: "Mixed Associations",
  // Entity type change (requirements.md settings §4)
  entityDialogTitle: "Change Entity Type",
  entityDialogConvert: (type: string) => `These signals will be converted to ${type}:`,
  entityDialogDissociate: "These associations will be dissociated:",
  entityDialogNoDissociations: "No associations will be dissociated.",
  entityDialogCapLimits:
    "The cap limits of these signals will no longer be used (they are kept, and apply again if the signal becomes a measurement again):",
  capLimitsUnused: "its cap limits will no longer be used",
  // Other measurements' cap limit formulas that name a signal being converted (issue #15)
  capFormulas:
    "These cap limit formulas use signals being converted; they are kept and go on reading those signals' values:",
  capFormulaLine: (signal: string, cell: string, model: string) => `${signal} — ${cell}, model ${model}`,
  capFormulaUses: (names: string) => `uses ${names}`,
  capFormulasLoading: "Checking the cap limit formulas...",
  capFormulasFailed: "The cap limit formulas could not be checked.",
  changeEntityType: "Change Entity Type",
  saving: "Saving...",
  // Association editing (requirements.md settings §2.8, §4, §9: 55 / 15 / 15 / 15 %)
  containers: {
    measurement: "Measurement",
    upperLimit: "Upper Limit",
    lowerLimit: "Lower Limit",
    result: "Result",
  },
  dropHere: "Drag signals here",
  confirm: "Confirm",
  entityChanges: "Entity Changes",
  associationChanges: "Association Changes",
  noEntityChanges: "No entity types change.",
  noAssociationChanges: "No associations change.",
  create: "Create",
  delete: "Delete",
  next: "Next",
  back: "Back",
  saveConfiguration: "I understand. Save this configuration.",
  dragHint:
    "Drag a signal with the mouse, or focus it and press Space, move it from container to container with the arrow keys, and press Space again to drop it.",
  // Result classifications panel (requirements.md settings §2.8)
  classificationsFor: (name: string) => `Classifications for ${name}`,
  commonClassifications: "Common Classifications",
  uniqueClassifications: "Unique Classifications",
  withoutUnique: "Without Unique Classifications",
  makeCommon: "Make Common",
  addClassification: "Add Classification",
  value: "Value",
  result: "Result",
  failureMode: "Failure Mode",
  failureModePlaceholder: "Enter failure mode",
  actions: "Actions",
  noClassifications: "No Classifications",
  noCommonClassifications: "No Common Classifications",
  saveChanges: "Save Changes",
  discardTitle: "Discard Changes",
  discardText:
    "Changes made during this session will be removed and the signals reverted to their saved classifications.",
  continueEditing: "Continue Editing",
  discardChanges: "Discard Changes",
  resultLabels: { pass: "pass", fail: "fail", other: "other" },
  // Not worded by the spec (docs/spec-deviations.md)
  classificationsSaved: "Successfully Saved Result Classifications",
  classificationsFailed: "Error Saving Result Classifications",
  friendlyNameSaved: "Successfully Saved Friendly Name",
  friendlyNameFailed: "Error Saving Friendly Name",
  signalSaved: "Successfully Saved Signal",
  signalFailed: "Error Saving Signal",
} as const;

/** A saved monitor whose signals were switched off or converted in Signal Management (issue #15). */
export const UNMONITORED_TEXT = {
  warning: (n: number) =>
    `${n} of this monitor's signals ${n === 1 ? "is" : "are"} switched off or no longer a measurement in Signal Management: the monitor runs on the others. Remove ${n === 1 ? "it" : "them"} in the Signals tab to save the monitor.`,
  /** Members of the monitor's signal groups: left out without blocking a save. */
  groupWarning: (n: number) =>
    `${n} signal${n === 1 ? "" : "s"} in this monitor's signal groups ${n === 1 ? "is" : "are"} switched off or no longer a measurement in Signal Management: the monitor runs on the others.`,
  /** Every signal it reaches: its evaluations record no data (NO_MONITORED_SIGNALS). */
  noneLeft:
    "All of this monitor's signals are switched off or no longer measurements in Signal Management: it records no data until one is switched back on or the monitor is given other signals.",
  chip: "Signals changed",
  chipTitle: (n: number) =>
    `${n} signal${n === 1 ? " is" : "s are"} switched off or no longer a measurement: the monitor runs on the others`,
  chipTitleNoneLeft:
    "All of its signals are switched off or no longer measurements: the monitor records no data",
} as const;
