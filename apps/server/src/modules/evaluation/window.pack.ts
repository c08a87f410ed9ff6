/**
 * A window as it crosses to a statistics thread (stats-pool.ts): the record times and values in
 * two Float64Arrays whose buffers are transferred, not copied, and the strings in plain arrays.
 * Structured clone of the records themselves (an object and an array a record) cost the API's
 * thread about as much as the statistics of a small window; packing is one pass of plain number
 * copies, and the thread rebuilds the records on its own time.
 */
import type { Window, WindowRecord } from "./evaluate.js";

export type PackedWindow = {
  signals: Window["signals"];
  references: Window["references"];
  limits?: Window["limits"];
  /** Values a record: signals then references. */
  width: number;
  /** Epoch ms of each record. */
  ts: Float64Array;
  partIds: string[];
  modelNumbers: (string | null)[];
  /** Row-major: record i's values at [i × width, (i + 1) × width). */
  values: Float64Array;
};

/** Values packed between two turns of the event loop: a few milliseconds of copying. */
const PACK_SLICE_VALUES = 250_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The window packed, and the buffers to transfer with it (the window itself is left as it was).
 * A large window is packed a slice at a time, the event loop answering others between slices
 * (18,640 records × 1,000 values held it 1.3 s in one pass).
 */
export async function packWindow(window: Window): Promise<{ packed: PackedWindow; transfer: ArrayBuffer[] }> {
  const { records } = window;
  const n = records.length;
  const width = window.signals.length + window.references.length;
  const ts = new Float64Array(n);
  const values = new Float64Array(n * width);
  const partIds = new Array<string>(n);
  const modelNumbers = new Array<string | null>(n);
  const sliceRecords = Math.max(1, Math.floor(PACK_SLICE_VALUES / Math.max(1, width)));
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % sliceRecords === 0) await nextTurn();
    const r = records[i] as WindowRecord;
    ts[i] = r.ts.getTime();
    partIds[i] = r.partId;
    modelNumbers[i] = r.modelNumber;
    const row = r.values;
    const at = i * width;
    for (let j = 0; j < width; j++) values[at + j] = row[j] ?? Number.NaN;
  }
  const packed: PackedWindow = {
    signals: window.signals,
    references: window.references,
    ...(window.limits ? { limits: window.limits } : {}),
    width,
    ts,
    partIds,
    modelNumbers,
    values,
  };
  return { packed, transfer: [ts.buffer as ArrayBuffer, values.buffer as ArrayBuffer] };
}

/** The window again, as evaluateMonitor and the capability view take it. */
export function unpackWindow(p: PackedWindow): Window {
  return {
    signals: p.signals,
    references: p.references,
    records: unpackRecords(p),
    ...(p.limits ? { limits: p.limits } : {}),
  };
}

/** Records without their window (a chunk of a backtest's period, fed to its replay as it is read). */
export type PackedRecords = Pick<PackedWindow, "width" | "ts" | "partIds" | "modelNumbers" | "values">;

/** A chunk of records packed in one pass (a page of a read: tens of thousands of values at most). */
export function packRecords(
  records: readonly WindowRecord[],
  width: number,
): { packed: PackedRecords; transfer: ArrayBuffer[] } {
  const n = records.length;
  const ts = new Float64Array(n);
  const values = new Float64Array(n * width);
  const partIds = new Array<string>(n);
  const modelNumbers = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    const r = records[i] as WindowRecord;
    ts[i] = r.ts.getTime();
    partIds[i] = r.partId;
    modelNumbers[i] = r.modelNumber;
    const at = i * width;
    for (let j = 0; j < width; j++) values[at + j] = r.values[j] ?? Number.NaN;
  }
  return {
    packed: { width, ts, partIds, modelNumbers, values },
    transfer: [ts.buffer as ArrayBuffer, values.buffer as ArrayBuffer],
  };
}

/** The records of a packed window or chunk. */
export function unpackRecords(p: PackedRecords): WindowRecord[] {
  const n = p.ts.length;
  const records = new Array<WindowRecord>(n);
  for (let i = 0; i < n; i++) {
    const at = i * p.width;
    const values = new Array<number>(p.width);
    for (let j = 0; j < p.width; j++) values[j] = p.values[at + j] as number;
    records[i] = {
      ts: new Date(p.ts[i] as number),
      partId: p.partIds[i] as string,
      modelNumber: p.modelNumbers[i] ?? null,
      values,
    };
  }
  return records;
}
