import { describe, expect, it } from "vitest";
import { CHART_P_VALUE_FLOOR, evaluationChartSeries, evaluationSummary } from "./evaluation-summary.js";

describe("evaluationSummary", () => {
  it("reads an MVD evaluation by its p-value against α, not by its mean T²", () => {
    expect(
      evaluationSummary("mvd", { score: 1.2734, threshold: 0.01, details: { p_value: 0.4321, k: 1, n: 30 } }),
    ).toBe("p-value 0.432 vs α 0.01, 1 of 30 parts above the UCL (mean T²/p 1.27)");
  });

  it("reads SVD as a distance in σ and cap as Ppk against its target", () => {
    expect(evaluationSummary("svd", { score: 0.5, threshold: 0.62 })).toBe(
      "Distance 0.5 σ vs threshold 0.62 σ",
    );
    expect(evaluationSummary("cap", { score: 1.06, threshold: 1.33, details: { violations: 2 } })).toBe(
      "Ppk 1.06 vs target 1.33, 2 points outside the control limits",
    );
  });

  it("says nothing when there is no score", () => {
    expect(evaluationSummary("svd", { score: null, threshold: 0.6 })).toBeNull();
  });

  it("charts MVD as its p-value against α, the same kind of figure, so breaches sit below the α line", () => {
    const mvd = evaluationChartSeries("mvd");
    const breach = { score: 13.788, threshold: 0.01, details: { p_value: 0.0002, k: 9, n: 30 } };
    expect(mvd.score(breach)).toBe(0.0002);
    expect((mvd.score(breach) ?? 1) < breach.threshold).toBe(true);
    expect(mvd.score({ score: 2, threshold: 0.01, details: { p_value: 0 } })).toBe(CHART_P_VALUE_FLOOR);
    expect([mvd.scoreLabel, mvd.thresholdLabel, mvd.scale]).toEqual(["p-value", "α", "log"]);
    expect(evaluationChartSeries("svd").score({ score: 0.5, threshold: 0.62 })).toBe(0.5);
  });
});
