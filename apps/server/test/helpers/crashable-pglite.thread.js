// The real embedded-database thread (db/pglite.thread.js), which also dies, as a crashed
// WebAssembly module would, when it is sent the statement CRASH_STATEMENT.
import { parentPort } from "node:worker_threads";
import "../../src/db/pglite.thread.js";

// pglite-thread.test.ts sends the same text.
const CRASH_STATEMENT = "select 'crash the thread'";

parentPort.on("message", (m) => {
  if (m.sql === CRASH_STATEMENT) process.exit(3);
});
