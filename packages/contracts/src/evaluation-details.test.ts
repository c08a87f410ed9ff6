import { describe, expect, it } from "vitest";
import {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "./evaluation-details.fixtures.js";
import { parseEvaluationDetails, ZEvaluationDetails } from "./evaluation-details.js";

const { svd, mvd, cap } = storedUncorrectedDetails;

describe("parseEvaluationDetails", () => {
  it("reads what the worker writes now: the calibrated methods' details, whole", () => {
    for (const [type, d] of [
      ["svd", svdDetailsFixture()],
      ["mvd", mvdDetailsFixture()],
      ["cap", capDetailsFixture()],
    ] as const) {
      expect(parseEvaluationDetails(type, d)).toEqual(d);
    }
    expect(parseEvaluationDetails("mvd", { kind: "no_data", code: "TOO_FEW_ROWS" })).toEqual({
      kind: "no_data",
      code: "TOO_FEW_ROWS",
    });
  });

  it("reads details stored by the uncorrected methods (no method) as theirs, with their figures", () => {
    expect(parseEvaluationDetails("svd", svd)).toMatchObject({ kind: "svd", method: "uncorrected", k: 2.7 });
    expect(parseEvaluationDetails("mvd", mvd)).toMatchObject({ method: "uncorrected", ucl: 11.2, k: 6 });
    expect(parseEvaluationDetails("cap", cap)).toMatchObject({ method: "uncorrected", violations: 2 });
  });

  it("reads details stored before they carried a kind as the monitor type's, or NO_DATA's", () => {
    const { kind: _kind, ...kindless } = svd;
    expect(parseEvaluationDetails("svd", kindless)).toMatchObject({ kind: "svd", method: "uncorrected" });
    expect(parseEvaluationDetails("cap", { code: "NO_LIMITS", limitErrors: [] })?.kind).toBe("no_data");
  });

  it("answers null for nothing, for other shapes and for details of another kind", () => {
    expect(parseEvaluationDetails("svd", null)).toBeNull();
    expect(parseEvaluationDetails("svd", [1, 2])).toBeNull();
    expect(parseEvaluationDetails("svd", { w1: "far" })).toBeNull();
    // Stored without a kind, SVD details are not read as an MVD monitor's.
    const { kind: _kind, ...kindless } = svd;
    expect(parseEvaluationDetails("mvd", kindless)).toBeNull();
    // A calibrated MVD missing its tests' p-values is not read as an uncorrected one.
    const { p_mean: _p, ...incomplete } = mvdDetailsFixture();
    expect(parseEvaluationDetails("mvd", incomplete)).toBeNull();
    // An uncorrected CAP claimed as calibrated lacks the bound and the hits.
    expect(parseEvaluationDetails("cap", { ...cap, method: "calibrated" })).toBeNull();
  });

  it("the schema keeps MVD's mean signals with their shift, contribution and VIF, and CAP's hits with their points", () => {
    const d = ZEvaluationDetails.parse(
      capDetailsFixture({
        controlHits: [{ rule: 2, partId: "AX-1", ts: "2026-11-22T10:00:00.000Z", value: 26.1 }],
        controlHitCount: 1,
      }),
    );
    expect(d.kind === "cap" && d.method === "calibrated" && d.controlHits[0]?.rule).toBe(2);
    expect(() =>
      ZEvaluationDetails.parse(
        capDetailsFixture({ controlHits: [{ rule: 5 as 1, partId: null, ts: null, value: 1 }] }),
      ),
    ).toThrow();
    const m = ZEvaluationDetails.parse(mvdDetailsFixture());
    expect(m.kind === "mvd" && m.method === "calibrated" && m.meanSignals[1]).toEqual({
      id: null,
      name: "Angle",
      shift: -0.4,
      contribution: 3.1,
      vif: 2.1,
    });
  });
});

describe("CAP details of issue 29 (one α-level test)", () => {
  it("parses evaluations with and without the test's fields", () => {
    const withTest = {
      ...capDetailsFixture(),
      p_value: 0.002,
      p_control: 0.001,
      p_capability: 0.4,
      testCount: 2,
      capabilityAlpha: 0.005,
      controlTestedCount: 5,
      controlExtreme: { rule: 1, tail: 0.0002 },
      isControlOneSided: false,
    };
    expect(parseEvaluationDetails("cap", withTest)).toMatchObject({ p_control: 0.001, testCount: 2 });
    const stored = JSON.parse(JSON.stringify(capDetailsFixture()));
    const parsed = parseEvaluationDetails("cap", stored);
    expect(parsed).toMatchObject({ kind: "cap", method: "calibrated" });
    expect(parsed && "p_control" in parsed).toBe(false);
  });
});
