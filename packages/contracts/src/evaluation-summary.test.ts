import { describe, expect, it } from "vitest";
import {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "./evaluation-details.fixtures.js";
import { parseEvaluationDetails } from "./evaluation-details.js";
import {
  adjustmentLines,
  CHART_P_VALUE_FLOOR,
  evaluationChartSeries,
  evaluationDetailLines,
  evaluationSummary,
  formatPValue,
  levelSupportText,
  SUMMARY_DETAIL_KEYS,
} from "./evaluation-summary.js";

/** The figures the alert list carries (SUMMARY_DETAIL_KEYS) of full details. */
const figuresOf = (d: Record<string, unknown>) =>
  Object.fromEntries(SUMMARY_DETAIL_KEYS.filter((k) => k in d).map((k) => [k, d[k]]));

describe("evaluationSummary", () => {
  it("reads a calibrated MVD by its p-value against α, the deciding part first, from the list's figures alone", () => {
    const e = { score: 3.1, threshold: 2, details: figuresOf(mvdDetailsFixture()) };
    expect(evaluationSummary("mvd", e)).toBe(
      "p-value 0.0008 vs α 0.01: means moved 1.8 σ (Mahalanobis), p = 0.0004; parts fit the training pattern worse than usual, p = 0.2",
    );
    const structure = figuresOf(mvdDetailsFixture({ p_mean: 0.6, p_struct: 0.00004, p_value: 0.00008 }));
    expect(evaluationSummary("mvd", { score: 4.1, threshold: 2, details: structure })).toBe(
      "p-value 8e-5 vs α 0.01: parts fit the training pattern worse than usual, p = 4e-5; means moved 1.8 σ (Mahalanobis), p = 0.6",
    );
    // Without the details, α and p come back from −log₁₀ α and −log₁₀ p.
    expect(evaluationSummary("mvd", { score: 3, threshold: 3, details: { method: "calibrated" } })).toBe(
      "p-value 0.001 vs α 0.001",
    );
  });

  it("reads an MVD stored by the uncorrected method by its p-value against α, not by its mean T²", () => {
    expect(
      evaluationSummary("mvd", { score: 1.2734, threshold: 0.01, details: { p_value: 0.4321, k: 1, n: 30 } }),
    ).toBe("p-value 0.432 vs α 0.01, 1 of 30 parts above the UCL (mean T²/p 1.27)");
    expect(
      evaluationSummary("mvd", {
        score: 1.4,
        threshold: 0.01,
        details: figuresOf(storedUncorrectedDetails.mvd),
      }),
    ).toBe("p-value 0.002 vs α 0.01, 6 of 25 parts above the UCL (mean T²/p 1.4)");
  });

  it("reads SVD as a distance in σ (with its VIF when it widened the threshold) and CAP as Ppk's bound against its target", () => {
    expect(evaluationSummary("svd", { score: 0.5, threshold: 0.62 })).toBe(
      "Distance 0.5 σ vs threshold 0.62 σ",
    );
    expect(
      evaluationSummary("svd", { score: 0.5, threshold: 0.9, details: figuresOf(svdDetailsFixture()) }),
    ).toBe("Distance 0.5 σ vs threshold 0.9 σ (VIF 2.9)");
    expect(
      evaluationSummary("svd", {
        score: 0.5,
        threshold: 0.62,
        details: figuresOf(svdDetailsFixture({ vif: 1 })),
      }),
    ).toBe("Distance 0.5 σ vs threshold 0.62 σ");
    expect(
      evaluationSummary("cap", { score: 1.1, threshold: 1.33, details: figuresOf(capDetailsFixture()) }),
    ).toBe("Ppk 0.8, upper 99 % bound 1.1 vs target 1.33");
    const control = figuresOf(capDetailsFixture({ controlHitCount: 2 }));
    expect(evaluationSummary("cap", { score: null, threshold: 1.33, details: control })).toBe(
      "2 new points fired a control rule",
    );
    expect(evaluationSummary("cap", { score: 1.06, threshold: 1.33, details: { violations: 2 } })).toBe(
      "Ppk 1.06 vs target 1.33, 2 points outside the control limits",
    );
  });

  it("says nothing when there is no score", () => {
    expect(evaluationSummary("svd", { score: null, threshold: 0.6 })).toBeNull();
    expect(
      evaluationSummary("cap", { score: null, threshold: 1.33, details: figuresOf(capDetailsFixture()) }),
    ).toBeNull();
  });

  it("formats p-values for people", () => {
    expect([0.2, 0.0004, 0.00004, 1e-20].map(formatPValue)).toEqual(["0.2", "0.0004", "4e-5", "< 1e-16"]);
  });
});

describe("evaluationDetailLines", () => {
  it("MVD: the part that fired with its p-value, the other part, the moved signals, the VIFs", () => {
    expect(
      evaluationDetailLines(mvdDetailsFixture({ droppedSignals: [{ id: null, name: "Spindle Load" }] })),
    ).toEqual([
      "Fired: means moved 1.8 σ (Mahalanobis), p = 0.0004",
      "parts fit the training pattern worse than usual, p = 0.2",
      "moved signals: Torque +1.9 σ, Angle −0.4 σ",
      "threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.1: Angle 2.1",
      "left out as constant: Spindle Load",
    ]);
    // Many signals on too few alike rows: the plural and "no sample size" when none holds.
    const many = mvdDetailsFixture({
      calibration: { holds: false, minimumSampleSize: null, dependenceDegrees: 11 },
    });
    expect(evaluationDetailLines(many)).toContain(
      `with these signals' autocorrelation, ${many.m + many.n} records cannot hold 1 false alarm in ${Math.round(1 / many.alpha)} evaluations; no sample size up to 100,000 records can`,
    );
    // An OK evaluation marks no part as fired.
    const ok = evaluationDetailLines(mvdDetailsFixture({ p_mean: 0.3, p_struct: 0.5, p_value: 0.6 }));
    expect(ok.some((l) => l.startsWith("Fired"))).toBe(false);
  });

  it("SVD: means and sds, the VIF and the shape adjustment, the floor", () => {
    expect(evaluationDetailLines(svdDetailsFixture({ isThresholdFloored: true }))).toEqual([
      "mean 46 → 45.5, sd 0.6 → 0.5 (training → evaluation)",
      "threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.9",
      "threshold × 1.05 for the shape of the values (skew, tails)",
      "threshold at its floor of 0.1 σ",
    ]);
    expect(adjustmentLines(svdDetailsFixture({ vif: 1, shapeRatio: 1.01 }))).toEqual([
      "no autocorrelation found in the training values (VIF 1)",
      "values close to normal in shape: no shape adjustment",
    ]);
    // Evaluations since the dependent kernel say what the autocorrelation did to the threshold.
    expect(adjustmentLines(svdDetailsFixture({ vif: 2.9, dependenceFactor: 1.62 }))[0]).toBe(
      "threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.9: threshold × 1.62",
    );
    // A window too small for the dependence it measured says so, with the window that would hold.
    const unsupported = svdDetailsFixture({
      vif: 3,
      effectiveSampleSize: 8.3,
      calibration: { holds: false, minimumSampleSize: 79, dependenceDegrees: 9.4 },
    });
    expect(adjustmentLines(unsupported).slice(1, 3)).toEqual([
      `the ${unsupported.m} training records are worth about 8.3 independent ones (effective sample size)`,
      `with this signal's autocorrelation, ${unsupported.m + unsupported.n} records cannot hold 1 false alarm in 100 evaluations; use at least 79`,
    ]);
    // A cycle in the training values: said in place of "no autocorrelation found", whose VIF
    // (the residuals' share, below 1) would read as nothing found.
    expect(
      adjustmentLines(
        svdDetailsFixture({ vif: 0.67, cycle: { period: 100.2, share: 0.334 }, shapeRatio: 1.01 }),
      ),
    ).toEqual([
      "a cycle of about 100 records in the training values (33 % of their variance): whole periods average out of the means",
      "values close to normal in shape: no shape adjustment",
    ]);
    // A window too short for the cycle names it, with the window that spans two periods.
    const cyclic = svdDetailsFixture({
      vif: 0.67,
      cycle: { period: 100.2, share: 0.334 },
      calibration: { holds: false, minimumSampleSize: 1002, dependenceDegrees: null, limitedBy: "cycle" },
    });
    expect(adjustmentLines(cyclic)).toContain(
      `with this signal's cycle of about 100 records, ${cyclic.m + cyclic.n} records cannot hold 1 false alarm in 100 evaluations; use at least 1002`,
    );
    // Holding, with independent values: neither line.
    expect(
      adjustmentLines(
        svdDetailsFixture({
          vif: 1,
          effectiveSampleSize: unsupported.m,
          calibration: { holds: true, minimumSampleSize: 50, dependenceDegrees: null },
        }),
      ),
    ).toHaveLength(2);
    // Heavy tails: the null law's mean up, its quantile-to-mean ratio down; the line shows both.
    expect(adjustmentLines(svdDetailsFixture({ shapeRatio: 1.13, dispersionRatio: 0.96 }))[1]).toBe(
      "threshold × 1.08 for the shape of the values (skew, tails)",
    );
  });

  it("CAP: the control hits with their points (at most maxPoints listed), or none; Ppk with its interval and bound", () => {
    const hit = (i: number) => ({ rule: 1 as const, partId: `AX-${i}`, ts: null, value: 30 + i });
    const lines = evaluationDetailLines(
      capDetailsFixture({ controlHits: [hit(1), hit(2), hit(3)], controlHitCount: 7, isControlBreach: true }),
      { maxPoints: 2 },
    );
    expect(lines[0]).toBe(
      "Fired: 7 new points fired a control rule: AX-1, 31 (outside the control limits (rule 1)); AX-2, 32 (outside the control limits (rule 1)); and 5 more",
    );
    expect(lines[1]).toBe(
      "Fired: Ppk 0.8 (95 % interval 0.55–1.05), upper 99 % bound 1.1 below the target 1.33",
    );
    expect(lines[2]).toBe(
      "Cp 1 (0.72–1.28), Cpk 0.9 (0.65–1.15), Pp 0.9 (0.65–1.15), Ppk 0.8 (0.55–1.05) (95 % intervals)",
    );
    const quiet = evaluationDetailLines(
      capDetailsFixture({ isCapabilityBreach: false, ppkUpperBound: 1.5, vif: 1.8 }),
    );
    expect(quiet).toContain("control: none of the 5 new points fired a control rule (rule 1)");
    expect(quiet).toContain(
      "Ppk 0.8 (95 % interval 0.55–1.05), upper 99 % bound 1.5 not below the target 1.33",
    );
    expect(quiet).toContain(
      "capability uncertainty widened for autocorrelation: neighbouring parts are alike, VIF 1.8",
    );
    // The shape the bound allowed for, when the values are visibly skewed or heavy-tailed.
    expect(adjustmentLines(capDetailsFixture({ vif: 1, kurtosis: 7, skewness: 1.6 }))).toEqual([
      "capability bound allows for this signal's shape: skewness 1.6, kurtosis 7 (normal data: 0 and 3)",
    ]);
    expect(adjustmentLines(capDetailsFixture({ vif: 1, kurtosis: 3.2, skewness: 0.1 }))).toEqual([]);
    // Evaluations stored before the skewness was kept still read.
    expect(adjustmentLines(capDetailsFixture({ vif: 1, kurtosis: 3, skewness: undefined }))).toEqual([]);
    // The process the control rules were judged against, when not independent normal points.
    expect(
      adjustmentLines(
        capDetailsFixture({
          vif: 1,
          kurtosis: 3,
          controlNull: { arOrder: 2, nu: 4, gamma: 1.3, paths: 3000 },
        }),
      ),
    ).toEqual([
      "control rules judged against this signal's own process from its training values: autocorrelation (AR order 2), heavy tails (t, 4 degrees of freedom), a longer upper tail",
    ]);
    expect(
      adjustmentLines(
        capDetailsFixture({
          vif: 1,
          kurtosis: 3,
          controlNull: { arOrder: 0, nu: null, gamma: 0.75, paths: 1000 },
        }),
      ),
    ).toEqual([
      "control rules judged against this signal's own process from its training values: a longer lower tail",
    ]);
    // Values read on a gauge's grid.
    expect(
      adjustmentLines(
        capDetailsFixture({
          vif: 1,
          kurtosis: 3,
          controlNull: { arOrder: 0, nu: null, gamma: 1, paths: 0, resolution: 0.05 },
        }),
      ),
    ).toEqual([
      "control rules judged against this signal's own process from its training values: values read to 0.05 (the gauge's resolution)",
    ]);
    // A window whose training values are too few for the tails its control rules judge by.
    const short = capDetailsFixture({
      vif: 1,
      kurtosis: 3,
      controlNull: { arOrder: 0, nu: 3, gamma: 1, paths: 0 },
      trainingCount: 120,
      calibration: { holds: false, minimumSampleSize: 500, dependenceDegrees: null, limitedBy: "tails" },
    });
    expect(adjustmentLines(short)).toEqual([
      "control rules judged against this signal's own process from its training values: heavy tails (t, 3 degrees of freedom)",
      `with this signal's heavy or skewed tails, ${120 + short.n} records cannot hold 1 false alarm in 100 evaluations; use at least 500`,
    ]);
    // One that holds says nothing more.
    expect(
      adjustmentLines(
        capDetailsFixture({
          vif: 1,
          kurtosis: 3,
          trainingCount: 400,
          calibration: { holds: true, minimumSampleSize: 500, dependenceDegrees: null, limitedBy: null },
        }),
      ),
    ).toEqual([]);
  });
});

describe("evaluationChartSeries", () => {
  it("charts MVD as its p-value against α, the same kind of figure, so breaches sit below the α line", () => {
    const mvd = evaluationChartSeries("mvd");
    const breach = { score: 13.788, threshold: 0.01, details: { p_value: 0.0002, k: 9, n: 30 } };
    expect(mvd.score(breach)).toBe(0.0002);
    expect((mvd.score(breach) ?? 1) < (mvd.threshold(breach) ?? 0)).toBe(true);
    expect(mvd.score({ score: 2, threshold: 0.01, details: { p_value: 0 } })).toBe(CHART_P_VALUE_FLOOR);
    expect([mvd.scoreLabel, mvd.thresholdLabel, mvd.scale]).toEqual(["p-value", "α", "log"]);
    expect(evaluationChartSeries("svd").score({ score: 0.5, threshold: 0.62 })).toBe(0.5);
  });

  it("reads α back from a calibrated MVD's −log₁₀ α when the details lack it", () => {
    const mvd = evaluationChartSeries("mvd");
    expect(
      mvd.threshold({ score: 3, threshold: 2, details: { method: "calibrated", p_value: 0.001 } }),
    ).toBeCloseTo(0.01, 12);
    expect(mvd.threshold({ score: 3, threshold: 2, details: { alpha: 0.01 } })).toBe(0.01);
    expect(mvd.threshold({ score: 1.2, threshold: 0.05, details: {} })).toBe(0.05);
  });
});

describe("CAP held per evaluation (issue 29): p_control, p_capability, judged points", () => {
  const held = (over: Parameters<typeof capDetailsFixture>[0] = {}) =>
    capDetailsFixture({
      judgedCount: 600,
      p_value: 1,
      p_control: 0.69,
      p_capability: 0.8,
      testCount: 2,
      capabilityAlpha: 0.005,
      controlTestedCount: 600,
      controlExtreme: { rule: 1, tail: 0.0019 },
      isControlOneSided: false,
      isCapabilityBreach: false,
      ppkUpperBound: 1.6,
      ppk: 1.4,
      ...over,
    });
  const hit = (i: number) => ({ rule: 1 as const, partId: `AX-${i}`, ts: null, value: 30 + i });

  it("words an SVD monitor's heavy tails at low and a threshold at its floor", () => {
    expect(
      levelSupportText({
        records: 600,
        alpha: 0.05,
        minimumSampleSize: null,
        limitedBy: "tails",
        method: "svd",
      }),
    ).toBe(
      "with this signal's heavy tails, 600 records cannot hold 1 false alarm in 20 evaluations; no window size can; choose Medium or High",
    );
    expect(
      levelSupportText({
        records: 3000,
        alpha: 0.05,
        minimumSampleSize: null,
        limitedBy: "floor",
        method: "svd",
      }),
    ).toBe(
      "with 3000 records the threshold sits at its floor of 0.1 standard deviations (a smaller move is not worth an alert): fewer than 1 false alarm in 20 evaluations",
    );
  });

  it("words a window too small for a CAP signal's heavy tails", () => {
    expect(
      levelSupportText({
        records: 50,
        alpha: 0.05,
        minimumSampleSize: 75,
        limitedBy: "coarse",
        method: "cap",
      }),
    ).toBe(
      "with 50 records the control rules and the capability bound are judged on coarse levels: false alarms can be a quarter more or fewer than 1 in 20 evaluations; use at least 75",
    );
    expect(levelSupportText({ records: 150, alpha: 0.01, minimumSampleSize: 500, limitedBy: "tails" })).toBe(
      "with this signal's heavy or skewed tails, 150 records cannot hold 1 false alarm in 100 evaluations; use at least 500",
    );
    expect(
      levelSupportText({ records: 50, alpha: 0.01, minimumSampleSize: 79, limitedBy: "dependence" }),
    ).toBe(
      "with this signal's autocorrelation, 50 records cannot hold 1 false alarm in 100 evaluations; use at least 79",
    );
    expect(
      levelSupportText({
        records: 100,
        alpha: 0.01,
        minimumSampleSize: 140,
        signals: 20,
        limitedBy: "covariance",
      }),
    ).toBe(
      "with 20 signals and their autocorrelation, 100 records cannot hold 1 false alarm in 100 evaluations; use at least 140",
    );
  });

  it("names the capability part's share of α when the training values put it far above its target", () => {
    const d = held({ controlHits: [hit(1)], controlHitCount: 1, capabilityShare: 0.1 });
    expect(evaluationDetailLines(d)[0]).toBe(
      "p-value 1 vs α 0.01 (the smaller of the control part's p-value / 0.9 and the capability part's / 0.1: the training values put the capability far above its target)",
    );
    expect(evaluationDetailLines(held({ capabilityShare: 0.5 }))[0]).toBe(
      "p-value 1 vs α 0.01 (twice the smaller of the control and capability parts' p-values)",
    );
  });

  it("says control signals the judged points give by chance are expected at this level", () => {
    const d = held({ controlHits: [hit(1), hit(2), hit(3)], controlHitCount: 3 });
    const lines = evaluationDetailLines(d);
    expect(lines[0]).toBe(
      "p-value 1 vs α 0.01 (twice the smaller of the control and capability parts' p-values)",
    );
    expect(lines[1]).toBe(
      "3 points outside the control limits in 600 judged: expected by chance at this level (p = 0.69): AX-1, 31 (outside the control limits (rule 1)); AX-2, 32 (outside the control limits (rule 1)); AX-3, 33 (outside the control limits (rule 1))",
    );
    expect(lines[2]).toBe(
      "Ppk 1.4 (95 % interval 0.55–1.05), upper 99.5 % bound 1.6 not below the target 1.33, p = 0.8",
    );
    expect(lines.some((l) => l.startsWith("Fired"))).toBe(false);
    expect(evaluationSummary("cap", { score: 1.6, threshold: 1.33, details: figuresOf(d) })).toBe(
      "p-value 1 vs α 0.01: Ppk 1.4, upper 99.5 % bound 1.6 vs target 1.33, 3 of 600 new points fired a control rule, expected by chance at this level (p = 0.69)",
    );
  });

  it("marks a significant control part as fired", () => {
    const d = held({
      judgedCount: 5,
      controlHits: [hit(1)],
      controlHitCount: 1,
      p_control: 2e-9,
      p_value: 4e-9,
      isControlBreach: true,
    });
    expect(evaluationDetailLines(d)[1]).toBe(
      "Fired: 1 point outside the control limits in 5 judged: not expected by chance at this level (p = 2e-9): AX-1, 31 (outside the control limits (rule 1))",
    );
    const run = held({
      judgedCount: 5,
      controlHits: [{ rule: 4, partId: "AX-9", ts: null, value: 24.2 }],
      controlHitCount: 1,
      p_control: 0.06,
    });
    expect(evaluationDetailLines(run)[1]).toMatch(
      /^1 point fired a control rule in 5 judged: expected by chance/,
    );
  });

  it("reads evaluations stored before it as before: any hit fired", () => {
    const old = capDetailsFixture({ controlHits: [hit(1)], controlHitCount: 1, isControlBreach: true });
    expect(evaluationDetailLines(old)[0]).toBe(
      "Fired: 1 new point fired a control rule: AX-1, 31 (outside the control limits (rule 1))",
    );
  });
});

describe("evaluations stored by the uncorrected methods (removed from @linewatch/stats in issue 29)", () => {
  // As the database hands them back (JSON), with the score and threshold the worker stored beside
  // them: SVD W̃ against its threshold (σ), MVD mean T²/p against α, CAP Ppk against the Cpk target.
  const stored = JSON.parse(JSON.stringify(storedUncorrectedDetails)) as typeof storedUncorrectedDetails;
  const evaluations = {
    svd: { score: 1.03, threshold: 0.62, details: stored.svd },
    mvd: { score: 1.4, threshold: 0.01, details: stored.mvd },
    cap: { score: 0.8, threshold: 1.33, details: stored.cap },
  } as const;

  it("still parse, whole, as the uncorrected method's", () => {
    for (const type of ["svd", "mvd", "cap"] as const) {
      expect(parseEvaluationDetails(type, stored[type]), type).toEqual({
        ...stored[type],
        method: "uncorrected",
      });
    }
  });

  it("still read in one line (the alert list, the chart) from the list's figures", () => {
    const line = (type: "svd" | "mvd" | "cap") =>
      evaluationSummary(type, { ...evaluations[type], details: figuresOf(evaluations[type].details) });
    expect(line("svd")).toBe("Distance 1.03 σ vs threshold 0.62 σ");
    expect(line("mvd")).toBe("p-value 0.002 vs α 0.01, 6 of 25 parts above the UCL (mean T²/p 1.4)");
    expect(line("cap")).toBe("Ppk 0.8 vs target 1.33, 2 points outside the control limits");
  });

  it("still read in the drawer's and the Teams card's lines", () => {
    const lines = (type: "svd" | "mvd" | "cap") => {
      const parsed = parseEvaluationDetails(type, stored[type]);
      if (parsed === null) throw new Error(`${type} details did not parse`);
      return evaluationDetailLines(parsed);
    };
    // The uncorrected SVD's findings are its histogram and the summary; no lines of their own.
    expect(lines("svd")).toEqual([]);
    expect(lines("mvd")).toEqual(["6 of 25 parts above the UCL 11.2, p = 0.002"]);
    expect(lines("cap")).toEqual(["Ppk 0.8 vs target 1.33", "2 points outside the control limits"]);
    const mvd = evaluationChartSeries("mvd");
    expect([mvd.score(evaluations.mvd), mvd.threshold(evaluations.mvd)]).toEqual([0.002, 0.01]);
  });
});
