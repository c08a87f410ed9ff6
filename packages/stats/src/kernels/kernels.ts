/**
 * The WebAssembly kernels (kernels.wat) behind the large MVD windows' O(N p²) and O(p³) loops: a
 * Gram matrix and the forward substitution of many rows.
 * Each call copies its operands into the module's memory laid out as the kernels want them (rows
 * padded to whole 128-bit lanes and whole blocks with zeros, or with the identity for a triangular
 * factor), runs, and copies the answer out: O(N p) copying against O(N p²) arithmetic.
 *
 * SIMD doubles the multiply-adds of each instruction, and the tighter code does the rest (at
 * N = 3,000, p = 100 the kernel of Mardia's b₁, since removed, took 107–132 ms against 341–581 ms
 * in scalar JavaScript). The sums are the JavaScript kernels' in another order (two lanes, then
 * added): equal to them up to rounding.
 *
 * One module instance a thread (each statistics thread loads its own), its memory grown to the
 * largest operands seen and kept.
 */
import { KERNELS_WASM_BASE64 } from "./kernels.wasm.js";

/**
 * The part of the WebAssembly API used here: the package's type libraries (ES2023 and Node's, which
 * also serve the browser bundle) do not declare the global.
 */
type WasmApi = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WasmApi };

type KernelExports = {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  dotTile(
    i0: number,
    i1: number,
    j0: number,
    j1: number,
    base: number,
    stride: number,
    from: number,
    bytes: number,
    out: number,
    outStride: number,
  ): void;
  forwardRows(cBase: number, xBase: number, stride: number, r0: number, r1: number, t1: number): void;
};

let exports: KernelExports | undefined;

function kernels(): KernelExports {
  if (!exports) {
    const bytes = Uint8Array.from(atob(KERNELS_WASM_BASE64), (c) => c.charCodeAt(0));
    exports = new wasm.Instance(new wasm.Module(bytes)).exports as KernelExports;
  }
  return exports;
}

const PAGE_BYTES = 65_536;
/** The module's memory is addressed by i32: operands beyond this do not fit. */
const MAX_BYTES = 2 ** 31;

/**
 * Places regions of the given sizes (bytes, each rounded up to 16) one after another from 0,
 * grows the memory to hold them, and answers their offsets.
 */
function layout(...sizes: number[]): { k: KernelExports; at: number[] } {
  const k = kernels();
  const at: number[] = [];
  let end = 0;
  for (const size of sizes) {
    at.push(end);
    end += Math.ceil(size / 16) * 16;
  }
  if (end > MAX_BYTES)
    throw new RangeError(`the kernels' operands take ${end} bytes, more than ${MAX_BYTES}`);
  const have = k.memory.buffer.byteLength;
  if (end > have) k.memory.grow(Math.ceil((end - have) / PAGE_BYTES));
  return { k, at };
}

const roundUp = (n: number, m: number) => Math.ceil(n / m) * m;

/** A Float64Array over the module's memory (taken after layout: growing detaches older views). */
const view = (k: KernelExports, byteOffset: number, length: number) =>
  new Float64Array(k.memory.buffer, byteOffset, length);

/** `view` of a region cleared to zeros: the padding of an operand laid out in it stays zero. */
function zeroedView(k: KernelExports, byteOffset: number, length: number): Float64Array {
  const v = view(k, byteOffset, length);
  v.fill(0);
  return v;
}

/**
 * Copies `count` rows of `width` values (row-major, `from` starting at `fromStart` with `fromStride`
 * values a row) into `to` with `toStride` values a row; the padding is left as it is.
 */
function copyRows(
  from: Float64Array,
  fromStart: number,
  fromStride: number,
  to: Float64Array,
  toStride: number,
  count: number,
  width: number,
): void {
  if (fromStride === width && toStride === width) {
    to.set(from.subarray(fromStart, fromStart + count * width));
    return;
  }
  for (let r = 0; r < count; r++) {
    const s = fromStart + r * fromStride;
    to.set(from.subarray(s, s + width), r * toStride);
  }
}

/** Values of each row a Gram pass takes at a time, and rows of its b-tiles: 32 × 1,024 × 8 B = 256 kB. */
const GRAM_SLICE_VALUES = 1_024;
const GRAM_TILE_ROWS = 32;

/**
 * Gram matrix CᵀC (p × p, row-major, both triangles) of p columns of n values stored column-major
 * (column j at columns[j n …]): the upper triangle by blocks, mirrored so it is exactly symmetric.
 */
export function gramOfColumnsKernel(columns: Float64Array, n: number, p: number): Float64Array {
  const g = new Float64Array(p * p);
  if (p === 0 || n === 0) return g;
  const width = roundUp(n, 2);
  const rows = roundUp(p, 4);
  const stride = width * 8;
  const outStride = rows * 8;
  const { k, at } = layout(rows * stride, rows * outStride);
  const base = at[0] as number;
  const out = at[1] as number;
  const c = zeroedView(k, base, rows * width);
  copyRows(columns, 0, n, c, width, p, n);
  const o = zeroedView(k, out, rows * rows);
  for (let from = 0; from < width; from += GRAM_SLICE_VALUES) {
    const bytes = Math.min(GRAM_SLICE_VALUES, width - from) * 8;
    for (let b0 = 0; b0 < rows; b0 += GRAM_TILE_ROWS) {
      const b1 = Math.min(rows, b0 + GRAM_TILE_ROWS);
      for (let a = 0; a < b1; a += 2) {
        const j0 = Math.max(b0, a - (a % 4));
        if (j0 < b1) k.dotTile(a, a + 2, j0, b1, base, stride, from * 8, bytes, out, outStride);
      }
    }
  }
  for (let i = 0; i < p; i++) {
    for (let j = i; j < p; j++) {
      const v = o[i * rows + j] as number;
      g[i * p + j] = v;
      g[j * p + i] = v;
    }
  }
  return g;
}

/**
 * Values one pass of the forward substitution keeps in cache: a chunk of ⌊32,768 / p⌋ rows (256 kB,
 * half of L2) is taken through every target block before the next chunk, so each block of four
 * rows of L is read from memory once a chunk rather than once a row.
 */
const CHUNK_VALUES = 32_768;

/**
 * Solves L yᵣ = xᵣ in place for the n rows of `x` (row-major, p values a row), L lower triangular
 * (`l`, p × p row-major; its upper triangle is not read).
 */
export function forwardSubstituteRows(l: Float64Array, x: Float64Array, n: number, p: number): void {
  if (n === 0 || p === 0) return;
  const width = roundUp(p, 4);
  const rows = roundUp(n, 2);
  const stride = width * 8;
  const { k, at } = layout(width * stride, rows * stride);
  const cBase = at[0] as number;
  const xBase = at[1] as number;
  const c = zeroedView(k, cBase, width * width);
  for (let i = 0; i < p; i++) c.set(l.subarray(i * p, i * p + i + 1), i * width);
  // The padding solves to zero: unit diagonal, zero values.
  for (let i = p; i < width; i++) c[i * width + i] = 1;
  const xs = zeroedView(k, xBase, rows * width);
  copyRows(x, 0, p, xs, width, n, p);
  const chunk = Math.max(2, 2 * Math.floor(CHUNK_VALUES / (2 * width)));
  for (let r0 = 0; r0 < rows; r0 += chunk) {
    k.forwardRows(cBase, xBase, stride, r0, Math.min(rows, r0 + chunk), width);
  }
  copyRows(xs, 0, width, x, p, n, p);
}

/**
 * The blocked Cholesky factor's workspace: the lower triangle of `a` (p × p row-major) in the
 * module's memory with `width` values a row (p rounded up to 4, zero-padded), and `solveRows`,
 * which runs the kernel's forward substitution of rows [r0, r1) against the rows [0, r0) above
 * them. The caller (choleskyDecompose) finishes each chunk's own triangle in `l` and reads L out.
 */
export function choleskyWorkspace(
  a: Float64Array,
  p: number,
): { l: Float64Array; width: number; solveRows(r0: number, r1: number): void } {
  const width = roundUp(p, 4);
  const stride = width * 8;
  const { k, at } = layout(width * stride);
  const base = at[0] as number;
  const l = zeroedView(k, base, width * width);
  for (let i = 0; i < p; i++) l.set(a.subarray(i * p, i * p + i + 1), i * width);
  return {
    l,
    width,
    solveRows: (r0, r1) => k.forwardRows(base, base, stride, r0, roundUp(r1, 2), r0),
  };
}
