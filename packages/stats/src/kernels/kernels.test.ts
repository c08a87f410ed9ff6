// The WebAssembly kernels against the plain loops they stand for, on sizes that are not whole
// blocks (odd rows and values, one row, more rows than a tile, longer than a Gram slice), and the
// generated module against its .wat source.
import { describe, expect, it } from "vitest";
import { compileKernels, kernelsSource } from "../../scripts/build-kernels.js";
import { normalGenerator } from "../../test/random.js";
import { forwardSubstituteRows, gramOfColumnsKernel } from "./kernels.js";
import { KERNELS_WASM_BASE64 } from "./kernels.wasm.js";

const relative = (x: number, y: number) => Math.abs(x - y) / Math.max(Math.abs(y), 1e-300);

describe("the kernels", () => {
  it("form a Gram matrix like the textbook loop, exactly symmetric", () => {
    for (const [n, p] of [
      [1, 1],
      [3, 2],
      [5, 5],
      [2_101, 9],
      [17, 70],
    ] as const) {
      const next = normalGenerator(n + 7 * p);
      const columns = Float64Array.from({ length: n * p }, next);
      const g = gramOfColumnsKernel(columns, n, p);
      for (let a = 0; a < p; a++) {
        for (let b = 0; b < p; b++) {
          let d = 0;
          for (let i = 0; i < n; i++) d += (columns[a * n + i] as number) * (columns[b * n + i] as number);
          expect(Math.abs((g[a * p + b] as number) - d), `${n} × ${p} [${a}, ${b}]`).toBeLessThan(1e-12 * n);
          expect(g[a * p + b]).toBe(g[b * p + a]);
        }
      }
    }
  });

  it("substitute forward row by row like the textbook loop, the rows' other values untouched", () => {
    for (const [n, p] of [
      [1, 1],
      [3, 2],
      [4, 5],
      [9, 13],
      [301, 6],
    ] as const) {
      const next = normalGenerator(31 * n + p);
      // A well-conditioned lower triangle: unit-ish diagonal, small entries below; above it noise
      // the solve must not read.
      const l = Float64Array.from({ length: p * p }, (_, k) => {
        const i = Math.floor(k / p);
        const j = k % p;
        return i === j ? 1.5 + Math.abs(next()) : i > j ? 0.3 * next() : 1e6;
      });
      const x = Float64Array.from({ length: n * p }, next);
      const expected = Float64Array.from(x);
      for (let r = 0; r < n; r++) {
        for (let i = 0; i < p; i++) {
          let s = expected[r * p + i] as number;
          for (let k = 0; k < i; k++) s -= (l[i * p + k] as number) * (expected[r * p + k] as number);
          expected[r * p + i] = s / (l[i * p + i] as number);
        }
      }
      forwardSubstituteRows(l, x, n, p);
      for (let k = 0; k < n * p; k++) {
        expect(relative(x[k] as number, expected[k] as number), `${n} × ${p} at ${k}`).toBeLessThan(1e-12);
      }
    }
  });

  it("are compiled from kernels.wat as it stands (npm run build:kernels -w packages/stats)", async () => {
    const bytes = await compileKernels();
    expect(KERNELS_WASM_BASE64).toBe(bytes.toString("base64"));
    expect(kernelsSource(bytes)).toContain(KERNELS_WASM_BASE64.slice(0, 96));
  });
});
