import { describe, expect, it } from "vitest";
import { parseEvaluationDetails } from "./evaluation-details.js";

const svd = {
  signal: { id: "s", name: "Bore Diameter" },
  w1: 0.4,
  scale: 0.003,
  scaleSource: "sd",
  k: 2.7,
  nEff: 20,
  m: 75,
  n: 25,
  trainingMean: 12,
  trainingSd: 0.003,
  evaluationMean: 12.001,
  evaluationSd: 0.004,
  leftOut: { training: 0, evaluation: 0 },
};

describe("parseEvaluationDetails", () => {
  it("reads details that carry their kind", () => {
    expect(parseEvaluationDetails("svd", { kind: "svd", ...svd })?.kind).toBe("svd");
    expect(parseEvaluationDetails("mvd", { kind: "no_data", code: "TOO_FEW_ROWS" })).toEqual({
      kind: "no_data",
      code: "TOO_FEW_ROWS",
    });
  });

  it("reads details stored before they carried a kind as the monitor type's, or NO_DATA's", () => {
    expect(parseEvaluationDetails("svd", svd)?.kind).toBe("svd");
    expect(parseEvaluationDetails("cap", { code: "NO_LIMITS", limitErrors: [] })?.kind).toBe("no_data");
  });

  it("answers null for nothing, for other shapes and for details of another kind", () => {
    expect(parseEvaluationDetails("svd", null)).toBeNull();
    expect(parseEvaluationDetails("svd", [1, 2])).toBeNull();
    expect(parseEvaluationDetails("svd", { w1: "far" })).toBeNull();
    expect(parseEvaluationDetails("mvd", svd)).toBeNull();
  });
});
