// Line Management's rules in plain functions (spec settings §2.9, §5): the inline edits' checks,
// the rows the grids show, the counts, the tabs, the export, and the line editor's form.
import {
  ALERT_VIEWING_WINDOW_MAX,
  ALERT_VIEWING_WINDOW_MIN,
  alertViewingWindowOf,
  INGESTION_THRESHOLD_MAX,
  isNoIngestion,
  lineLabel,
  LINE_MANAGEMENT_MESSAGES as M,
  LINE_MANAGEMENT_TEXTS as T,
  type TActiveMonitorCount,
  type TAlertViewingWindow,
  type TFeatureFlags,
  type TLine,
  type TLinePatch,
  ZLineFriendlyName,
} from "@linewatch/contracts";
import { formatDateTime } from "../../../shared/format";

/** One row of either grid: the line with its polled monitor count and alert window. */
export type LineRow = TLine & { label: string; activeMonitors: number; noIngestion: boolean };

export function toLineRows(
  lines: readonly TLine[],
  counts: readonly TActiveMonitorCount[] | undefined,
  windows: readonly TAlertViewingWindow[] | undefined,
  now = new Date(),
): LineRow[] {
  return lines.map((l) => ({
    ...l,
    label: lineLabel(l),
    activeMonitors: counts?.find((c) => c.lineId === l.id)?.activeTaskCount ?? l.activeMonitorsCount,
    alertViewingWindowDays: windows ? alertViewingWindowOf(windows, l.id) : l.alertViewingWindowDays,
    noIngestion: isNoIngestion(l, now),
  }));
}

export const lineCounts = (lines: readonly Pick<TLine, "active">[]) => {
  const active = lines.filter((l) => l.active).length;
  return { active, inactive: lines.length - active, total: lines.length };
};

/** Part marriage's tabs, and the header counts as filters without it. */
export type LineFilter = "active" | "inactive" | "all";
export const filterLines = <L extends Pick<TLine, "active">>(lines: readonly L[], f: LineFilter): L[] =>
  f === "all" ? [...lines] : lines.filter((l) => l.active === (f === "active"));

const WHOLE = /^-?\d+$/;

/** Ingestion Alert Threshold as typed: empty is allowed; a whole number 0 to 1,000,000 (spec settings §5). */
export function validateThresholdText(text: string): string | null {
  const t = text.trim();
  if (t === "") return null;
  if (!WHOLE.test(t)) return M.wholeNumber;
  const n = Number(t);
  if (n < 0) return M.thresholdMin;
  if (n > INGESTION_THRESHOLD_MAX) return M.thresholdMax;
  return null;
}
export const parseThresholdText = (text: string): number | null =>
  text.trim() === "" ? null : Number(text.trim());

/** Overview Alert Filter as typed: a whole number 1 to 90. */
export function validateAlertFilterText(text: string): string | null {
  const t = text.trim();
  if (!WHOLE.test(t)) return M.alertFilterRange;
  const n = Number(t);
  return n < ALERT_VIEWING_WINDOW_MIN || n > ALERT_VIEWING_WINDOW_MAX ? M.alertFilterRange : null;
}

/** The export's rows (spec settings §2.9 "An export toolbar"): the grid's columns, times in the plant's zone. */
export function exportRows(rows: readonly LineRow[], timeZone: string): unknown[][] {
  const c = T.columns;
  return [
    [c.name, c.lineActive, c.activeMonitors, c.lastIngestedTime, c.ingestionThreshold, c.overviewAlertFilter],
    ...rows.map((r) => [
      r.label,
      r.active ? "Yes" : "No",
      r.activeMonitors,
      r.lastIngestedTime ? formatDateTime(r.lastIngestedTime, timeZone) : "",
      r.ingestionThresholdHours ?? "",
      r.alertViewingWindowDays,
    ]),
  ];
}

/** The line editor's fields as typed. */
export type LineEditorValues = {
  active: boolean;
  noDataAlert: string;
  alertDisplayed: string;
  friendlyName: string;
  excludedPartIds: string[];
  excludedModelNumbers: string[];
};
export type LineEditorErrors = Partial<Record<"noDataAlert" | "alertDisplayed" | "friendlyName", string>>;
export type LineEditorFlags = Pick<TFeatureFlags, "partMarriage" | "capExclusion" | "feederLineAssignment">;

export const editorValuesOf = (line: TLine): LineEditorValues => ({
  active: line.active,
  noDataAlert: line.ingestionThresholdHours == null ? "" : String(line.ingestionThresholdHours),
  alertDisplayed: String(line.alertViewingWindowDays),
  friendlyName: line.friendlyName ?? "",
  excludedPartIds: [...line.excludedPartIds],
  excludedModelNumbers: [...line.excludedModelNumbers],
});

/** The editor's messages (spec settings §5 "Line editor", "Friendly name (line)"). */
export function validateEditor(v: LineEditorValues, flags: LineEditorFlags): LineEditorErrors {
  const e: LineEditorErrors = {};
  if (flags.partMarriage) {
    const hours = v.noDataAlert.trim() === "" ? M.required : validateThresholdText(v.noDataAlert);
    if (hours) e.noDataAlert = hours;
    const days = v.alertDisplayed.trim() === "" ? M.required : validateAlertFilterText(v.alertDisplayed);
    if (days) e.alertDisplayed = days;
  }
  const name = ZLineFriendlyName.safeParse(v.friendlyName);
  if (!name.success) e.friendlyName = name.error.issues[0]?.message;
  return e;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * What Save Changes sends: only the changed fields (spec settings §5 "Line editor"). The alert
 * window has its own call (§7), so it comes apart from the line's PATCH.
 */
export function editorChanges(
  line: TLine,
  v: LineEditorValues,
  feederLineIds: readonly string[],
  flags: LineEditorFlags,
): { patch: TLinePatch; alertViewingWindowDays?: number } {
  const patch: TLinePatch = {};
  const before = editorValuesOf(line);
  let alertViewingWindowDays: number | undefined;
  if (flags.partMarriage) {
    if (v.active !== before.active) patch.active = v.active;
    if (v.noDataAlert.trim() !== before.noDataAlert)
      patch.ingestionThresholdHours = parseThresholdText(v.noDataAlert);
    if (v.alertDisplayed.trim() !== before.alertDisplayed)
      alertViewingWindowDays = Number(v.alertDisplayed.trim());
  }
  if (v.friendlyName !== before.friendlyName)
    patch.friendlyName = v.friendlyName === "" ? null : v.friendlyName;
  if (flags.feederLineAssignment && !sameSet(feederLineIds, line.feederLineIds))
    patch.feederLineIds = [...feederLineIds];
  if (flags.capExclusion) {
    if (!sameSet(v.excludedPartIds, before.excludedPartIds)) patch.excludedPartIds = v.excludedPartIds;
    if (!sameSet(v.excludedModelNumbers, before.excludedModelNumbers))
      patch.excludedModelNumbers = v.excludedModelNumbers;
  }
  return { patch, ...(alertViewingWindowDays === undefined ? {} : { alertViewingWindowDays }) };
}

/**
 * Save Changes is enabled when the form is valid and changed, feeder lines included (spec settings
 * §2.9 "or when feeder lines changed"; a form with an invalid field is not sent either way).
 */
export function canSaveEditor(
  line: TLine,
  v: LineEditorValues,
  feederLineIds: readonly string[],
  flags: LineEditorFlags,
): boolean {
  const changes = editorChanges(line, v, feederLineIds, flags);
  const changed = Object.keys(changes.patch).length > 0 || changes.alertViewingWindowDays !== undefined;
  return changed && Object.keys(validateEditor(v, flags)).length === 0;
}
