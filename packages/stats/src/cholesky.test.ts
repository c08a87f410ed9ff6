import { describe, expect, it } from "vitest";
import { choleskyDecompose, choleskySolve, choleskySolveColumns, choleskySolveRows } from "./cholesky.js";
import { createMatrix, matrixFromRows, matrixToRows } from "./matrix.js";

const a = matrixFromRows([
  [4, 12, -16],
  [12, 37, -43],
  [-16, -43, 98],
]);

describe("cholesky", () => {
  it("factors a textbook SPD matrix exactly", () => {
    // The classic example: L = [[2, 0, 0], [6, 1, 0], [-8, 5, 3]].
    expect(matrixToRows(choleskyDecompose(a))).toEqual([
      [2, 0, 0],
      [6, 1, 0],
      [-8, 5, 3],
    ]);
  });

  it("solves A x = b without forming A⁻¹", () => {
    const b = [1, 2, 3];
    const x = choleskySolve(choleskyDecompose(a), b);
    for (let i = 0; i < 3; i++) {
      let ax = 0;
      for (let j = 0; j < 3; j++) ax += (a.data[i * 3 + j] as number) * (x[j] as number);
      expect(ax).toBeCloseTo(b[i] as number, 10);
    }
  });

  it("solves many right-hand sides row by row like single solves", () => {
    const l = choleskyDecompose(a);
    const rows = matrixFromRows([
      [1, 0, 0],
      [0, 1, 0],
      [3, -2, 5],
    ]);
    const solved = choleskySolveRows(l, rows);
    for (let r = 0; r < 3; r++) {
      expect(Array.from(solved.data.subarray(r * 3, r * 3 + 3))).toEqual(
        Array.from(choleskySolve(l, rows.data.subarray(r * 3, r * 3 + 3))),
      );
    }
  });

  it("solves signal-major blocks of right-hand sides like single solves (p = 7 uses the fused path)", () => {
    const p = 7;
    const n = 9;
    // A = B Bᵀ + p I with B[i][j] = sin(i + 2j): symmetric positive definite.
    const spd = createMatrix(p, p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        let v = i === j ? p : 0;
        for (let k = 0; k < p; k++) v += Math.sin(i + 2 * k) * Math.sin(j + 2 * k);
        spd.data[i * p + j] = v;
      }
    }
    const l = choleskyDecompose(spd);
    const columns = Float64Array.from({ length: p * n }, (_, i) => Math.cos(i));
    const solved = Float64Array.from(columns);
    choleskySolveColumns(l, solved, n);
    for (let r = 0; r < n; r++) {
      const rhs = Float64Array.from({ length: p }, (_, j) => columns[j * n + r] as number);
      const x = choleskySolve(l, rhs);
      for (let j = 0; j < p; j++) expect(solved[j * n + r]).toBeCloseTo(x[j] as number, 12);
    }
    expect(() => choleskySolveColumns(l, new Float64Array(5), n)).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });

  it("refuses singular, indefinite, non-square and non-finite matrices with typed errors", () => {
    const code = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ name: "StatsError" }));
    code(() =>
      choleskyDecompose(
        matrixFromRows([
          [1, 2],
          [2, 4],
        ]),
      ),
    );
    expect(() =>
      choleskyDecompose(
        matrixFromRows([
          [1, 2],
          [2, 1],
        ]),
      ),
    ).toThrow(expect.objectContaining({ code: "NOT_POSITIVE_DEFINITE" }));
    // Singular within rounding: the second pivot is ~1e-17, not a real variance.
    expect(() =>
      choleskyDecompose(
        matrixFromRows([
          [0.1, 0.3],
          [0.3, 0.9],
        ]),
      ),
    ).toThrow(expect.objectContaining({ code: "NOT_POSITIVE_DEFINITE" }));
    expect(() => choleskyDecompose(createMatrix(2, 3))).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => choleskyDecompose(createMatrix(0, 0))).toThrow(
      expect.objectContaining({ code: "EMPTY_INPUT" }),
    );
    expect(() => choleskyDecompose(matrixFromRows([[Number.NaN]]))).toThrow(
      expect.objectContaining({ code: "NON_FINITE" }),
    );
    expect(() => choleskySolve(choleskyDecompose(a), [1, 2])).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });
});
