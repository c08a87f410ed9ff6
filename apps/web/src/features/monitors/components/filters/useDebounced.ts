import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Calls `fn` once the calls to `schedule` stop for `ms`. `flush` runs a pending call now (blur,
 * Enter); a pending call also runs on unmount, so a value typed just before leaving the tab is
 * not lost.
 */
export function useDebouncedCallback<A>(fn: (arg: A) => void, ms: number) {
  const fnRef = useRef(fn);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<{ arg: A } | null>(null);

  useEffect(() => {
    fnRef.current = fn;
  });

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const p = pending.current;
    pending.current = null;
    if (p) fnRef.current(p.arg);
  }, []);

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
  }, []);

  const schedule = useCallback(
    (arg: A) => {
      if (timer.current) clearTimeout(timer.current);
      pending.current = { arg };
      timer.current = setTimeout(flush, ms);
    },
    [flush, ms],
  );

  useEffect(() => flush, [flush]);

  return { schedule, flush, cancel };
}

/**
 * `value` once it has stopped changing for `ms` (compared by its JSON, so a new object with the
 * same content is no change). The first value is taken at once.
 */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState({ key, value });
  const latest = useRef(value);

  useEffect(() => {
    latest.current = value;
  });

  useEffect(() => {
    if (key === settled.key) return;
    const t = setTimeout(() => setSettled({ key, value: latest.current }), ms);
    return () => clearTimeout(t);
  }, [key, settled.key, ms]);

  return settled.value;
}
