/**
 * A small memo of a computation on a series of values, matched exactly (every value, in order, and
 * a key for its other arguments), newest first, at most `capacity` entries. For work that depends
 * on a window's training values alone and is asked for again with the same values: the worker's
 * batch of monitors sharing one window, or one window judged at several levels. Results are shared,
 * so they must be treated as read-only.
 */
export function valuesMemo<T>(capacity: number) {
  const entries: { values: Float64Array; key: string; result: T }[] = [];
  return (values: ArrayLike<number>, key: string, compute: () => T): T => {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as (typeof entries)[number];
      if (entry.key !== key || !sameValues(entry.values, values)) continue;
      if (i > 0) {
        entries.splice(i, 1);
        entries.unshift(entry);
      }
      return entry.result;
    }
    const result = compute();
    entries.unshift({ values: Float64Array.from(values), key, result });
    if (entries.length > capacity) entries.pop();
    return result;
  };
}

/** Equal length and every value the same (NaN equal to NaN, as Object.is, but 0 equal to −0). */
function sameValues(a: Float64Array, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) return false;
  }
  return true;
}
