import { describe, expect, it } from "vitest";
import * as stats from "./index.js";

describe("public API", () => {
  it("re-exports every function family", () => {
    for (const name of [
      "wassersteinDistance",
      "evaluateSvdCalibrated",
      "evaluateMvdCalibrated",
      "evaluateCapCalibrated",
      "varianceInflationFactor",
      "svdNullQuantile",
      "dispersionRatio",
      "svdDependenceFactor",
      "mannWhitneyGreater",
      "savageGreater",
      "twoSidedCriticalValue",
      "gappedCriticalValue",
      "pooledAr1Coefficient",
      "bissellStandardError",
      "capabilityIntervals",
      "sampleMean",
      "sampleCovariance",
      "ledoitWolfShrinkage",
      "shrinkCovariance",
      "choleskyDecompose",
      "choleskySolve",
      "hotellingT2",
      "hotellingUcl",
      "binomialUpperTail",
      "fQuantile",
      "chiSquareQuantile",
      "capability",
      "capabilityIndices",
      "parseLimitFormula",
      "evaluateLimitFormula",
      "matrixFromRows",
      "mean",
      "sampleStandardDeviation",
    ]) {
      expect(typeof (stats as Record<string, unknown>)[name], name).toBe("function");
    }
    expect(new stats.StatsError("EMPTY_INPUT", "x")).toBeInstanceOf(Error);
  });

  it("no longer has the uncorrected evaluations (removed in issue 29)", () => {
    for (const name of ["evaluateSvd", "evaluateMvd", "evaluateCap"]) {
      expect(name in stats, name).toBe(false);
    }
  });
});
