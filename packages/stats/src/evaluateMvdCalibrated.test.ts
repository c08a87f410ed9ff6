import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { choleskyDecompose, choleskySolve } from "./cholesky.js";
import {
  evaluateMvdCalibrated,
  type MvdCalibratedEvaluation,
  multivariateShape,
  mvdMeanTestLaw,
} from "./evaluateMvdCalibrated.js";
import type { NoDataEvaluation } from "./evaluation.js";
import { mardiaSkewnessForm } from "./mardiaSkewness.js";
import { createMatrix, matrixFromRows } from "./matrix.js";
import { centreColumnsInPlace, gramOfColumns } from "./sampleCovariance.js";

function evaluated(result: MvdCalibratedEvaluation | NoDataEvaluation): MvdCalibratedEvaluation {
  if (result.state === "NO_DATA") throw new Error(`expected an evaluation, got NO_DATA: ${result.reason}`);
  return result;
}

/** Every value within 1e-9 relative of its reference, or 1e-12 absolute for values near 0. */
function expectAllClose(actual: ArrayLike<number>, expected: readonly number[], tolerance = 1e-9): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => {
    const a = actual[i] as number;
    if (Math.abs(e) < 1e-6) expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-12);
    else expectRelativelyClose(a, e, tolerance);
  });
}

/** rows × p equicorrelated (ρ) normal rows around 20. */
function equicorrelated(seed: number, rows: number, p: number, rho: number) {
  const next = normalGenerator(seed);
  return matrixFromRows(
    Array.from({ length: rows }, () => {
      const common = next();
      return Array.from({ length: p }, () => 20 + Math.sqrt(rho) * common + Math.sqrt(1 - rho) * next());
    }),
  );
}

describe("evaluateMvdCalibrated", () => {
  it.each(vectors.mvdCalibrated.map((c, i) => [i, c.kind, c] as const))(
    "matches the reference on vector %i (%s)",
    (_, __, c) => {
      const result = evaluated(
        evaluateMvdCalibrated(matrixFromRows(c.train), matrixFromRows(c.eval), c.alertThreshold),
      );
      const e = c.expected;
      expect(result.keptSignals).toEqual(e.keptSignals);
      expectRelativelyClose(result.shrinkage, e.shrinkage);
      expectAllClose(result.vifs, e.vifs);
      if (e.pooledCoefficient === 0) expect(result.pooledCoefficient).toBe(0);
      else expectRelativelyClose(result.pooledCoefficient, e.pooledCoefficient);
      expect(result.arOrder).toBe(e.arOrder);
      expectRelativelyClose(result.effectiveRows, e.effectiveRows);
      expectRelativelyClose(result.t2Mean, e.t2Mean);
      expectRelativelyClose(result.meanDegrees, e.meanDegrees);
      expectRelativelyClose(result.pMean, e.pMean);
      expectRelativelyClose(result.meanLaw.scale, e.meanLaw.scale);
      expectRelativelyClose(result.meanLaw.degrees, e.meanLaw.degrees);
      expectRelativelyClose(result.meanLaw.offset, e.meanLaw.offset);
      if (e.meanLaw.shape.skewnessSquared === 0) expect(result.meanLaw.shape.skewnessSquared).toBe(0);
      else expectRelativelyClose(result.meanLaw.shape.skewnessSquared, e.meanLaw.shape.skewnessSquared);
      if (e.meanLaw.shape.excessKurtosis === 0) expect(result.meanLaw.shape.excessKurtosis).toBe(0);
      else expectRelativelyClose(result.meanLaw.shape.excessKurtosis, e.meanLaw.shape.excessKurtosis);
      expectRelativelyClose(result.meanLaw.inflation, e.meanLaw.inflation);
      expectRelativelyClose(result.meanLaw.shape.mardiaSkewness, e.meanLaw.shape.mardiaSkewness);
      expectRelativelyClose(result.meanLaw.shape.skewnessVector, e.meanLaw.shape.skewnessVector);
      expectRelativelyClose(result.meanLaw.shape.mardiaKurtosis, e.meanLaw.shape.mardiaKurtosis);
      expectAllClose(result.meanContributions, e.meanContributions);
      expectAllClose(result.t2, e.t2);
      expectAllClose(result.crossValidatedT2, e.crossValidatedT2);
      expectRelativelyClose(result.vifT2, e.vifT2);
      expectRelativelyClose(result.structU, e.u);
      expectRelativelyClose(result.structZ, e.z);
      expectAllClose(result.structT2, e.structT2);
      expectRelativelyClose(result.structMannWhitneyP, e.pMannWhitney);
      expectRelativelyClose(result.structSavage, e.savage.statistic);
      expectRelativelyClose(result.structSavageZ, e.savage.z);
      expectRelativelyClose(result.structSkewness, e.savage.skewness);
      expectRelativelyClose(result.pStruct, e.pStruct);
      expectRelativelyClose(result.pValue, e.pValue);
      expectRelativelyClose(result.score, e.score);
      expect(result.breach).toBe(e.breach);
      expect(result.worstRows[0]?.row).toBe(e.worstRow);
      expectAllClose(result.worstRows[0]?.contributions ?? [], e.worstRowContributions);
    },
  );

  it("names the signal whose mean moved, and its contributions sum to T²_mean", () => {
    const train = equicorrelated(1, 120, 5, 0.5);
    const ev = equicorrelated(2, 30, 5, 0.5);
    for (let i = 0; i < ev.rows; i++) ev.data[i * 5 + 3] = (ev.data[i * 5 + 3] as number) + 1.5;
    const result = evaluated(evaluateMvdCalibrated(train, ev, "medium"));
    expect(result.breach).toBe(true);
    expect(result.pMean).toBeLessThan(1e-4);
    expect(result.meanTopSignals[0]?.signal).toBe(3);
    const sum = result.meanContributions.reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(result.t2Mean, 9);
    for (const row of result.worstRows) {
      expect(row.contributions.reduce((a, b) => a + b, 0)).toBeCloseTo(row.t2, 9);
    }
    expect(result.score).toBeGreaterThan(result.scoreThreshold);
  });

  it("sees a correlation break through the structure test", () => {
    const train = equicorrelated(3, 120, 2, 0.8);
    const next = normalGenerator(4);
    const ev = matrixFromRows(
      Array.from({ length: 30 }, () => {
        const a = next();
        return [20 + a, 20 - 0.8 * a + 0.6 * next()];
      }),
    );
    const result = evaluated(evaluateMvdCalibrated(train, ev, "medium"));
    expect(result.pStruct).toBeLessThan(0.001);
    expect(result.breach).toBe(true);
  });

  it.each([
    ["normal, p = 8, 150 × 50", 21, 150, 50, 8, "normal"],
    ["lognormal, p = 10, 120 × 30", 22, 120, 30, 10, "lognormal"],
    ["heavy-tailed, p = 12, 200 × 40", 23, 200, 40, 12, "heavy"],
    // The fewest training rows the form allows (2p + 2): p close to N.
    ["lognormal, p = 40 at the training minimum, 82 × 25", 24, 82, 25, 40, "lognormal"],
    ["normal, p = 60 at the training minimum, 122 × 25", 25, 122, 25, 60, "normal"],
  ] as const)("gives the same p-value with either form of the shape's b₁ (%s)", (_, seed, m, n, p, kind) => {
    const next = normalGenerator(seed);
    const draw =
      kind === "normal"
        ? next
        : kind === "lognormal"
          ? () => Math.exp(0.7 * next())
          : () => next() / Math.max(0.2, Math.abs(next()));
    const rows = (count: number, shift: number) =>
      matrixFromRows(
        Array.from({ length: count }, () => {
          const common = draw();
          return Array.from({ length: p }, () => 20 + shift + 0.6 * common + draw());
        }),
      );
    const train = rows(m, 0);
    const ev = rows(n, 0.3);
    const gram = evaluated(evaluateMvdCalibrated(train, ev, "medium", { shapeForm: "gram" }));
    const tensor = evaluated(evaluateMvdCalibrated(train, ev, "medium", { shapeForm: "tensor" }));
    const chosen = evaluated(evaluateMvdCalibrated(train, ev, "medium"));
    expectRelativelyClose(gram.meanLaw.shape.mardiaSkewness, tensor.meanLaw.shape.mardiaSkewness, 1e-9);
    expect(gram.meanLaw.shape.skewnessVector).toBe(tensor.meanLaw.shape.skewnessVector);
    expect(gram.meanLaw.shape.mardiaKurtosis).toBe(tensor.meanLaw.shape.mardiaKurtosis);
    for (const key of ["pValue", "pMean", "t2Mean", "score"] as const) {
      expectRelativelyClose(gram[key], tensor[key], 1e-9);
    }
    expectRelativelyClose(gram.meanLaw.scale, tensor.meanLaw.scale, 1e-9);
    expectRelativelyClose(gram.meanLaw.degrees, tensor.meanLaw.degrees, 1e-9);
    expect(gram.breach).toBe(tensor.breach);
    // The default is one of the two, computed the same way.
    const form = mardiaSkewnessForm(m + n, p);
    expect(chosen.pValue).toBe((form === "gram" ? gram : tensor).pValue);
    // A non-normal window's shape is not the normal one, so b₁ is read and matters to the law.
    if (kind !== "normal") expect(gram.meanLaw.shape.skewnessSquared).toBeGreaterThan(0);
  });

  it("leaves out whole rows with a missing value and reports original row indices", () => {
    const train = equicorrelated(22, 40, 3, 0.3);
    const ev = equicorrelated(23, 27, 3, 0.3);
    train.data[5 * 3 + 1] = Number.NaN;
    ev.data[0] = Number.NaN;
    // Make original row 10 the clear worst row.
    ev.data[10 * 3 + 2] = 30;
    const result = evaluated(evaluateMvdCalibrated(train, ev, "medium"));
    expect(result.leftOutRows).toEqual({ training: [5], evaluation: [0] });
    expect(result.m).toBe(39);
    expect(result.n).toBe(26);
    expect(result.worstRows[0]?.row).toBe(10);
    expect(result.worstRows[0]?.topSignals[0]?.signal).toBe(2);
  });

  it("throws on malformed input rather than guessing", () => {
    const ev = equicorrelated(2, 30, 2, 0.3);
    expect(() => evaluateMvdCalibrated(equicorrelated(1, 30, 3, 0.3), ev, "medium")).toThrow(/signals/);
    expect(() => evaluateMvdCalibrated(createMatrix(30, 0), createMatrix(30, 0), "medium")).toThrow(
      /at least one signal/,
    );
  });

  it("drops constant signals and answers NO_DATA below the window minimums", () => {
    const train = equicorrelated(5, 40, 3, 0.3);
    const ev = equicorrelated(6, 25, 3, 0.3);
    for (const m of [train, ev]) for (let i = 0; i < m.rows; i++) m.data[i * 3 + 1] = 4;
    const result = evaluated(evaluateMvdCalibrated(train, ev, "low"));
    expect(result.droppedSignals).toEqual([1]);
    expect(result.keptSignals).toEqual([0, 2]);
    expect(evaluateMvdCalibrated(equicorrelated(7, 7, 3, 0.3), ev, "low")).toMatchObject({
      code: "TRAINING_TOO_SMALL",
    });
    expect(evaluateMvdCalibrated(train, equicorrelated(8, 24, 3, 0.3), "low")).toMatchObject({
      code: "EVALUATION_TOO_SMALL",
    });
  });
});

describe("mvdMeanTestLaw", () => {
  const normalShape = {
    skewnessSquared: 0,
    excessKurtosis: 0,
    mardiaSkewness: 0,
    skewnessVector: 0,
    mardiaKurtosis: 8,
  };
  const correlated = createMatrix(2, 2, Float64Array.from([1, 0.9, 0.9, 1]));
  // S* = (1 − δ) S + δ μ I with δ = 0.5, μ = 1.
  const shrunk = createMatrix(2, 2, Float64Array.from([1, 0.45, 0.45, 1]));

  it("is Hotelling's χ²_p when S* is S and the rows are normal", () => {
    const law = mvdMeanTestLaw(choleskyDecompose(correlated), correlated, normalShape, 75, 25);
    expect(law.scale).toBeCloseTo(1, 12);
    expect(law.degrees).toBeCloseTo(2, 12);
    expect(law.offset).toBeCloseTo(0, 12);
  });

  it("keeps T²'s null mean at tr(S*⁻¹ S) and has fewer degrees when S* is shrunk", () => {
    // S's eigenvalues 1.9 and 0.1 against S*'s 1.45 and 0.55: A's are 1.9/1.45 and 0.1/0.55.
    const law = mvdMeanTestLaw(choleskyDecompose(shrunk), correlated, normalShape, 75, 25);
    const [a, b] = [1.9 / 1.45, 0.1 / 0.55];
    expect(law.scale * law.degrees + law.offset).toBeCloseTo(a + b, 12);
    expect(law.degrees).toBeLessThan(2);
    expect(2 * law.scale * law.scale * law.degrees).toBeCloseTo(2 * (a * a + b * b), 12);
  });

  it("gives skewed, heavy-tailed rows a heavier tail, less so with more rows", () => {
    const skewed = { ...normalShape, skewnessSquared: 1.75 ** 2, excessKurtosis: 5.9 };
    const small = mvdMeanTestLaw(choleskyDecompose(correlated), correlated, skewed, 75, 25);
    const large = mvdMeanTestLaw(choleskyDecompose(correlated), correlated, skewed, 2400, 600);
    expect(small.degrees).toBeLessThan(large.degrees);
    expect(large.degrees).toBeLessThan(2);
    expect(large.degrees).toBeGreaterThan(1.9);
    expect(small.scale).toBeGreaterThan(large.scale);
    expect(large.scale).toBeGreaterThan(1);
    // The null mean p, raised by λ = 1 + κ/m: the shape moves weight into the tail.
    expect(small.inflation).toBeCloseTo(1 + 5.9 / 75, 12);
    expect(large.inflation).toBeCloseTo(1 + 5.9 / 2400, 12);
    for (const law of [small, large])
      expect(law.scale * law.degrees + law.offset).toBeCloseTo(2 * law.inflation, 12);
  });

  it("takes tr A, tr A², tr A³ of A = S*⁻¹ S itself (a 9 × 9 shrunk covariance, A formed directly)", () => {
    const p = 9;
    const next = normalGenerator(31);
    const x = Array.from({ length: 40 }, () => {
      const common = next();
      return Array.from({ length: p }, (_, j) => (j % 3) * common + next());
    });
    const s = createMatrix(p, p);
    const mean = Array.from(
      { length: p },
      (_, j) => x.reduce((a, row) => a + (row[j] as number), 0) / x.length,
    );
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++)
        s.data[i * p + j] =
          x.reduce(
            (a, row) =>
              a + ((row[i] as number) - (mean[i] as number)) * ((row[j] as number) - (mean[j] as number)),
            0,
          ) /
          (x.length - 1);
    const trace = Array.from({ length: p }, (_, j) => s.data[j * p + j] as number).reduce((a, b) => a + b, 0);
    const shrunkS = createMatrix(
      p,
      p,
      s.data.map((v, k) => 0.7 * v + (k % (p + 1) === 0 ? (0.3 * trace) / p : 0)),
    );
    const factor = choleskyDecompose(shrunkS);
    // A column by column from single solves, then its powers' traces by plain loops.
    const a = new Float64Array(p * p);
    for (let j = 0; j < p; j++) {
      const column = choleskySolve(
        factor,
        Array.from({ length: p }, (_, i) => s.data[i * p + j] as number),
      );
      for (let i = 0; i < p; i++) a[i * p + j] = column[i] as number;
    }
    const power = (u: Float64Array) => {
      const out = new Float64Array(p * p);
      for (let i = 0; i < p; i++)
        for (let j = 0; j < p; j++)
          for (let k = 0; k < p; k++)
            out[i * p + j] = (out[i * p + j] as number) + (u[i * p + k] as number) * (a[k * p + j] as number);
      return out;
    };
    const a2 = power(a);
    const a3 = power(a2);
    const tr = (u: Float64Array) =>
      Array.from({ length: p }, (_, i) => u[i * p + i] as number).reduce((q, r) => q + r, 0);
    // Normal rows: K₁ = tr A, K₂ = 2 tr A², K₃ = 8 tr A³, so c = tr A³/tr A², f = (tr A²)³/(tr A³)².
    const law = mvdMeanTestLaw(factor, s, normalShape, 75, 25);
    expectRelativelyClose(law.scale, tr(a3) / tr(a2), 1e-12);
    expectRelativelyClose(law.degrees, tr(a2) ** 3 / tr(a3) ** 2, 1e-12);
    expectRelativelyClose(law.offset + law.scale * law.degrees, tr(a), 1e-12);
    expect(law.degrees).toBeLessThan(p);
  });

  it("takes no inflation from normal rows", () => {
    const law = mvdMeanTestLaw(choleskyDecompose(shrunk), correlated, normalShape, 75, 25);
    expect(law.inflation).toBe(1);
  });
});

describe("multivariateShape", () => {
  /** m + n rows of p signals (signal-major columns), each a common and an own lognormal series. */
  function lognormalWindow(seed: number, rows: number, p: number): Float64Array {
    const next = normalGenerator(seed);
    const common = Array.from({ length: rows }, () => Math.exp(0.5 * next()));
    const out = new Float64Array(rows * p);
    for (let j = 0; j < p; j++)
      for (let i = 0; i < rows; i++) out[j * rows + i] = (common[i] as number) + Math.exp(0.5 * next());
    return out;
  }
  const split = (x: Float64Array, rows: number, m: number, p: number) => {
    const z = new Float64Array(m * p);
    const y = new Float64Array((rows - m) * p);
    for (let j = 0; j < p; j++) {
      z.set(x.subarray(j * rows, j * rows + m), j * m);
      y.set(x.subarray(j * rows + m, (j + 1) * rows), j * (rows - m));
    }
    return { z, y };
  };

  it("does not depend on the order, scale or mixing of the signals", () => {
    const rows = 150;
    const p = 4;
    const x = lognormalWindow(11, rows, p);
    const { z, y } = split(x, rows, 120, p);
    const shape = multivariateShape(z, 120, y, 30, p);
    // Signals reversed, rescaled, shifted and mixed (an invertible lower-triangular map).
    const mixed = new Float64Array(rows * p);
    for (let j = 0; j < p; j++) {
      for (let i = 0; i < rows; i++) {
        let v = 5 + 3 * (j + 1) * (x[(p - 1 - j) * rows + i] as number);
        for (let k = 0; k < j; k++) v += 0.4 * (x[(p - 1 - k) * rows + i] as number);
        mixed[j * rows + i] = v;
      }
    }
    const other = split(mixed, rows, 120, p);
    const again = multivariateShape(other.z, 120, other.y, 30, p);
    expectRelativelyClose(again.mardiaSkewness, shape.mardiaSkewness, 1e-9);
    expectRelativelyClose(again.skewnessVector, shape.skewnessVector, 1e-9);
    expectRelativelyClose(again.mardiaKurtosis, shape.mardiaKurtosis, 1e-9);
    expect(shape.skewnessSquared).toBeGreaterThan(0.2);
    expect(shape.excessKurtosis).toBeGreaterThan(0.5);
  });

  it("is the same with the training rows' scatter handed in, and in either form", () => {
    const rows = 150;
    const p = 6;
    const { z, y } = split(lognormalWindow(15, rows, p), rows, 120, p);
    const shape = multivariateShape(z, 120, y, 30, p);
    const centred = Float64Array.from(z);
    centreColumnsInPlace(centred, 120, p);
    const given = multivariateShape(z, 120, y, 30, p, { trainingScatter: gramOfColumns(centred, 120, p) });
    const gram = multivariateShape(z, 120, y, 30, p, { form: "gram" });
    for (const other of [given, gram]) {
      expectRelativelyClose(other.mardiaSkewness, shape.mardiaSkewness, 1e-9);
      expectRelativelyClose(other.skewnessVector, shape.skewnessVector, 1e-9);
      expectRelativelyClose(other.mardiaKurtosis, shape.mardiaKurtosis, 1e-9);
    }
  });

  it("is the squared skewness and the kurtosis m₄/m₂² of one signal", () => {
    const values = Float64Array.from([1, 2, 2, 3, 7, 4, 2, 1, 9, 3, 2, 5]);
    const shape = multivariateShape(values.subarray(0, 8), 8, values.subarray(8), 4, 1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const moment = (k: number) => values.reduce((a, v) => a + (v - mean) ** k, 0) / values.length;
    expectRelativelyClose(shape.mardiaSkewness, moment(3) ** 2 / moment(2) ** 3, 1e-12);
    expectRelativelyClose(shape.skewnessVector, moment(3) ** 2 / moment(2) ** 3, 1e-12);
    expectRelativelyClose(shape.mardiaKurtosis, moment(4) / moment(2) ** 2, 1e-12);
  });

  it("takes normal rows as normal, and a singular window as normal", () => {
    const next = normalGenerator(12);
    const rows = 400;
    const x = new Float64Array(rows * 3);
    // Over 20 windows the estimates (less their normal expectations, kept ≥ 0) stay near 0.
    let kurtosis = 0;
    let skewness = 0;
    for (let w = 0; w < 20; w++) {
      for (let i = 0; i < x.length; i++) x[i] = next();
      const { z, y } = split(x, rows, 300, 3);
      const shape = multivariateShape(z, 300, y, 100, 3);
      kurtosis += shape.excessKurtosis / 20;
      skewness += shape.skewnessSquared / 20;
    }
    expect(kurtosis).toBeLessThan(0.15);
    expect(skewness).toBeLessThan(0.03);
    // A third signal that is the sum of the other two.
    for (let i = 0; i < rows; i++) x[2 * rows + i] = (x[i] as number) + (x[rows + i] as number);
    const singular = split(x, rows, 300, 3);
    expect(multivariateShape(singular.z, 300, singular.y, 100, 3)).toEqual({
      skewnessSquared: 0,
      excessKurtosis: 0,
      mardiaSkewness: 0,
      skewnessVector: 0,
      mardiaKurtosis: 0,
    });
  });
});
