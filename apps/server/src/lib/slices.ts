/**
 * Long work on the event loop, done in slices: one slice runs for about SLICE_MS, then the loop
 * answers whatever waits (other clients' MQTT packets and acknowledgements, HTTP requests)
 * before the next slice starts. Issue 27 §2: a message of 100,000 records held every other
 * plant's acknowledgements for 21 s.
 */

/** How long one slice of work may hold the event loop (ms). */
export const SLICE_MS = 10;

/** Lets every callback that is due run (I/O included) before going on. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A slicer for one piece of work: `await slicer.next()` between the steps of a loop (one record,
 * one array element). While the slice lasts it returns nothing to wait for (the loop goes on in
 * the same turn); once the slice's time is used up, a promise of the next turn of the event loop.
 * Once `signal` is aborted, `next()` throws (or rejects with) its reason: the work stops between
 * two steps, so a shutdown does not wait for the rest of a large message.
 */
export function createSlicer(opts: { sliceMs?: number; signal?: AbortSignal } = {}) {
  const sliceMs = opts.sliceMs ?? SLICE_MS;
  const signal = opts.signal;
  let started = performance.now();
  const resume = () => {
    signal?.throwIfAborted();
    started = performance.now();
  };
  return {
    next(): Promise<void> | undefined {
      signal?.throwIfAborted();
      if (performance.now() - started < sliceMs) return undefined;
      return yieldToEventLoop().then(resume);
    },
  };
}
export type Slicer = ReturnType<typeof createSlicer>;
