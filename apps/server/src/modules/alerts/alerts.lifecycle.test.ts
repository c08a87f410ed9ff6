import { describe, expect, it } from "vitest";
import { alertStep } from "./alerts.lifecycle.js";

describe("alertStep (design/monitoring.md 'Alerts')", () => {
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
