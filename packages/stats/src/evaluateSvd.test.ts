import { describe, expect, it } from "vitest";
import { normalSample } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { evaluateSvd, type SvdEvaluation } from "./evaluateSvd.js";
import type { NoDataEvaluation } from "./evaluation.js";

function evaluated(result: SvdEvaluation | NoDataEvaluation): SvdEvaluation {
  if (result.state === "NO_DATA") throw new Error(`expected an evaluation, got NO_DATA: ${result.reason}`);
  return result;
}

describe("evaluateSvd", () => {
  it.each(vectors.svd.map((c, i) => [i, c] as const))("matches the reference on vector %i", (_, c) => {
    const result = evaluated(evaluateSvd(c.train, c.eval, c.alertThreshold));
    expectRelativelyClose(result.w1, c.expected.w1);
    expectRelativelyClose(result.scale, c.expected.scale);
    expectRelativelyClose(result.score, c.expected.score);
    expectRelativelyClose(result.threshold, c.expected.threshold);
    expect(result.breach).toBe(c.expected.breach);
    expect(result.state).toBe(c.expected.breach ? "BREACH" : "OK");
    expect(result.m).toBe(c.train.length);
    expect(result.n).toBe(c.eval.length);
    expect(result.scaleSource).toBe("sd");
  });

  it("stores both means and sds, n_eff and k", () => {
    const train = [9, 10, 11, 9, 10, 11, 9, 10, 11, 10];
    const ev = Array.from({ length: 25 }, (_, i) => 12 + (i % 3) - 1);
    const result = evaluated(evaluateSvd(train, ev, "medium"));
    expect(result.trainingMean).toBe(10);
    expect(result.trainingSd).toBeCloseTo(Math.sqrt(6 / 9), 14);
    expect(result.evaluationMean).toBeCloseTo(12 - 1 / 25, 12);
    expect(result.evaluationSd).toBeGreaterThan(0);
    expect(result.nEff).toBeCloseTo((10 * 25) / 35, 14);
    expect(result.k).toBe(2.7);
    // The evaluation sits ~2.4 σ above training: a breach.
    expect(result.breach).toBe(true);
  });

  it("breaches exactly when W̃ exceeds the threshold", () => {
    // Evaluation = training shifted by c: W₁ = |c|, so W̃ = |c| / sd lands where we put it.
    const train = normalSample(10, 40);
    const sd = evaluated(evaluateSvd(train, train, "medium")).scale;
    const threshold = 2.7 / Math.sqrt((40 * 40) / 80);
    for (const [factor, isBreach] of [
      [0.9, false],
      [1.1, true],
    ] as const) {
      const ev = train.map((x) => x + factor * threshold * sd);
      const result = evaluated(evaluateSvd(train, ev, "medium"));
      expect(result.threshold).toBeCloseTo(threshold, 14);
      expect(result.score).toBeCloseTo(factor * threshold, 10);
      expect(result.breach).toBe(isBreach);
      expect(result.state).toBe(isBreach ? "BREACH" : "OK");
    }
  });

  it("scores a pure mean shift of d σ at about d", () => {
    const train = normalSample(1, 4000);
    const ev = normalSample(2, 4000, 1.5);
    const result = evaluated(evaluateSvd(train, ev, "high"));
    expect(result.score).toBeGreaterThan(1.4);
    expect(result.score).toBeLessThan(1.6);
  });

  it("floors the threshold at 0.1 for large samples", () => {
    const result = evaluated(evaluateSvd(normalSample(3, 20000), normalSample(4, 20000), "low"));
    expect(result.threshold).toBe(0.1);
    expect(result.breach).toBe(false);
  });

  it("answers NO_DATA below the window minimums (training 10, evaluation 25)", () => {
    const ev = normalSample(5, 25);
    expect(evaluateSvd(normalSample(6, 9), ev, "medium")).toMatchObject({
      state: "NO_DATA",
      code: "TRAINING_TOO_SMALL",
    });
    expect(evaluateSvd(normalSample(6, 10), ev, "medium").state).not.toBe("NO_DATA");
    expect(evaluateSvd(normalSample(6, 10), ev.subarray(0, 24), "medium")).toMatchObject({
      state: "NO_DATA",
      code: "EVALUATION_TOO_SMALL",
    });
    expect(evaluateSvd([], [], "medium")).toMatchObject({ state: "NO_DATA", code: "TRAINING_TOO_SMALL" });
  });

  it('answers NO_DATA "constant signal" when the training set does not vary', () => {
    expect(evaluateSvd(new Float64Array(30).fill(0.1), normalSample(7, 30), "medium")).toEqual({
      state: "NO_DATA",
      code: "CONSTANT_SIGNAL",
      reason: "constant signal",
    });
  });

  it("leaves out missing and non-finite values and lists them", () => {
    const train = [...normalSample(8, 12)];
    const ev = [...normalSample(9, 26)];
    train[3] = Number.NaN;
    ev[0] = Number.POSITIVE_INFINITY;
    const result = evaluated(evaluateSvd(train, ev, "medium"));
    expect(result.m).toBe(11);
    expect(result.n).toBe(25);
    expect(result.leftOut).toEqual({ training: [3], evaluation: [0] });
    expect(Number.isFinite(result.score)).toBe(true);
    // Losing one more evaluation value drops below 25.
    ev[1] = Number.NaN;
    expect(evaluateSvd(train, ev, "medium").state).toBe("NO_DATA");
  });
});
