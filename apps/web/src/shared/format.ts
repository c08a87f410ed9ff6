import { LANGUAGE_LOCALES, type TLanguage } from "@linewatch/contracts";
import { currentLanguage } from "./i18n/language";

// Times are shown in the plant's time zone, never the browser's: one place builds the parts of an
// instant in a zone, and every time text (tables, details, chart ticks) comes from it. The
// language decides the order and the zone's short name ("2026-11-22 11:15:03 GMT+1" in English,
// "22.11.2026 11:15:03 MEZ" in German); the plant's zone decides the clock.

/** The calendar and clock fields of an instant in a time zone, 24-hour, zero-padded. */
function zonedParts(d: Date, timeZone: string, withZoneName: boolean, lang: TLanguage) {
  // en-CA: ISO-like fields; German takes its own zone names (MEZ, MESZ).
  const parts = new Intl.DateTimeFormat(lang === "en" ? "en-CA" : LANGUAGE_LOCALES[lang], {
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

/** The calendar day in the language's order: "2026-11-22" or "22.11.2026". */
function day(p: ReturnType<typeof zonedParts>, lang: TLanguage): string {
  return lang === "de" ? `${p("day")}.${p("month")}.${p("year")}` : `${p("year")}-${p("month")}-${p("day")}`;
}

/** A date-time shown in a plant's time zone: "2026-11-22 10:15:03 CET", "22.11.2026 10:15:03 MEZ". */
export function formatDateTime(iso: string | Date, timeZone: string, lang = currentLanguage()): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  const p = zonedParts(d, timeZone, true, lang);
  return `${day(p, lang)} ${p("hour")}:${p("minute")}:${p("second")} ${p("timeZoneName")}`;
}

/** The calendar day of an instant in a plant's time zone: "2026-11-22", "22.11.2026". */
export function formatDate(iso: string | Date, timeZone: string, lang = currentLanguage()): string {
  return day(zonedParts(typeof iso === "string" ? new Date(iso) : iso, timeZone, false, lang), lang);
}

/** The tick format a time span needs: seconds under 15 min, the date past 20 h. */
export type TickSpan = "seconds" | "minutes" | "days";

export function tickSpanOf(times: readonly Date[]): TickSpan {
  if (times.length === 0) return "minutes";
  const ms = Math.max(...times.map((t) => t.getTime())) - Math.min(...times.map((t) => t.getTime()));
  return ms > 20 * 3600_000 ? "days" : ms < 15 * 60_000 ? "seconds" : "minutes";
}

/** "14:05", "14:05:30" or "11-22 14:05" ("22.11. 14:05") in the plant's time zone, for a chart's axis ticks. */
export function tickLabel(d: Date, timeZone: string, span: TickSpan, lang = currentLanguage()): string {
  const p = zonedParts(d, timeZone, false, lang);
  const time = `${p("hour")}:${p("minute")}`;
  if (span === "days")
    return lang === "de" ? `${p("day")}.${p("month")}. ${time}` : `${p("month")}-${p("day")} ${time}`;
  return span === "seconds" ? `${time}:${p("second")}` : time;
}

/**
 * A measured figure to `digits` significant digits, as the charts and details show it: "4.2",
 * "0.00123", "1230" in English; with a decimal comma in German ("4,2"). No grouping: a figure is
 * read digit by digit against its neighbours.
 */
export function formatSignificant(
  v: number | null | undefined,
  digits: number,
  lang = currentLanguage(),
): string {
  if (v == null) return "–";
  const en = Number(v.toPrecision(digits)).toString();
  return lang === "en" ? en : en.replace(".", ",");
}

/** A count with the language's grouping: "12,345" in English, "12.345" in German. */
export const formatCount = (n: number, lang = currentLanguage()): string =>
  n.toLocaleString(LANGUAGE_LOCALES[lang]);
