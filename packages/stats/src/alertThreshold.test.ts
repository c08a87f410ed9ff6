import { describe, expect, it } from "vitest";
import { ALERT_THRESHOLD_LEVELS, DEFAULT_ALERT_THRESHOLD, isAlertThreshold } from "./alertThreshold.js";

describe("alert thresholds", () => {
  it("hold docs/monitoring.md's Sensitivity table", () => {
    expect(ALERT_THRESHOLD_LEVELS).toEqual({
      low: { alpha: 0.05, svdK: 2.1, cpkTarget: 1.67 },
      medium: { alpha: 0.01, svdK: 2.7, cpkTarget: 1.33 },
      high: { alpha: 0.001, svdK: 3.4, cpkTarget: 1.0 },
    });
    expect(DEFAULT_ALERT_THRESHOLD).toBe("medium");
  });

  it("recognise only the three levels", () => {
    expect(isAlertThreshold("low")).toBe(true);
    expect(isAlertThreshold("HIGH")).toBe(false);
    expect(isAlertThreshold("toString")).toBe(false);
    expect(isAlertThreshold(1)).toBe(false);
  });
});
