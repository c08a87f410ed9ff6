// Times are shown in the plant's time zone, never the browser's: one place builds the parts of an
// instant in a zone, and every time text (tables, details, chart ticks) comes from it.

/** The calendar and clock fields of an instant in a time zone, 24-hour, zero-padded. */
function zonedParts(d: Date, timeZone: string, withZoneName: boolean) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    ...(withZoneName ? { timeZoneName: "short" as const } : {}),
  }).formatToParts(d);
  return (t: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === t)?.value ?? "";
}

/** A date-time shown in a plant's time zone: "2026-11-22 10:15:03 CET". */
export function formatDateTime(iso: string | Date, timeZone: string): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  const p = zonedParts(d, timeZone, true);
  return `${p("year")}-${p("month")}-${p("day")} ${p("hour")}:${p("minute")}:${p("second")} ${p("timeZoneName")}`;
}

/** The calendar day of an instant in a plant's time zone: "2026-11-22". */
export function formatDate(iso: string | Date, timeZone: string): string {
  const p = zonedParts(typeof iso === "string" ? new Date(iso) : iso, timeZone, false);
  return `${p("year")}-${p("month")}-${p("day")}`;
}

/** The tick format a time span needs: seconds under 15 min, the date past 20 h. */
export type TickSpan = "seconds" | "minutes" | "days";

export function tickSpanOf(times: readonly Date[]): TickSpan {
  if (times.length === 0) return "minutes";
  const ms = Math.max(...times.map((t) => t.getTime())) - Math.min(...times.map((t) => t.getTime()));
  return ms > 20 * 3600_000 ? "days" : ms < 15 * 60_000 ? "seconds" : "minutes";
}

/** "14:05", "14:05:30" or "11-22 14:05" in the plant's time zone, for a chart's axis ticks. */
export function tickLabel(d: Date, timeZone: string, span: TickSpan): string {
  const p = zonedParts(d, timeZone, false);
  const time = `${p("hour")}:${p("minute")}`;
  if (span === "days") return `${p("month")}-${p("day")} ${time}`;
  return span === "seconds" ? `${time}:${p("second")}` : time;
}
