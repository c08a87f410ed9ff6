// Line Management's rules in plain functions (requirements.md settings §2.9, §5): the inline edits' checks,
// the rows the grids show, the counts, the tabs and the export (the line editor's form: line-editor.form.ts).
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
  type TLine,
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

/** Ingestion Alert Threshold as typed: empty is allowed; a whole number 0 to 1,000,000 (requirements.md settings §5). */
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

/** The export's rows (requirements.md settings §2.9 "An export toolbar"): the grid's columns, times in the plant's zone. */
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
