/**
 * Reusable scratch memory for the MVD hot path. A fresh Float64Array of a few hundred kB comes
 * from fresh zeroed pages, and touching them cost ~0.16 ms per 384 kB on the benchmark machine,
 * as much as the arithmetic it holds. evaluateMvd therefore keeps its large intermediates (the
 * signal-major training and evaluation blocks, the T² solutions) in these buffers.
 *
 * Rules that keep the package's functions pure from the outside: a buffer's contents are
 * undefined on entry (callers overwrite every element they read), nothing that is returned to a
 * caller ever aliases a buffer, and no caller code runs while a buffer is in use (JavaScript is
 * single-threaded and these paths never call back). Each buffer keeps the largest size asked for
 * (p × m × 8 bytes: 384 kB for p = 20, m = 2400) for the life of the process.
 */
const buffers: Float64Array[] = [];

/** A view of `length` values of scratch buffer `slot` (use a different slot for each live buffer). */
export function scratchBuffer(slot: number, length: number): Float64Array {
  let buffer = buffers[slot];
  if (buffer === undefined || buffer.length < length) {
    buffer = new Float64Array(length);
    buffers[slot] = buffer;
  }
  return buffer.subarray(0, length);
}
