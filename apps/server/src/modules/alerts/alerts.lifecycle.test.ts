import { describe, expect, it } from "vitest";
import { alertStep, noDataStep } from "./alerts.lifecycle.js";

describe("alertStep (docs/monitoring.md 'Alerts')", () => {
  it("a firing breach opens an alert, or counts on the open one", () => {
    expect(alertStep(null, "BREACH", "Consecutive")).toEqual({ kind: "opened", rule: "Consecutive" });
    expect(alertStep({ cleanStreak: 2 }, "BREACH", "breach")).toEqual({ kind: "fired", rule: "breach" });
  });
  it("a breach that does not fire resets the open alert's clean streak, and does nothing without one", () => {
    expect(alertStep({ cleanStreak: 2 }, "BREACH", null)).toEqual({ kind: "clean", cleanStreak: 0 });
    expect(alertStep(null, "BREACH", null)).toEqual({ kind: "none" });
  });
  it("the third OK in a row resolves the open alert; NO_DATA and ERROR change nothing", () => {
    expect(alertStep({ cleanStreak: 0 }, "OK", null)).toEqual({ kind: "clean", cleanStreak: 1 });
    expect(alertStep({ cleanStreak: 2 }, "OK", null)).toEqual({ kind: "auto-resolved", cleanStreak: 3 });
    expect(alertStep(null, "OK", null)).toEqual({ kind: "none" });
    expect(alertStep({ cleanStreak: 2 }, "NO_DATA", null)).toEqual({ kind: "none" });
    expect(alertStep({ cleanStreak: 2 }, "ERROR", null)).toEqual({ kind: "none" });
  });
});

describe("noDataStep (Line Management's No Data Alert hours)", () => {
  const now = new Date("2026-11-28T12:00:00Z");
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
  const line = (over: Partial<Parameters<typeof noDataStep>[0]> = {}) => ({
    active: true,
    thresholdHours: 2,
    lastIngestedTime: hoursAgo(3),
    ...over,
  });

  it("opens an alert for an active line past its hours, scored in hours since its last record", () => {
    expect(noDataStep(line(), false, now)).toEqual({ kind: "opened", score: 3, threshold: 2 });
  });
  it("opens none within the hours, exactly at them, with the hours off, on an inactive line, or before any record", () => {
    expect(noDataStep(line({ lastIngestedTime: hoursAgo(1) }), false, now)).toEqual({ kind: "none" });
    expect(noDataStep(line({ lastIngestedTime: hoursAgo(2) }), false, now)).toEqual({ kind: "none" });
    expect(noDataStep(line({ thresholdHours: 0 }), false, now)).toEqual({ kind: "none" });
    expect(noDataStep(line({ thresholdHours: null }), false, now)).toEqual({ kind: "none" });
    expect(noDataStep(line({ active: false }), false, now)).toEqual({ kind: "none" });
    expect(noDataStep(line({ lastIngestedTime: null }), false, now)).toEqual({ kind: "none" });
  });
  it("keeps an open alert current while the line stays silent", () => {
    expect(noDataStep(line({ lastIngestedTime: hoursAgo(5) }), true, now)).toEqual({
      kind: "still-silent",
      score: 5,
    });
    expect(noDataStep(line({ lastIngestedTime: null }), true, now)).toEqual({
      kind: "still-silent",
      score: null,
    });
  });
  it("resolves an open alert once records are within the hours again, the hours are off or the line inactive", () => {
    expect(noDataStep(line({ lastIngestedTime: hoursAgo(0.5) }), true, now)).toEqual({
      kind: "auto-resolved",
    });
    expect(noDataStep(line({ lastIngestedTime: hoursAgo(2) }), true, now)).toEqual({ kind: "auto-resolved" });
    expect(noDataStep(line({ thresholdHours: 0 }), true, now)).toEqual({ kind: "auto-resolved" });
    expect(noDataStep(line({ active: false }), true, now)).toEqual({ kind: "auto-resolved" });
  });
});
