import { z } from "zod";
import { ZAlert, ZAlertMonitor } from "./alerts.js";
import { ZId, ZIsoDateTime, zString } from "./common.js";
import { type TEvaluationState, ZEvaluationState } from "./domain.js";
import { MONITOR_TYPES } from "./domain-values.js";
import { ZLine } from "./lines.js";
import { PLANT_TEXTS } from "./plant-texts.js";

// The plant at a glance, the home page (issue 18 §3): per line its status, open alerts by monitor
// type and age, its monitors' last states, records per hour over 24 hours; the plant's newest
// alerts. GET /api/plants/{plantId}/overview, polled by the page (PLANT_OVERVIEW_POLL_MS).

/** Hour buckets of records per line: the last 24 hours of the plant's clock, the current one last. */
export const PLANT_OVERVIEW_HOURS = 24;
/** How many of the plant's newest alerts the overview lists. */
export const PLANT_OVERVIEW_NEWEST_ALERTS = 10;

/** Open alerts are grouped by their monitor's type; a line's no-data alert has no monitor: "no_data". */
export const OVERVIEW_ALERT_TYPES = [...MONITOR_TYPES, "no_data"] as const;
export const ZOverviewAlertType = z.enum(OVERVIEW_ALERT_TYPES);
export type TOverviewAlertType = z.infer<typeof ZOverviewAlertType>;

/** A line's open (not resolved) alerts of one type: how many, and since when the oldest is open. */
export const ZOverviewOpenAlerts = z.object({
  type: ZOverviewAlertType,
  count: z.number().int().positive(),
  oldestOpenedAt: ZIsoDateTime,
});
export type TOverviewOpenAlerts = z.infer<typeof ZOverviewOpenAlerts>;

/** A monitor's mark: its last evaluation's state (null: not evaluated yet). */
export const ZOverviewMonitor = ZAlertMonitor.extend({
  active: z.boolean(),
  lastState: ZEvaluationState.nullable(),
  lastEvaluatedAt: ZIsoDateTime.nullable(),
});
export type TOverviewMonitor = z.infer<typeof ZOverviewMonitor>;

/**
 * A line's status on the home page: open alerts first; else whether records have come at all. No
 * Ingestion is said by its own chip beside it (the line list's rule, LINE_MESSAGES.noIngestion).
 */
export const OVERVIEW_LINE_STATUSES = ["ALERTING", "OK", "NO_DATA_YET"] as const;
export const ZOverviewLineStatus = z.enum(OVERVIEW_LINE_STATUSES);
export type TOverviewLineStatus = z.infer<typeof ZOverviewLineStatus>;

export const overviewLineStatus = (
  line: Pick<TOverviewLine, "openAlerts" | "lastIngestedTime">,
): TOverviewLineStatus =>
  line.openAlerts.length > 0 ? "ALERTING" : line.lastIngestedTime == null ? "NO_DATA_YET" : "OK";

/** An active line of the plant (a deactivated line is hidden from the home page, as from the top bar). */
export const ZOverviewLine = ZLine.pick({
  id: true,
  name: true,
  friendlyName: true,
  isNewLine: true,
  lastIngestedTime: true,
  ingestionThresholdHours: true,
}).extend({
  status: ZOverviewLineStatus,
  /** isNoIngestion at generatedAt (the rule of the line list's chip). */
  noIngestion: z.boolean(),
  /** Non-empty groups only, in OVERVIEW_ALERT_TYPES order. */
  openAlerts: z.array(ZOverviewOpenAlerts),
  /** In overviewMonitorOrder: the worst state first, then by name. */
  monitors: z.array(ZOverviewMonitor),
  /** Part records (by their own time) per hour, oldest first: bucket i starts at hoursFrom + i h. */
  recordsPerHour: z.array(z.number().int().nonnegative()).length(PLANT_OVERVIEW_HOURS),
});
export type TOverviewLine = z.infer<typeof ZOverviewLine>;

/** One of the plant's newest alerts (any state), linked to its line's overview. */
export const ZOverviewAlert = ZAlert.pick({
  id: true,
  lineId: true,
  kind: true,
  state: true,
  monitor: true,
  openedAt: true,
  lastSeenAt: true,
  count: true,
});
export type TOverviewAlert = z.infer<typeof ZOverviewAlert>;

export const ZPlantOverview = z.object({
  plantId: ZId,
  timeZone: zString(),
  generatedAt: ZIsoDateTime,
  /** Start of the first hour bucket; the last bucket is the current, partial hour. */
  hoursFrom: ZIsoDateTime,
  /** The plant's active lines by name. */
  lines: z.array(ZOverviewLine),
  /** Of its active lines, newest opened first, at most PLANT_OVERVIEW_NEWEST_ALERTS. */
  newestAlerts: z.array(ZOverviewAlert),
});
export type TPlantOverview = z.infer<typeof ZPlantOverview>;

// ── Rules shared by the server and the page ────────────────────────────────────────────────────

const HOUR_MS = 3_600_000;

/**
 * The 24 hour buckets at `now` in the plant's time zone: they start at whole hours of the plant's
 * clock (which differ from UTC's in zones offset by 30 or 45 minutes), the current partial hour
 * last. They are absolute hours: on a DST change the plant's clock repeats or skips an hour label,
 * never a bucket.
 */
export function overviewHours(now: Date, timeZone: string): { from: Date; to: Date } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    minute: "numeric",
    second: "numeric",
  }).formatToParts(now);
  const field = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const sinceHour = (field("minute") * 60 + field("second")) * 1000 + now.getUTCMilliseconds();
  const to = new Date(now.getTime() - sinceHour + HOUR_MS);
  return { from: new Date(to.getTime() - PLANT_OVERVIEW_HOURS * HOUR_MS), to };
}

/** Worst first: a breach needs eyes before an error, an error before no data, no data before OK. */
const STATE_RANK: Record<TEvaluationState | "none", number> = {
  BREACH: 0,
  ERROR: 1,
  NO_DATA: 2,
  OK: 3,
  none: 4,
};

/** The marks' order: active monitors first, the worst last state first, then by name. */
export function overviewMonitorOrder(
  a: Pick<TOverviewMonitor, "active" | "lastState" | "name">,
  b: Pick<TOverviewMonitor, "active" | "lastState" | "name">,
): number {
  return (
    Number(b.active) - Number(a.active) ||
    STATE_RANK[a.lastState ?? "none"] - STATE_RANK[b.lastState ?? "none"] ||
    a.name.localeCompare(b.name, "en", { sensitivity: "base" })
  );
}

/** An age in the largest unit that keeps it readable: "12 min", "5 h", "3 d" (units: the language's). */
export function ageText(
  since: string | Date,
  now: Date,
  units: { readonly min: string; readonly h: string; readonly d: string } = { min: "min", h: "h", d: "d" },
): string {
  const ms = Math.max(0, now.getTime() - new Date(since).getTime());
  if (ms < HOUR_MS) return `${Math.floor(ms / 60_000)} ${units.min}`;
  if (ms < 48 * HOUR_MS) return `${Math.floor(ms / HOUR_MS)} ${units.h}`;
  return `${Math.floor(ms / (24 * HOUR_MS))} ${units.d}`;
}

export const PLANT_OVERVIEW_TEXTS = {
  typeLabel: { svd: "SVD", mvd: "MVD", cap: "CAP", no_data: "No data" } satisfies Record<
    TOverviewAlertType,
    string
  >,
  stateLabel: { OK: "OK", BREACH: "Breach", NO_DATA: "No data", ERROR: "Error" } satisfies Record<
    TEvaluationState,
    string
  >,
  notEvaluated: "Not evaluated yet",
  inactive: "inactive",
  /** ageText's units. */
  ageUnits: { min: "min", h: "h", d: "d" },
  /** "3 SVD · oldest 2 h" */
  openAlerts: (g: Pick<TOverviewOpenAlerts, "type" | "count" | "oldestOpenedAt">, now: Date) =>
    `${g.count} ${PLANT_OVERVIEW_TEXTS.typeLabel[g.type]} · oldest ${ageText(g.oldestOpenedAt, now)}`,
  noOpenAlerts: "No open alerts",
  noMonitors: "No monitors",
  monitorsLabel: (line: string) => `Monitors of ${line}: last states`,
  recordsLabel: (total: number) =>
    `${total.toLocaleString("en-US")} records in the last ${PLANT_OVERVIEW_HOURS} hours`,
  newestAlerts: "Newest alerts",
  noAlerts: "No alerts in this plant yet.",
  lines: "Lines",
  noPlants: "No plants are set up for this customer yet.",
  askAdministrator: PLANT_TEXTS.askAdministrator,
  noLines: "No lines exist for this plant.",
  noDataYet: "No data yet",
  lastData: "Last data",
  status: { ALERTING: "Alerting", OK: "OK", NO_DATA_YET: "No data yet" } satisfies Record<
    TOverviewLineStatus,
    string
  >,
  timesIn: (timeZone: string) => `Times in ${timeZone}`,
  newLine: "New",
  updated: (at: string) => `Updated ${at}`,
  refreshFailed: (at: string) => `The overview could not be refreshed; it shows the state of ${at}.`,
  ago: (age: string) => `${age} ago`,
  /** A sparkline bar: "14:00: 120 records". */
  hourRecords: (hour: string, n: number) => `${hour}: ${n.toLocaleString("en-US")} records`,
  perDay: (total: number) => `${total.toLocaleString("en-US")} / ${PLANT_OVERVIEW_HOURS} h`,
} as const;
