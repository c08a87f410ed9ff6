import { describe, expect, it } from "vitest";
import { createMatrix, matrixFromRows, matrixGet, matrixRow, matrixToRows } from "./matrix.js";

describe("matrix", () => {
  it("stores rows contiguously, row-major", () => {
    const m = matrixFromRows([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(m.rows).toBe(2);
    expect(m.cols).toBe(3);
    expect(Array.from(m.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(matrixGet(m, 1, 0)).toBe(4);
    expect(Array.from(matrixRow(m, 1))).toEqual([4, 5, 6]);
    expect(matrixToRows(m)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it("wraps existing data without copying and checks its length", () => {
    const data = new Float64Array(6);
    const m = createMatrix(3, 2, data);
    data[5] = 9;
    expect(matrixGet(m, 2, 1)).toBe(9);
    expect(() => createMatrix(2, 2, data)).toThrow(expect.objectContaining({ code: "DIMENSION_MISMATCH" }));
    expect(() => createMatrix(-1, 2)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("refuses ragged rows and out-of-range access", () => {
    expect(() => matrixFromRows([[1, 2], [3]])).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => matrixGet(createMatrix(2, 2), 2, 0)).toThrow(RangeError);
    expect(() => matrixRow(createMatrix(2, 2), -1)).toThrow(RangeError);
    expect(matrixFromRows([]).rows).toBe(0);
  });
});
