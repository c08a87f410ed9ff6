import { describe, expect, it } from "vitest";
import { formatCount, formatDate, formatDateTime, formatSignificant, tickLabel, tickSpanOf } from "./format";

describe("formatDateTime", () => {
  it("shows the instant in the plant's time zone, with the zone", () => {
    expect(formatDateTime("2026-11-22T10:15:03Z", "Europe/Berlin")).toBe("2026-11-22 11:15:03 GMT+1");
    expect(formatDateTime("2026-07-01T00:00:00Z", "America/Detroit")).toBe("2026-06-30 20:00:00 EDT");
  });
});

describe("formatDate", () => {
  it("gives the plant's calendar day, which is not the UTC day near midnight", () => {
    expect(formatDate("2026-11-22T23:30:00Z", "Europe/Berlin")).toBe("2026-11-23");
    expect(formatDate("2026-11-23T03:00:00Z", "America/Detroit")).toBe("2026-11-22");
    expect(formatDate(new Date("2026-11-22T12:00:00Z"), "UTC")).toBe("2026-11-22");
  });
});

describe("tickSpanOf", () => {
  const at = (min: number) => new Date(Date.UTC(2026, 10, 22, 10, 0) + min * 60_000);
  it("shows seconds under 15 minutes, the date past 20 hours, minutes between", () => {
    expect(tickSpanOf([])).toBe("minutes");
    expect(tickSpanOf([at(0), at(14)])).toBe("seconds");
    expect(tickSpanOf([at(0), at(15)])).toBe("minutes");
    expect(tickSpanOf([at(20 * 60), at(0)])).toBe("minutes");
    expect(tickSpanOf([at(0), at(20 * 60 + 1)])).toBe("days");
  });
});

describe("tickLabel", () => {
  it("labels a tick in the plant's time zone, 24-hour", () => {
    const d = new Date("2026-11-22T23:05:30Z");
    expect(tickLabel(d, "Europe/Berlin", "minutes")).toBe("00:05");
    expect(tickLabel(d, "Europe/Berlin", "seconds")).toBe("00:05:30");
    expect(tickLabel(d, "Europe/Berlin", "days")).toBe("11-23 00:05");
    expect(tickLabel(d, "America/Detroit", "days")).toBe("11-22 18:05");
  });
});

describe("in German", () => {
  it("writes days day first, German zone names, and decimal commas", () => {
    expect(formatDateTime("2026-11-22T10:15:03Z", "Europe/Berlin", "de")).toBe("22.11.2026 11:15:03 MEZ");
    expect(formatDate("2026-11-22T23:30:00Z", "Europe/Berlin", "de")).toBe("23.11.2026");
    expect(tickLabel(new Date("2026-11-22T23:05:30Z"), "Europe/Berlin", "days", "de")).toBe("23.11. 00:05");
    expect(formatSignificant(4.2, 3, "de")).toBe("4,2");
    expect(formatSignificant(4.2, 3, "en")).toBe("4.2");
    expect(formatSignificant(null, 3, "de")).toBe("–");
    expect(formatCount(12345, "de")).toBe("12.345");
    expect(formatCount(12345, "en")).toBe("12,345");
  });
});
