import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import {
  choleskyDecompose,
  choleskyForwardColumns,
  choleskyForwardRows,
  choleskySolve,
  choleskySolveColumns,
  choleskySolveRows,
} from "./cholesky.js";
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

  // p = 203 spans two chunks of the blocked factor (160 rows at p = 203), ends on a partial block
  // of four targets, and 321 right-hand sides span three chunks with an odd last one.
  const big = 203;
  const rhsCount = 321;
  /** A = X Xᵀ/q + I for q = 2p random columns: symmetric positive definite, condition about 10. */
  function spd(p: number, seed: number) {
    const next = normalGenerator(seed);
    const q = 2 * p;
    const x = Float64Array.from({ length: p * q }, next);
    const out = createMatrix(p, p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j <= i; j++) {
        let v = i === j ? 1 : 0;
        for (let k = 0; k < q; k++) v += ((x[i * q + k] as number) * (x[j * q + k] as number)) / q;
        out.data[i * p + j] = v;
        out.data[j * p + i] = v;
      }
    }
    return out;
  }
  /** The textbook Cholesky–Banachiewicz loop, entry by entry. */
  function textbook(a: ReturnType<typeof createMatrix>) {
    const p = a.rows;
    const l = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j <= i; j++) {
        let s = a.data[i * p + j] as number;
        for (let k = 0; k < j; k++) s -= (l[i * p + k] as number) * (l[j * p + k] as number);
        l[i * p + j] = i === j ? Math.sqrt(s) : s / (l[j * p + j] as number);
      }
    }
    return l;
  }

  it("factors a large matrix in chunks like the textbook loop", () => {
    const a = spd(big, 41);
    const l = choleskyDecompose(a);
    const expected = textbook(a);
    // Each entry against its row's largest (entries far below it carry no relative meaning).
    let worst = 0;
    for (let i = 0; i < big; i++) {
      let norm = 0;
      for (let k = 0; k <= i; k++) norm = Math.max(norm, Math.abs(expected[i * big + k] as number));
      for (let k = 0; k < big; k++) {
        worst = Math.max(
          worst,
          Math.abs((l.data[i * big + k] as number) - (expected[i * big + k] as number)) / norm,
        );
      }
    }
    expect(worst).toBeLessThan(1e-12);
  });

  it("substitutes many right-hand sides, as rows or as signal-major blocks, like single solves", () => {
    const a = spd(big, 42);
    const l = choleskyDecompose(a);
    const next = normalGenerator(43);
    const rows = Float64Array.from({ length: rhsCount * big }, next);
    const forward = Float64Array.from(rows);
    choleskyForwardRows(l, forward, rhsCount);
    const columns = new Float64Array(rows.length);
    for (let r = 0; r < rhsCount; r++)
      for (let j = 0; j < big; j++) columns[j * rhsCount + r] = rows[r * big + j] as number;
    const forwardColumns = Float64Array.from(columns);
    choleskyForwardColumns(l, forwardColumns, rhsCount);
    const solvedColumns = Float64Array.from(columns);
    choleskySolveColumns(l, solvedColumns, rhsCount);
    let residual = 0;
    let solveError = 0;
    let layoutsDiffer = 0;
    for (const r of [0, 1, 159, 160, 161, 319, 320]) {
      const b = rows.subarray(r * big, (r + 1) * big);
      // L z = b: the forward half.
      for (let i = 0; i < big; i++) {
        let lz = 0;
        for (let k = 0; k <= i; k++) lz += (l.data[i * big + k] as number) * (forward[r * big + k] as number);
        residual = Math.max(residual, Math.abs(lz - (b[i] as number)));
        if (forwardColumns[i * rhsCount + r] !== forward[r * big + i]) layoutsDiffer++;
      }
      const x = choleskySolve(l, b);
      for (let i = 0; i < big; i++) {
        solveError = Math.max(
          solveError,
          Math.abs((solvedColumns[i * rhsCount + r] as number) - (x[i] as number)),
        );
      }
    }
    expect(residual).toBeLessThan(1e-12);
    expect(solveError).toBeLessThan(1e-12);
    expect(layoutsDiffer).toBe(0);
    expect(() => choleskyForwardRows(l, new Float64Array(5), rhsCount)).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });

  it("finds a singular pivot in a later chunk", () => {
    const a = spd(big, 44);
    // Row and column 190 := row and column 3 + row and column 7 (an exact linear dependence).
    const p = big;
    const combined = (i: number) => (a.data[3 * p + i] as number) + (a.data[7 * p + i] as number);
    const row = Array.from({ length: p }, (_, i) => combined(i));
    row[190] = (row[3] as number) + (row[7] as number);
    for (let i = 0; i < p; i++) {
      a.data[190 * p + i] = row[i] as number;
      a.data[i * p + 190] = row[i] as number;
    }
    expect(() => choleskyDecompose(a)).toThrow(expect.objectContaining({ code: "NOT_POSITIVE_DEFINITE" }));
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
