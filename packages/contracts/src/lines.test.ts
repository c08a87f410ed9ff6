import { describe, expect, it } from "vitest";
import { ZAlertViewingWindowDays, ZIngestionThresholdHours, ZLineFriendlyName } from "./line-fields.js";
import { alertViewingWindowOf, createsFeederCycle, isNoIngestion } from "./lines.js";

describe("isNoIngestion (requirements.md settings §2.9)", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  it("is true once last ingested time plus the threshold hours is in the past", () => {
    expect(isNoIngestion({ lastIngestedTime: "2026-11-22T09:59:59Z", ingestionThresholdHours: 2 }, now)).toBe(
      true,
    );
    expect(isNoIngestion({ lastIngestedTime: "2026-11-22T10:00:01Z", ingestionThresholdHours: 2 }, now)).toBe(
      false,
    );
  });
  it("is false without a threshold or without any data", () => {
    expect(
      isNoIngestion({ lastIngestedTime: "2026-01-01T00:00:00Z", ingestionThresholdHours: null }, now),
    ).toBe(false);
    expect(isNoIngestion({ lastIngestedTime: null, ingestionThresholdHours: 1 }, now)).toBe(false);
  });
  it("treats a threshold of 0 as no alert: a live line is never marked no ingestion", () => {
    expect(isNoIngestion({ lastIngestedTime: "2026-11-22T11:59:59Z", ingestionThresholdHours: 0 }, now)).toBe(
      false,
    );
    expect(isNoIngestion({ lastIngestedTime: "2026-01-01T00:00:00Z", ingestionThresholdHours: 0 }, now)).toBe(
      false,
    );
  });
});

describe("createsFeederCycle (requirements.md settings §5 'Feeder lines')", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
  ]);
  it("finds a cycle through one or more connections, and a line feeding itself", () => {
    expect(createsFeederCycle("c", ["a"], graph)).toBe(true);
    expect(createsFeederCycle("b", ["a"], graph)).toBe(true);
    expect(createsFeederCycle("x", ["x"], graph)).toBe(true);
  });
  it("allows chains and diamonds", () => {
    expect(createsFeederCycle("d", ["a", "b", "c"], graph)).toBe(false);
    expect(createsFeederCycle("a", ["b", "c"], graph)).toBe(false);
    expect(createsFeederCycle("a", [], graph)).toBe(false);
  });
});

describe("line inputs (requirements.md settings §5)", () => {
  const msg = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
    r.error?.issues[0]?.message;
  it("words the threshold rules as the spec does, and allows 0 and 1,000,000", () => {
    expect(msg(ZIngestionThresholdHours.safeParse(1.5))).toBe("Must be a whole number");
    expect(msg(ZIngestionThresholdHours.safeParse(-1))).toBe("Must be greater than or equal to 0");
    expect(msg(ZIngestionThresholdHours.safeParse(1_000_001))).toBe("Must be less than or equal to 1000000");
    expect(ZIngestionThresholdHours.safeParse(0).success).toBe(true);
    expect(ZIngestionThresholdHours.safeParse(1_000_000).success).toBe(true);
  });
  it("takes 1 to 90 whole days for the alert window", () => {
    for (const v of [0, 91, 1.5])
      expect(msg(ZAlertViewingWindowDays.safeParse(v))).toBe("Must be between 1 and 90");
    expect(
      ZAlertViewingWindowDays.safeParse(1).success && ZAlertViewingWindowDays.safeParse(90).success,
    ).toBe(true);
  });
  it("takes a friendly name of letters, digits and inner spaces only", () => {
    expect(ZLineFriendlyName.safeParse("Line 2 Süd").success).toBe(true);
    expect(msg(ZLineFriendlyName.safeParse(" Line"))).toBe("No leading spaces allowed.");
    expect(msg(ZLineFriendlyName.safeParse("Line_2"))).toBe("Only letters, numbers and spaces are allowed.");
  });
  it("answers 90 days for a line missing from the polled windows", () => {
    expect(alertViewingWindowOf([{ lineId: "l1", alertViewingWindowDays: 3 }], "l1")).toBe(3);
    expect(alertViewingWindowOf([], "l2")).toBe(90);
    expect(alertViewingWindowOf(undefined, "l2")).toBe(90);
  });
});
