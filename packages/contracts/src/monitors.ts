import { z } from "zod";
import { ZId, zString } from "./common.js";
import {
  type TMonitorType,
  ZAlertThreshold,
  ZEvaluationState,
  ZMonitorType,
  ZServerAlertThreshold,
} from "./domain.js";
// Bounds and messages live in monitor-texts.ts (zod-free, for pages that only show them: issue #17).
// So do the values the Cap Alerts page shows and sends (its op counts, run rules, challenge ranges).
import {
  CHALLENGE_RANGE_MODES,
  CHALLENGE_RANGE_TEXTS,
  CONTROL_RULES_ARL_TEXTS,
  CONTROL_RULES_ARL0,
  controlRulesArl0,
  fromServerAlertThreshold,
  MONITOR_BOUNDS,
  MONITOR_MESSAGES,
  OP_COUNTS,
  RUN_RULE_TEXTS,
  RUN_RULES,
  round4,
  type TOpCount,
  type TRunRule,
  toServerAlertThreshold,
} from "./monitor-texts.js";

export {
  CHALLENGE_RANGE_MODES,
  CHALLENGE_RANGE_TEXTS,
  CONTROL_RULES_ARL_TEXTS,
  CONTROL_RULES_ARL0,
  controlRulesArl0,
  fromServerAlertThreshold,
  MONITOR_BOUNDS,
  MONITOR_MESSAGES,
  OP_COUNTS,
  RUN_RULE_TEXTS,
  RUN_RULES,
  round4,
  type TOpCount,
  type TRunRule,
  toServerAlertThreshold,
};

// ── Types and thresholds ─────────────────────────────────────────────────────────────────────

export const ZOpCount = z.enum(OP_COUNTS);

const zPartId = zString().trim().min(1).max(200);
export const ZChallengeRange = z.discriminatedUnion("mode", [
  z.strictObject({
    mode: z.literal("TIME"),
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  }),
  z.strictObject({ mode: z.literal("PART"), from_part_id: zPartId, to_part_id: zPartId }),
]);
export type TChallengeRange = z.infer<typeof ZChallengeRange>;
export const ZChallengeRanges = z.array(ZChallengeRange).max(50);
export const ZRunRule = z.literal(RUN_RULES);
export const ZRunRules = z.array(ZRunRule).max(RUN_RULES.length);
/** The evaluation's switches for a filter's run rules. */
export const runRulesOf = (f: { run_rules?: readonly TRunRule[] }) => ({
  rule2: f.run_rules?.includes(2) ?? false,
  rule3: f.run_rules?.includes(3) ?? false,
  rule4: f.run_rules?.includes(4) ?? false,
});
const sortedRules = (r: readonly TRunRule[]) => [...new Set(r)].sort() as TRunRule[];
export const PASS_FAIL = ["pass", "fail"] as const;
export const ZPassFail = z.enum(PASS_FAIL);

// ── Bounds and defaults (requirements.md monitor-forms §9; docs/architecture.md "not shown" decisions) ───────

export const QUERY_BOUNDS = {
  minEvaluationRecordCount: 25,
  minTrainingSplit: 0.01,
  maxTrainingSplit: 0.5,
  minTimeDifferenceMs: 1000,
  minDurationMs: 60_000,
  maxDurationMs: 180_000_000,
  defaultRecords: 150,
  /** Record count used for the training-split lower bound when none is set. */
  defaultRecordCountForSplit: 3000,
  defaultDurationMs: 3_600_000,
  defaultTrainingSplit: 0.2,
  /** MVD_QUERY_MAX_RECORD_COUNT when the environment does not set it (docs/architecture.md). */
  defaultMaxRecordCount: 10_000,
} as const;

/** Records range: min 25 / 0.5 = 50, max the larger of that and the environment maximum. */
export function recordsRange(maxRecordCount: number = QUERY_BOUNDS.defaultMaxRecordCount) {
  const min = QUERY_BOUNDS.minEvaluationRecordCount / QUERY_BOUNDS.maxTrainingSplit;
  return { min, max: Math.max(min, maxRecordCount) };
}

/** Default records: the smaller of 150 and the environment maximum. */
export const defaultRecords = (maxRecordCount: number = QUERY_BOUNDS.defaultMaxRecordCount) =>
  Math.min(QUERY_BOUNDS.defaultRecords, maxRecordCount);

/** Training split lower bound: 25 / record count, rounded to 4 places, clamped to the split bounds. */
export function trainingSplitLowerBound(recordCount: number = QUERY_BOUNDS.defaultRecordCountForSplit) {
  const raw = round4(
    QUERY_BOUNDS.minEvaluationRecordCount / (recordCount || QUERY_BOUNDS.defaultRecordCountForSplit),
  );
  return Math.min(QUERY_BOUNDS.maxTrainingSplit, Math.max(QUERY_BOUNDS.minTrainingSplit, raw));
}

/** New cap monitor defaults (requirements.md monitor-forms §9, requirements.md settings §9; frequency from docs/architecture.md). */
export const CAP_MONITOR_DEFAULTS = {
  sample_size: 150,
  evaluation_ratio: 0.2,
  notes: "",
  active: false,
  frequency: MONITOR_BOUNDS.defaultCapFrequency,
} as const;

// ── Messages (spelled as the spec spells them) ───────────────────────────────────────────────

// ── Fields ───────────────────────────────────────────────────────────────────────────────────

/** requirements.md monitor-forms §5; rule from docs/architecture.md: required, 3 to 100, no leading spaces. */
export const ZMonitorName = zString(MONITOR_MESSAGES.nameRequired)
  .min(1, MONITOR_MESSAGES.nameRequired)
  .refine((s) => !/^\s/.test(s), MONITOR_MESSAGES.nameLeadingSpaces)
  .refine((s) => s.trim().length === 0 || s.length >= MONITOR_BOUNDS.nameMinLength, MONITOR_MESSAGES.nameMin)
  .refine((s) => s.length <= MONITOR_BOUNDS.nameMaxLength, MONITOR_MESSAGES.nameMax);

export const ZFrequency = z
  .number()
  .int(MONITOR_MESSAGES.frequencyWhole)
  .min(MONITOR_BOUNDS.minFrequency, MONITOR_MESSAGES.frequencyMin)
  .max(MONITOR_BOUNDS.maxFrequency, MONITOR_MESSAGES.frequencyMax);

export const ZNotes = zString().max(MONITOR_BOUNDS.notesMaxLength, MONITOR_MESSAGES.notesMax);

const zLabel = zString().trim().min(1).max(200);

/** Server form of a part attribute selection. */
export const ZTaskPartAttribute = z.strictObject({
  attribute_uuid: zString().trim().max(100),
  selected_attribute_values: z.array(zString().max(500)).max(1000),
});

// ── Server task (send shape, requirements.md monitor-forms §3) ──────────────────────────────────────────

type TaskDetailsShape = {
  challenge_ranges?: TChallengeRange[];
  signal_uuids: string[];
  signal_group_uuids: string[];
  part_attributes: { attribute_uuid: string; selected_attribute_values: string[] }[];
  sample_size: number;
  evaluation_ratio: number;
};

/**
 * The signal-count rule (requirements.md monitor-forms §5 "Signal selection"): MVD at least 2 signals or 1
 * group, SVD exactly one signal and no group. The message, or null when the selection is valid.
 */
export function signalSelectionError(
  type: TMonitorType,
  signalCount: number,
  groupCount: number,
): string | null {
  if (type === "mvd") return signalCount < 2 && groupCount < 1 ? MONITOR_MESSAGES.mvdSignals : null;
  if (signalCount === 0) return MONITOR_MESSAGES.svdSignalNone;
  return signalCount !== 1 || groupCount > 0 ? MONITOR_MESSAGES.svdSignalRequired : null;
}

function checkDetails(type: TMonitorType, d: TaskDetailsShape, ctx: z.RefinementCtx, at: string[]) {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path: [...at, ...path], message });
  const signals = signalSelectionError(type, d.signal_uuids.length, d.signal_group_uuids.length);
  if (signals) issue(["signal_uuids"], signals);
  d.part_attributes.forEach((a, i) => {
    if (a.attribute_uuid === "" || a.selected_attribute_values.length === 0)
      issue(["part_attributes", i], MONITOR_MESSAGES.partAttributeRequired);
  });
  // The evaluation set must hold at least 25 records (requirements.md monitor-forms §9 training split bound).
  const min = trainingSplitLowerBound(d.sample_size);
  if (
    Number.isInteger(d.sample_size) &&
    d.evaluation_ratio >= QUERY_BOUNDS.minTrainingSplit &&
    (d.evaluation_ratio < min ||
      Math.round(d.sample_size * d.evaluation_ratio) < QUERY_BOUNDS.minEvaluationRecordCount)
  ) {
    issue(["evaluation_ratio"], MONITOR_MESSAGES.evaluationRatioMin(min));
  }
  d.challenge_ranges?.forEach((r, i) => {
    if (type !== "cap") issue(["challenge_ranges", i], CHALLENGE_RANGE_TEXTS.capOnly);
    else if (r.mode === "TIME" && !(Date.parse(r.from) < Date.parse(r.to)))
      issue(["challenge_ranges", i], CHALLENGE_RANGE_TEXTS.timeOrder);
  });
}

/** The task schemas for a given MVD_QUERY_MAX_RECORD_COUNT (the records range depends on it). */
export function createTaskSchemas(maxRecordCount: number = QUERY_BOUNDS.defaultMaxRecordCount) {
  const range = recordsRange(maxRecordCount);
  const ZTaskDetails = z.strictObject({
    cust_uuid: ZId,
    plant_uuid: ZId,
    line_uuid: ZId,
    use_excluded_part_ids: z.boolean().default(false),
    use_excluded_model_numbers: z.boolean().default(false),
    alert_threshold: ZServerAlertThreshold.default(
      toServerAlertThreshold(MONITOR_BOUNDS.defaultAlertThreshold),
    ),
    part_attributes: z.array(ZTaskPartAttribute).max(200).default([]),
    part_groups: z.array(zLabel).max(1000).default([]),
    part_numbers: z.array(zLabel).max(1000).default([]),
    pass_fail_filter: z.array(ZPassFail).max(2).default([]),
    signal_group_uuids: z.array(ZId).max(200).default([]),
    signal_uuids: z.array(ZId).max(1000).default([]),
    evaluation_ratio: z
      .number()
      .min(QUERY_BOUNDS.minTrainingSplit, MONITOR_MESSAGES.evaluationRatioMin(QUERY_BOUNDS.minTrainingSplit))
      .max(QUERY_BOUNDS.maxTrainingSplit, MONITOR_MESSAGES.evaluationRatioMax(QUERY_BOUNDS.maxTrainingSplit)),
    sample_size: z
      .number()
      .int(MONITOR_MESSAGES.sampleSizeWhole)
      .min(range.min, MONITOR_MESSAGES.sampleSizeMin(range.min))
      .max(range.max, MONITOR_MESSAGES.sampleSizeMax(range.max)),
    op_count: ZOpCount.optional(),
    run_rules: ZRunRules.optional(),
    challenge_ranges: ZChallengeRanges.optional(),
  });
  const base = {
    task_name: ZMonitorName,
    task_type: ZMonitorType,
    active: z.boolean(),
    frequency: ZFrequency,
    notes: ZNotes.default(""),
    task_details: ZTaskDetails,
  };
  const ZTaskCreateBody = z
    .strictObject(base)
    .superRefine((t, ctx) => checkDetails(t.task_type, t.task_details, ctx, ["task_details"]));
  const ZTaskUpdateBody = z
    .strictObject({ ...base, task_uuid: ZId })
    .superRefine((t, ctx) => checkDetails(t.task_type, t.task_details, ctx, ["task_details"]));
  return { ZTaskDetails, ZTaskCreateBody, ZTaskUpdateBody };
}

export const { ZTaskDetails, ZTaskCreateBody, ZTaskUpdateBody } = createTaskSchemas();
export type TTaskDetails = z.input<typeof ZTaskDetails>;
export type TTaskCreateBody = z.input<typeof ZTaskCreateBody>;
export type TTaskUpdateBody = z.input<typeof ZTaskUpdateBody>;
export type TTaskCreate = z.output<typeof ZTaskCreateBody>;

// ── Stored filter (monitors.filter jsonb) ────────────────────────────────────────────────────
// One schema writes it (storedFilterOf) and reads it (parseStoredMonitorFilter: the worker, the
// preview, alert values). Reading is lenient with older rows: missing lists are empty, unknown
// keys (cust_uuid, line_uuid…) are dropped, and a ratio above 1 is a percentage (ratioOf).

export const ZStoredMonitorFilter = z.object({
  signal_uuids: z.array(zString()).default([]),
  signal_group_uuids: z.array(zString()).default([]),
  part_attributes: z
    .array(
      z.object({
        attribute_uuid: zString(),
        selected_attribute_values: z.array(zString()).default([]),
      }),
    )
    .default([]),
  sample_size: z.number().int().min(0).max(1_000_000).default(0),
  pass_fail_filter: z.array(ZPassFail).default([]),
  /** A fraction (0.2); values above 1 are read as a percentage (20 → 0.2). */
  evaluation_ratio: z.number().min(0).max(100).default(0),
  part_numbers: z.array(zString()).default([]),
  /** No part-group table exists yet: accepted and ignored by the window query. */
  part_groups: z.array(zString()).default([]),
  op_count: ZOpCount.optional(),
  /** cap only: Western Electric rules 2–4 it also breaches on (issue #14). */
  run_rules: ZRunRules.optional(),
  /** cap only: stretches of records the window leaves out (requirements.md monitor-forms §2). */
  challenge_ranges: ZChallengeRanges.optional(),
});
export type TStoredMonitorFilter = z.infer<typeof ZStoredMonitorFilter>;

/** Reads a stored filter; throws a readable error when it does not fit. */
export function parseStoredMonitorFilter(raw: unknown): TStoredMonitorFilter {
  const r = ZStoredMonitorFilter.safeParse(raw ?? {});
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.join(".") || "filter"}: ${i.message}`).join("; ");
    throw new Error(`invalid monitor filter: ${msg}`);
  }
  return r.data;
}

/** evaluation_ratio as a fraction. */
export const ratioOf = (f: Pick<TStoredMonitorFilter, "evaluation_ratio">) =>
  f.evaluation_ratio > 1 ? f.evaluation_ratio / 100 : f.evaluation_ratio;

/** The stored filter of a task's details; the evaluation ratio is kept to 4 places (requirements.md monitor-forms §3). */
export function storedFilterOf(d: z.output<typeof ZTaskDetails>): TStoredMonitorFilter {
  return {
    signal_uuids: d.signal_uuids,
    signal_group_uuids: d.signal_group_uuids,
    part_attributes: d.part_attributes.map((a) => ({
      attribute_uuid: a.attribute_uuid,
      selected_attribute_values: a.selected_attribute_values,
    })),
    sample_size: d.sample_size,
    pass_fail_filter: d.pass_fail_filter,
    evaluation_ratio: round4(d.evaluation_ratio),
    part_numbers: d.part_numbers,
    part_groups: d.part_groups,
    ...(d.op_count ? { op_count: d.op_count } : {}),
    ...(d.run_rules?.length ? { run_rules: sortedRules(d.run_rules) } : {}),
    ...(d.challenge_ranges?.length ? { challenge_ranges: d.challenge_ranges } : {}),
  };
}

const sortedStrings = (xs: string[]) => [...new Set(xs)].sort();

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/**
 * The canonical JSON of a monitor's filter plus its type: keys sorted, id lists sorted, part
 * attributes sorted by id with sorted values. Its md5 identifies duplicate settings on a line.
 */
export function canonicalMonitorFilterJson(type: TMonitorType, f: TStoredMonitorFilter): string {
  const filter = {
    ...f,
    signal_uuids: sortedStrings(f.signal_uuids),
    signal_group_uuids: sortedStrings(f.signal_group_uuids),
    part_numbers: sortedStrings(f.part_numbers),
    part_groups: sortedStrings(f.part_groups),
    pass_fail_filter: sortedStrings(f.pass_fail_filter),
    part_attributes: [...f.part_attributes]
      .map((a) => ({
        attribute_uuid: a.attribute_uuid,
        selected_attribute_values: sortedStrings(a.selected_attribute_values),
      }))
      .sort((a, b) =>
        a.attribute_uuid < b.attribute_uuid ? -1 : a.attribute_uuid > b.attribute_uuid ? 1 : 0,
      ),
  };
  return JSON.stringify(sortKeys({ filter, type }));
}

// ── Monitor (client view, requirements.md monitor-forms §3) ─────────────────────────────────────────────

export const ZMonitorFilter = z.object({
  cust_uuid: ZId,
  plant_uuid: ZId,
  line_uuid: ZId,
  signal_uuids: z.array(zString()),
  signal_group_uuids: z.array(zString()),
  part_groups: z.array(zString()),
  part_numbers: z.array(zString()),
  part_attributes: z.array(
    z.object({ attributeUuid: zString(), selectedAttributeValues: z.array(zString()) }),
  ),
  pass_fail_filter: z.array(ZPassFail),
  evaluation_ratio: z.number(),
  sample_size: z.number().int(),
  alert_threshold: ZAlertThreshold,
  op_count: ZOpCount.optional(),
  run_rules: ZRunRules.optional(),
  challenge_ranges: ZChallengeRanges.optional(),
});
export type TMonitorFilter = z.infer<typeof ZMonitorFilter>;

export const ZMonitor = z.object({
  monitor_uuid: ZId,
  monitor_name: zString(),
  monitor_type: ZMonitorType,
  active: z.boolean(),
  frequency: z.number().int(),
  notes: zString(),
  use_excluded_part_ids: z.boolean(),
  use_excluded_model_numbers: z.boolean(),
  monitor_filter: ZMonitorFilter,
  /** Where the schedule stands (answers only; the forms never send it). */
  last_state: ZEvaluationState.nullable().optional(),
  last_evaluated_at: z.iso.datetime({ offset: true }).nullable().optional(),
  next_run_at: z.iso.datetime({ offset: true }).nullable().optional(),
  /** md5 of the canonical filter the monitor was saved with (requirements.md monitor-forms §3, §4). */
  monitor_filter_md5: zString().nullable().optional(),
});
export type TMonitor = z.infer<typeof ZMonitor>;
export const ZMonitorList = z.array(ZMonitor);

// ── Requests and answers ─────────────────────────────────────────────────────────────────────

export const ZGetTaskByIdBody = z.strictObject({ taskId: ZId });
export const ZDeleteTaskBody = z.strictObject({ monitor_uuid: ZId });
export const ZMonitorListQuery = z.strictObject({ type: ZMonitorType.optional() });
export const ZNextMonitorNameQuery = z.strictObject({ type: ZMonitorType });
export const ZNextMonitorName = z.object({ name: zString() });
export const ZMonitorParams = z.strictObject({ monitorId: ZId });
export const ZMonitorUuidParams = z.strictObject({ monitorUuid: ZId });
/** 409 on a duplicate: the existing monitor's id (requirements.md monitor-forms §8). */
export const ZDuplicateMonitor = z.object({ message: zString(), task_uuid: ZId.optional() });

/** Capability-service variant (requirements.md monitor-forms §7). */
export const ZCreateCapMonitorBody = z.strictObject({ signalId: ZId });
export const ZCreatedMonitor = z.object({ id: ZId });
export const ZPatchMonitorBody = z
  .strictObject({
    active: z.boolean().optional(),
    useExcludedModelNumbers: z.boolean().optional(),
    useExcludedPartIds: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Nothing to change");
export type TPatchMonitorBody = z.infer<typeof ZPatchMonitorBody>;

/** Default name `<line> <TYPE> Monitor <n>` with the smallest free n (docs/architecture.md). */
export function nextMonitorName(lineName: string, type: TMonitorType, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) {
    const name = `${lineName} ${type.toUpperCase()} Monitor ${n}`;
    if (!used.has(name)) return name;
  }
}
