import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { binomialUpperTail } from "./binomialUpperTail.js";
import { evaluateMvd, type MvdEvaluation } from "./evaluateMvd.js";
import type { NoDataEvaluation } from "./evaluation.js";
import { createMatrix, type Matrix, matrixFromRows } from "./matrix.js";

function evaluated(result: MvdEvaluation | NoDataEvaluation): MvdEvaluation {
  if (result.state === "NO_DATA") throw new Error(`expected an evaluation, got NO_DATA: ${result.reason}`);
  return result;
}

/** rows × p independent N(50, 1) values, seeded. */
function randomMatrix(seed: number, rows: number, p: number): Matrix {
  const next = normalGenerator(seed);
  return createMatrix(
    rows,
    p,
    Float64Array.from({ length: rows * p }, () => 50 + next()),
  );
}

describe("evaluateMvd", () => {
  it.each(vectors.mvd.map((c, i) => [i, c.kind, c] as const))(
    "matches the reference on vector %i (%s)",
    (_, __, c) => {
      const result = evaluated(
        evaluateMvd(matrixFromRows(c.train), matrixFromRows(c.eval), c.alertThreshold),
      );
      const e = c.expected;
      expect(result.keptSignals).toEqual(e.keptSignals);
      expectRelativelyClose(result.shrinkage, e.shrinkage);
      expect(result.t2.length).toBe(e.t2.length);
      e.t2.forEach((t, i) => {
        expectRelativelyClose(result.t2[i] as number, t);
      });
      expectRelativelyClose(result.ucl, e.ucl);
      expect(result.exceedances).toBe(e.exceedances);
      expectRelativelyClose(result.pValue, e.pValue);
      expectRelativelyClose(result.score, e.score);
      expect(result.breach).toBe(e.breach);
      const worst = result.worstRows[0];
      expect(worst?.row).toBe(e.worstRow);
      e.worstRowContributions.forEach((contribution, j) => {
        expectRelativelyClose(worst?.contributions[j] as number, contribution);
      });
      expect(result.m).toBe(c.train.length);
      expect(result.n).toBe(c.eval.length);
      expect(result.p).toBe(e.keptSignals.length);
    },
  );

  it("records the constant signal it dropped", () => {
    const constantCase = vectors.mvd.find((c) => c.kind === "constant-signal");
    if (constantCase === undefined) throw new Error("the reference file has no constant-signal case");
    const result = evaluated(
      evaluateMvd(matrixFromRows(constantCase.train), matrixFromRows(constantCase.eval), "medium"),
    );
    expect(result.droppedSignals).toEqual([2]);
    expect(result.keptSignals).toEqual([0, 1, 3]);
  });

  it("breaches on a mean shift and names the shifted signal as the top driver", () => {
    const train = randomMatrix(11, 200, 4);
    const ev = randomMatrix(12, 50, 4);
    for (let i = 0; i < ev.rows; i++) ev.data[i * 4 + 2] = (ev.data[i * 4 + 2] as number) + 3;
    const result = evaluated(evaluateMvd(train, ev, "medium"));
    expect(result.breach).toBe(true);
    expect(result.state).toBe("BREACH");
    expect(result.pValue).toBeLessThan(0.01);
    expect(result.worstRows).toHaveLength(3);
    for (const row of result.worstRows) expect(row.topSignals[0]?.signal).toBe(2);
    // Worst first.
    expect(result.worstRows[0]?.t2).toBeGreaterThanOrEqual(result.worstRows[1]?.t2 as number);
  });

  it("breaches exactly when P(Binomial(n, α) ≥ k) < α", () => {
    // 30 evaluation rows at α = 0.05: k = 4 exceedances gives p ≈ 0.061 (no breach), k = 5 gives
    // p ≈ 0.016 (breach). Rows at the training mean have T² = 0; rows 10 sd out exceed any UCL.
    const train = randomMatrix(24, 60, 3);
    const means = [0, 1, 2].map((j) => {
      let s = 0;
      for (let i = 0; i < 60; i++) s += train.data[i * 3 + j] as number;
      return s / 60;
    });
    for (const [k, isBreach] of [
      [4, false],
      [5, true],
    ] as const) {
      const ev = createMatrix(30, 3);
      for (let i = 0; i < 30; i++) {
        for (let j = 0; j < 3; j++) ev.data[i * 3 + j] = (means[j] as number) + (i < k ? 10 : 0);
      }
      const result = evaluated(evaluateMvd(train, ev, "low"));
      expect(result.exceedances).toBe(k);
      expect(result.pValue).toBeCloseTo(binomialUpperTail(30, 0.05, k), 15);
      expect(result.pValue > 0.05 === !isBreach).toBe(true);
      expect(result.breach).toBe(isBreach);
    }
  });

  it("stays OK and scores about 1 in control", () => {
    const result = evaluated(evaluateMvd(randomMatrix(13, 2000, 5), randomMatrix(14, 500, 5), "medium"));
    expect(result.breach).toBe(false);
    expect(result.score).toBeGreaterThan(0.85);
    expect(result.score).toBeLessThan(1.15);
  });

  it("contributions of the worst rows sum to their T²", () => {
    const result = evaluated(
      evaluateMvd(randomMatrix(15, 100, 6), randomMatrix(16, 30, 6), "low", { worstRowCount: 30 }),
    );
    expect(result.worstRows).toHaveLength(30);
    // All 30 rows, worst first: exactly the T² values sorted descending.
    expect(result.worstRows.map((r) => r.t2)).toEqual([...result.t2].sort((a, b) => b - a));
    for (const row of result.worstRows) {
      const sum = row.contributions.reduce((a, b) => a + b, 0);
      expect(Math.abs(sum - row.t2)).toBeLessThanOrEqual(1e-12 * Math.max(1, row.t2));
      expect(row.topSignals).toHaveLength(3);
    }
  });

  it("still gives a result when two signals are exactly collinear (shrinkage makes S* invertible)", () => {
    const train = randomMatrix(17, 120, 3);
    const ev = randomMatrix(18, 30, 3);
    for (const m of [train, ev]) {
      for (let i = 0; i < m.rows; i++) m.data[i * 3 + 1] = 2 * (m.data[i * 3] as number) + 3;
    }
    const result = evaluated(evaluateMvd(train, ev, "medium"));
    expect(result.shrinkage).toBeGreaterThan(0);
    expect(result.t2.every((t) => Number.isFinite(t) && t >= 0)).toBe(true);
    expect(Number.isFinite(result.score)).toBe(true);
  });

  it("answers NO_DATA below 2p + 2 training rows and 25 evaluation rows", () => {
    const ev = randomMatrix(19, 25, 4);
    expect(evaluateMvd(randomMatrix(20, 9, 4), ev, "medium")).toMatchObject({
      state: "NO_DATA",
      code: "TRAINING_TOO_SMALL",
    });
    expect(evaluateMvd(randomMatrix(20, 10, 4), ev, "medium").state).not.toBe("NO_DATA");
    expect(evaluateMvd(randomMatrix(20, 10, 4), randomMatrix(19, 24, 4), "medium")).toMatchObject({
      state: "NO_DATA",
      code: "EVALUATION_TOO_SMALL",
    });
  });

  it("answers NO_DATA when every signal is constant", () => {
    const train = createMatrix(20, 2, new Float64Array(40).fill(3));
    expect(evaluateMvd(train, randomMatrix(21, 25, 2), "medium")).toMatchObject({
      state: "NO_DATA",
      code: "CONSTANT_SIGNAL",
    });
  });

  it("leaves out whole rows with a missing value and reports original row indices", () => {
    const train = randomMatrix(22, 40, 3);
    const ev = randomMatrix(23, 27, 3);
    train.data[5 * 3 + 1] = Number.NaN;
    ev.data[0] = Number.NaN;
    // Make original row 10 the clear worst row.
    ev.data[10 * 3 + 2] = 60;
    const result = evaluated(evaluateMvd(train, ev, "medium"));
    expect(result.leftOutRows).toEqual({ training: [5], evaluation: [0] });
    expect(result.m).toBe(39);
    expect(result.n).toBe(26);
    expect(result.worstRows[0]?.row).toBe(10);
    expect(result.worstRows[0]?.topSignals[0]?.signal).toBe(2);
  });

  it("returns results that do not share memory with later evaluations (scratch buffers stay inside)", () => {
    const first = evaluated(evaluateMvd(randomMatrix(25, 60, 3), randomMatrix(26, 30, 3), "medium"));
    const t2 = Float64Array.from(first.t2);
    const contributions = Float64Array.from(first.worstRows[0]?.contributions ?? []);
    evaluated(evaluateMvd(randomMatrix(27, 80, 4), randomMatrix(28, 40, 4), "medium"));
    expect(first.t2).toEqual(t2);
    expect(first.worstRows[0]?.contributions).toEqual(contributions);
  });

  it("throws on malformed input rather than guessing", () => {
    expect(() => evaluateMvd(randomMatrix(1, 30, 3), randomMatrix(2, 30, 2), "medium")).toThrow(/signals/);
    expect(() => evaluateMvd(createMatrix(30, 0), createMatrix(30, 0), "medium")).toThrow(
      /at least one signal/,
    );
  });
});
