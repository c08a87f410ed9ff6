import { z } from "zod";
import { ZId, zString } from "./common.js";

/** A line (requirements.md settings §3 "Line"). */
export const ZLine = z.object({
  id: ZId,
  plantId: ZId,
  name: zString(),
  displayName: zString().nullable(),
  friendlyName: zString().nullable(),
  active: z.boolean(),
  lastIngestedTime: z.iso.datetime({ offset: true }).nullable(),
  isNewLine: z.boolean(),
  ingestionThresholdHours: z.number().int().nullable(),
  alertViewingWindowDays: z.number().int(),
  activeMonitorsCount: z.number().int(),
  feederLineIds: z.array(ZId),
  excludedPartIds: z.array(zString()),
  excludedModelNumbers: z.array(zString()),
});
export type TLine = z.infer<typeof ZLine>;
export const ZLineList = z.array(ZLine);
export const ZLineParams = z.strictObject({ lineId: ZId });

/**
 * The line a plant opens on when none is chosen (a new session, another plant picked): its first
 * active line by name, ignoring case, whatever order the lines came in; its first line when none
 * is active. A line a CSV upload or MQTT message just created is no different from any other.
 */
export function defaultLine<L extends Pick<TLine, "name" | "active">>(lines: readonly L[]): L | null {
  const byName = [...lines].sort(
    (a, b) =>
      a.name.localeCompare(b.name, "en", { sensitivity: "base" }) ||
      (a.name < b.name ? -1 : +(a.name > b.name)),
  );
  return byName.find((l) => l.active) ?? byName[0] ?? null;
}

/** The name a line is shown by: its friendly name when it has one. */
export const lineLabel = (line: Pick<TLine, "name" | "friendlyName">): string =>
  line.friendlyName || line.name;

/**
 * "No Ingestion" shows when the last ingested time plus the threshold hours is in the past
 * (requirements.md settings §2.9). No threshold or no data yet: nothing to compare, no chip. A
 * threshold of 0 hours is no alert (docs/spec-deviations.md): read literally it would mark every
 * line no ingestion from the instant after its newest record, live or not.
 */
export function isNoIngestion(
  line: Pick<TLine, "lastIngestedTime" | "ingestionThresholdHours">,
  now: Date = new Date(),
): boolean {
  if (!line.ingestionThresholdHours || line.lastIngestedTime == null) return false;
  return new Date(line.lastIngestedTime).getTime() + line.ingestionThresholdHours * 3_600_000 < now.getTime();
}

export const LINE_MESSAGES = {
  notFound: "Unable to find the line",
  noIngestion: "No Ingestion",
  /** The Active column of a monitor that is on while its line is inactive (line overview). */
  monitorStoppedWithLine: "Yes (line inactive: stopped)",
  /** The line overview of a deactivated line (Settings → Line Management). */
  inactiveOverview:
    "This line is inactive: its monitors are stopped and evaluate nothing until the line is reactivated in Settings → Line Management. Its records are still stored.",
} as const;

/** No Data Alert / Ingestion Alert Threshold bounds, hours (requirements.md settings §5, §9). */
export const INGESTION_THRESHOLD_MAX = 1_000_000;
/** Alert Displayed / Overview Alert Filter bounds, days (requirements.md settings §5, §9). */
export const ALERT_VIEWING_WINDOW_MIN = 1;
export const ALERT_VIEWING_WINDOW_MAX = 90;
export const ALERT_VIEWING_WINDOW_DEFAULT = 90;
export const FRIENDLY_NAME_MAX = 100;
/** A line may be fed by at most this many lines (not shown; a bound so a request stays small). */
export const FEEDER_LINES_MAX = 500;
/** Excluded challenge parts and model numbers per line (not shown; a bound). */
export const EXCLUDED_VALUES_MAX = 1000;
export const LINE_EXPORT_FILE_NAME = "line-management-summary";

/** Every text of the Line Management page (requirements.md settings §2.9, §5, §8 "Lines"), word for word where the spec gives it. */
export const LINE_MANAGEMENT_TEXTS = {
  title: "Line Management",
  tabs: { enabled: "Enabled", disabled: "Disabled", all: "All" },
  enabled: "Enabled",
  disabled: "Disabled",
  counts: { active: "Active", inactive: "Inactive", total: "Total" },
  columns: {
    status: "Status",
    lineName: "Line Name",
    lastDataReceived: "Last Data received",
    activeMonitors: "Active Monitors",
    name: "Name",
    lineActive: "Line Active",
    lastIngestedTime: "Last Ingested Time",
    ingestionThreshold: "Ingestion Alert Threshold (hours)",
    overviewAlertFilter: "Overview Alert Filter (days)",
    actions: "Actions",
  },
  activeMonitorsTooltip: "Total count of all active SVD and MVD monitors",
  overviewAlertFilterTooltip: "Alerts older than this are excluded from Line Overview",
  newLine: "New",
  configureLine: "Configure Line",
  empty: "This plant has no lines yet.",
  moreActions: "Line actions",
  /** The header bar's counts, named for a screen reader (not in the spec). */
  countsLabel: "Line counts",
  /** An inline-edited cell's input, named by its column and row (not in the spec). */
  cellInput: (column: string, line: string) => `${column} of ${line}`,
  export: "Export",
  // The active toggle's confirmation (requirements.md settings §2.9)
  deactivateTitle: "Deactivate line?",
  deactivateText: (line: string) => `You are about to deactivate line "${line}."`,
  deactivateDetail:
    "Inactive lines are hidden, and all of their monitors are stopped. Data from the line is still stored.",
  reactivateTitle: "Reactivate line?",
  reactivateText: (line: string) => `You are about to reactivate line "${line}"`,
  reactivateDetail: "The line's data reappears, and its signal and monitor configurations are restored.",
  save: "Save",
  cancel: "Cancel",
  // Configure Line drawer
  lineName: "Line Name",
  active: "Active",
  noDataAlert: "No Data Alert (hours)",
  /** Not in the spec: what 0 means (docs/spec-deviations.md). */
  noDataAlertHelper: "0 turns the alert off",
  alertDisplayed: "Alert Displayed (days)",
  friendlyName: "Friendly Name",
  feederLines: "Feeder Lines",
  configure: "Configure",
  plant: "Plant",
  line: "Line",
  noFeederLines: "No feeder lines have been configured.",
  feederSearch: "Search",
  feederSelectedCaption: "lines will be fed in",
  saveChanges: "Save Changes",
  discardChanges: "Discard Changes",
  challengeParts: "Challenge Parts - Cap Monitors Only",
  challengeModelNumbers: "Challenge Model Numbers - Cap Monitors Only",
  challengeModelNumbersHelper: "Selected models excluded from Cap Monitors",
  close: "Close",
  ok: "Ok",
} as const;

export const LINE_MANAGEMENT_MESSAGES = {
  wholeNumber: "Must be a whole number",
  thresholdMin: "Must be greater than or equal to 0",
  thresholdMax: "Must be less than or equal to 1000000",
  required: "Required",
  alertFilterRange: "Must be between 1 and 90",
  alertFilterFailed: "Failed to update Overview Alert Filter",
  thresholdFailed: "Failed to update Ingestion Alert Threshold",
  deactivateFailed: "Failed to deactivate line",
  activateFailed: "Failed to activate line",
  circularDependency:
    "The update introduces a circular dependency, where the feeder line eventually references itself through one or more connections. Please check the feeder lines and try again.",
  saveFailedTitle: "Unable to Save Changes",
  saveFailedText:
    "We hit an issue saving your changes. Please try again, check your connection, or contact customer success.",
  friendlyNameLeadingSpace: "No leading spaces allowed.",
  friendlyNameAlphanumeric: "Only letters, numbers and spaces are allowed.",
  feederSelf: "A line cannot feed itself.",
  feederUnknown: "Unable to find the feeder line",
} as const;

/** GET /api/plant/get-active-monitor-count?plantId= (requirements.md settings §7). */
export const ZPlantIdQuery = z.strictObject({ plantId: ZId });
export const ZActiveMonitorCount = z.object({ lineId: ZId, activeTaskCount: z.number().int() });
export const ZActiveMonitorCountList = z.array(ZActiveMonitorCount);
export type TActiveMonitorCount = z.infer<typeof ZActiveMonitorCount>;

/** GET …/plants/{plantId}/alert-viewing-window and PUT …/lines/{lineId}/alert-viewing-window (requirements.md settings §7). */
export const ZAlertViewingWindow = z.object({ lineId: ZId, alertViewingWindowDays: z.number().int() });
export const ZAlertViewingWindowList = z.array(ZAlertViewingWindow);
export type TAlertViewingWindow = z.infer<typeof ZAlertViewingWindow>;

/** The viewing window of a line from the polled list: 90 when the line is missing (requirements.md settings §7). */
export const alertViewingWindowOf = (list: readonly TAlertViewingWindow[] | undefined, lineId: string) =>
  list?.find((w) => w.lineId === lineId)?.alertViewingWindowDays ?? ALERT_VIEWING_WINDOW_DEFAULT;

/**
 * Feeder line info (requirements.md settings §3): the line's feeder line ids and every plant of the customer
 * with its lines, from which feeder lines are chosen (any line of the customer, across plants).
 */
export const ZFeederLineInfo = z.object({
  feederLineIds: z.array(ZId),
  plants: z.array(
    z.object({
      id: ZId,
      name: zString(),
      lines: z.array(z.object({ id: ZId, name: zString(), friendlyName: zString().nullable() })),
    }),
  ),
});
export type TFeederLineInfo = z.infer<typeof ZFeederLineInfo>;

/** Options of the cap-exclusion fields: the line's challenge parts and its model numbers. */
export const ZLineExclusionOptions = z.object({
  partIds: z.array(zString()),
  modelNumbers: z.array(zString()),
});
export type TLineExclusionOptions = z.infer<typeof ZLineExclusionOptions>;

/**
 * Would making `lineId` fed by `feederIds` close a cycle? `fedBy` maps a line to the lines that
 * feed it (the current graph, without `lineId`'s own edges). A cycle exists when `lineId` is
 * reachable from one of the new feeders by following "fed by" edges, or feeds itself.
 */
export function createsFeederCycle(
  lineId: string,
  feederIds: readonly string[],
  fedBy: ReadonlyMap<string, readonly string[]>,
): boolean {
  const seen = new Set<string>();
  const stack = [...feederIds];
  while (stack.length) {
    const id = stack.pop() as string;
    if (id === lineId) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of fedBy.get(id) ?? []) stack.push(next);
  }
  return false;
}
