// A stand-in for db/pglite.thread.js that opens (answers id 0), then fails as a crashed
// WebAssembly module would: an uncaught error on the first query, or an exit on "exit".
import { parentPort } from "node:worker_threads";

parentPort.postMessage({ id: 0, ok: true });
parentPort.on("message", (m) => {
  if (m.op === "close") {
    parentPort.postMessage({ id: m.id, ok: true });
    return;
  }
  if (m.sql === "exit") process.exit(3);
  throw new Error("the module aborted");
});
