import {
  MONITOR_FORM_TIMINGS,
  monitorQueryErrors,
  previewPeriodOf,
  QUERY_BOUNDS,
  QUERY_MESSAGES,
  signalSelectionError,
  storedFilterOfForm,
  type TAssociatedResultClassifications,
  type TMonitorFormValues,
  type TMonitorPreviewBody,
  type TPartAttribute,
  type TPartAttributeSelection,
  type TSignalGroup,
} from "@linewatch/contracts";

// Pure rules of the Data Filters tab that contracts do not hold (yet). Kept here so the tab's
// components stay presentational and these can be tested without rendering.

export const PREVIEW_DEBOUNCE_MS = MONITOR_FORM_TIMINGS.previewMs;

/** Input format of the period's Time pickers (requirements.md monitor-forms §2: yyyy-MM-DD HH:mm:ss). */
export const PERIOD_TIME_FORMAT = "YYYY-MM-DD HH:mm:ss";

export const MS_PER_MINUTE = 60_000;

export const RESULT_ASSOCIATION_WARNING = QUERY_MESSAGES.resultAssociationWarning;
export const resultAssociationWarningText = () =>
  `${RESULT_ASSOCIATION_WARNING.before}'${RESULT_ASSOCIATION_WARNING.link}'${RESULT_ASSOCIATION_WARNING.after}`;

/**
 * Text typed into a Records or Duration input (requirements.md monitor-forms §5 "Period": whole non-negative numbers,
 * negative input ignored). `undefined`: the keystroke is refused and the input keeps its text;
 * `null`: the input is empty (nothing to commit); otherwise the whole number.
 */
export function parseWholeNumberInput(text: string): number | null | undefined {
  const t = text.trim();
  if (t === "") return null;
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Durations are stored in milliseconds and entered in minutes (requirements.md monitor-forms §5 "Period"). */
export const minutesOfMs = (ms: number | null) => (ms == null ? null : Math.round(ms / MS_PER_MINUTE));
export const msOfMinutes = (minutes: number) => minutes * MS_PER_MINUTE;

/** requirements.md monitor-forms §2 "Signals tab": MVD needs at least 2 signals or 1 group, SVD exactly one signal. */
export function isSignalSelectionValid(
  v: Pick<TMonitorFormValues, "monitor_type" | "signal_uuids" | "signal_group_uuids">,
) {
  return signalSelectionError(v.monitor_type, v.signal_uuids.length, v.signal_group_uuids.length) === null;
}

/**
 * The signals whose result association matters: the selected signals and the members of the
 * selected groups, once each. `null` while the groups a selection needs are not known yet.
 */
export function selectedSignalIds(
  signalUuids: string[],
  groupUuids: string[],
  groups: TSignalGroup[] | undefined,
): string[] | null {
  if (groupUuids.length === 0) return [...new Set(signalUuids)];
  if (!groups) return null;
  const members = groups.filter((g) => groupUuids.includes(g.signalGroupUuid)).flatMap((g) => g.signalUuids);
  return [...new Set([...signalUuids, ...members])];
}

export type TResultAssociation = {
  /** Some selected signal's result has pass or fail classifications: the Result select applies. */
  isConfigured: boolean;
  /** Selected signals with no result classifications at all (no associated result signal). */
  lacking: string[];
};

/** requirements.md monitor-forms §2 "Data Filters tab": 'Not Configured' and the lack-of-association warning. */
export function resultAssociationOf(
  signalIds: string[],
  map: TAssociatedResultClassifications | undefined,
): TResultAssociation {
  let isConfigured = false;
  const lacking: string[] = [];
  for (const id of signalIds) {
    const c = map?.[id]?.associatedResultClassifications;
    if (c && (c.pass.length > 0 || c.fail.length > 0)) isConfigured = true;
    if (!c || c.pass.length + c.fail.length + c.other.length === 0) lacking.push(id);
  }
  return { isConfigured, lacking };
}

/** Selected attributes that the line's collection does not hold (requirements.md monitor-forms §5 "Part attributes"). */
export function missingPartAttributes(selection: TPartAttributeSelection[], line: TPartAttribute[]) {
  const known = new Set(line.map((a) => a.attributeUuid));
  return selection.filter((s) => s.attributeUuid !== "" && !known.has(s.attributeUuid));
}

export type TPreviewRequest =
  | { body: TMonitorPreviewBody; blocked: null }
  | { body: null; blocked: "signals" | "period" };

/**
 * The preview call for the tab's values: the monitor's filter plus the period of the tab.
 * Blocked while the signal selection does not suit the type or the period is invalid (an
 * invalid time has no ISO form). Part attribute rows still being filled in filter nothing and
 * are left out.
 */
export function previewRequestOf(v: TMonitorFormValues, opts: { now: number }): TPreviewRequest {
  if (!v.line_uuid || !isSignalSelectionValid(v)) return { body: null, blocked: "signals" };
  if (Object.keys(monitorQueryErrors(v.query, opts)).length > 0) return { body: null, blocked: "period" };
  const complete = v.part_attributes.filter(
    (a) => a.attributeUuid !== "" && a.selectedAttributeValues.length,
  );
  const filter = storedFilterOfForm({ ...v, part_attributes: complete });
  return {
    blocked: null,
    body: {
      type: v.monitor_type,
      line_id: v.line_uuid,
      alert_threshold: v.alert_threshold,
      filter: {
        ...filter,
        // End in Records counts from the start: that count is the window's size.
        sample_size: v.query.start_records ?? v.query.end_records ?? QUERY_BOUNDS.defaultRecords,
      },
      period: previewPeriodOf(v.query),
    },
  };
}
