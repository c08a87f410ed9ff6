import type { Tx } from "../../src/db/client.js";
import type { Window } from "../../src/modules/evaluation/evaluate.js";
import { openRecordSpan } from "../../src/modules/evaluation/window.read.js";

/**
 * A replay's records read whole (what the backtest reads a page at a time, openRecordSpan): the
 * window before `from` then every chunk, oldest first, and how many chunks came.
 */
export async function readRecordSpan(
  db: Tx,
  q: Parameters<typeof openRecordSpan>[1],
  span: Parameters<typeof openRecordSpan>[2],
  opts: Parameters<typeof openRecordSpan>[3] = {},
): Promise<{ window: Window; chunks: number }> {
  const s = await openRecordSpan(db, q, span, opts);
  const records = [...s.window.records];
  let chunks = 0;
  for await (const chunk of s.chunks) {
    chunks++;
    for (const r of chunk) records.push(r);
  }
  return { window: { ...s.window, records }, chunks };
}
