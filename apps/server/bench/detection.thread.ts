// A worker thread of the detection benchmark (detection.bench.ts): runs the cells it is sent, one at
// a time, and answers each with its result. Loaded through detection.thread-entry.js.
import { parentPort } from "node:worker_threads";
import { type CellSpec, runCell } from "./detection.simulate.js";

export interface CellTask {
  readonly id: number;
  readonly spec: CellSpec;
  readonly seed: number;
  readonly windows: number;
}

const port = parentPort;
if (!port) throw new Error("detection.thread.ts runs in a worker thread");
port.on("message", (task: CellTask) => {
  try {
    port.postMessage({ id: task.id, result: runCell(task.spec, task.seed, task.windows) });
  } catch (err) {
    port.postMessage({ id: task.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
