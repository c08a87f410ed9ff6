/** The tick format a time span needs: seconds under 15 min, the date past 20 h. */
export type TickSpan = "seconds" | "minutes" | "days";

export function tickSpanOf(times: readonly Date[]): TickSpan {
  if (times.length === 0) return "minutes";
  const ms = Math.max(...times.map((t) => t.getTime())) - Math.min(...times.map((t) => t.getTime()));
  return ms > 20 * 3600_000 ? "days" : ms < 15 * 60_000 ? "seconds" : "minutes";
}

/** "14:05", "14:05:30" or "11-22 14:05" in the plant's time zone, for the axis ticks. */
export function tickLabel(d: Date, timeZone: string, span: TickSpan): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(d);
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? "";
  const time = `${p("hour")}:${p("minute")}`;
  if (span === "days") return `${p("month")}-${p("day")} ${time}`;
  return span === "seconds" ? `${time}:${p("second")}` : time;
}
