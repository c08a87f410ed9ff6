import { describe, expect, it } from "vitest";
import { isNoIngestion } from "./lines.js";

describe("isNoIngestion (spec settings §2.9)", () => {
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
  it("treats a threshold of 0 as 'any gap at all'", () => {
    expect(isNoIngestion({ lastIngestedTime: "2026-11-22T11:59:59Z", ingestionThresholdHours: 0 }, now)).toBe(
      true,
    );
  });
});
