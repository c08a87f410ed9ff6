// A statistics thread for tests (stats-pool.ts's threadFile): it speaks the pool's protocol
// (stats.thread.ts: "started" with its kernel thread id, then the answer) but computes nothing:
//   evaluate   — holds its thread synchronously (Atomics.wait, as a long computation would) until
//                the test sets flags[RELEASE], then answers a NO_DATA evaluation;
//   replay     — reports its start ({done: 0}), then spins on the CPU until the pool stops the thread;
//   capability — answers its arguments at once.
// workerData.flags (an Int32Array over a SharedArrayBuffer): [STARTED] counts tasks begun.
import { readlinkSync } from "node:fs";
import { workerData } from "piscina";

const STARTED = 0;
const RELEASE = 1;
const flags = workerData.flags;
let tid = null;
try {
  tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
} catch {}

export default function run({ task, args, port }) {
  port.postMessage({ type: "started", tid });
  Atomics.add(flags, STARTED, 1);
  Atomics.notify(flags, STARTED);
  try {
    if (task === "evaluate") {
      while (Atomics.load(flags, RELEASE) === 0) Atomics.wait(flags, RELEASE, 0);
      return {
        state: "NO_DATA",
        reason: "held by the test thread",
        score: null,
        threshold: null,
        trainingSize: null,
        evaluationSize: null,
        lastRecordTs: null,
        details: null,
      };
    }
    if (task === "replay") {
      port.postMessage({ type: "progress", done: 0, total: args.slots.length, at: null });
      let x = 0;
      for (;;) x = (x + Math.sqrt(x + 1)) % 1e9;
    }
    return args;
  } finally {
    port.close();
  }
}
