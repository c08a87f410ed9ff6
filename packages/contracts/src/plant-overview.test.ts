import { describe, expect, it } from "vitest";
import {
  ageText,
  overviewHours,
  overviewLineStatus,
  overviewMonitorOrder,
  PLANT_OVERVIEW_TEXTS,
} from "./plant-overview.js";

describe("overviewHours", () => {
  it("ends with the current hour of the plant's clock, 24 hours in all", () => {
    const { from, to } = overviewHours(new Date("2026-03-10T14:37:12.345Z"), "Europe/Berlin");
    expect(to.toISOString()).toBe("2026-03-10T15:00:00.000Z");
    expect(from.toISOString()).toBe("2026-03-09T15:00:00.000Z");
  });

  it("starts buckets at the plant's whole hours in a zone offset by half an hour", () => {
    // Kolkata is UTC+5:30: 14:37 UTC is 20:07 there, so the current hour began at 14:30 UTC.
    const { from, to } = overviewHours(new Date("2026-03-10T14:37:00Z"), "Asia/Kolkata");
    expect(to.toISOString()).toBe("2026-03-10T15:30:00.000Z");
    expect(from.toISOString()).toBe("2026-03-09T15:30:00.000Z");
  });

  it("keeps 24 absolute hours across a DST change", () => {
    // Berlin moved from UTC+1 to UTC+2 at 01:00 UTC on 29 March 2026.
    const { from, to } = overviewHours(new Date("2026-03-29T10:05:00Z"), "Europe/Berlin");
    expect(to.getTime() - from.getTime()).toBe(24 * 3_600_000);
    expect(to.toISOString()).toBe("2026-03-29T11:00:00.000Z");
  });
});

describe("overviewMonitorOrder", () => {
  it("puts active monitors first, then the worst last state, then names", () => {
    const ms = [
      { name: "b ok", active: true, lastState: "OK" as const },
      { name: "never", active: true, lastState: null },
      { name: "stopped", active: false, lastState: "BREACH" as const },
      { name: "a ok", active: true, lastState: "OK" as const },
      { name: "err", active: true, lastState: "ERROR" as const },
      { name: "breach", active: true, lastState: "BREACH" as const },
      { name: "quiet", active: true, lastState: "NO_DATA" as const },
    ];
    expect(ms.sort(overviewMonitorOrder).map((m) => m.name)).toEqual([
      "breach",
      "err",
      "quiet",
      "a ok",
      "b ok",
      "never",
      "stopped",
    ]);
  });
});

describe("ageText and the open-alerts text", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  it("speaks minutes, then hours up to two days, then days", () => {
    expect(ageText("2026-03-10T11:48:30Z", now)).toBe("11 min");
    expect(ageText("2026-03-10T10:00:00Z", now)).toBe("2 h");
    expect(ageText("2026-03-08T13:00:00Z", now)).toBe("47 h");
    expect(ageText("2026-03-07T12:00:00Z", now)).toBe("3 d");
    expect(ageText("2026-03-10T12:05:00Z", now)).toBe("0 min");
  });

  it('reads "3 SVD · oldest 2 h"', () => {
    expect(
      PLANT_OVERVIEW_TEXTS.openAlerts({ type: "svd", count: 3, oldestOpenedAt: "2026-03-10T09:30:00Z" }, now),
    ).toBe("3 SVD · oldest 2 h");
  });
});

describe("overviewLineStatus", () => {
  const open = [{ type: "svd" as const, count: 1, oldestOpenedAt: "2026-03-10T09:30:00Z" }];
  it("is Alerting with open alerts, else OK once records came, else No data yet", () => {
    expect(overviewLineStatus({ openAlerts: open, lastIngestedTime: null })).toBe("ALERTING");
    expect(overviewLineStatus({ openAlerts: [], lastIngestedTime: "2026-03-10T09:30:00Z" })).toBe("OK");
    expect(overviewLineStatus({ openAlerts: [], lastIngestedTime: null })).toBe("NO_DATA_YET");
  });
});
