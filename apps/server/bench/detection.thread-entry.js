// The file each worker thread of the detection benchmark loads. Plain JavaScript on purpose (as
// src/modules/evaluation/stats.thread-entry.js): a worker thread loads its file with Node's own
// loader, which reads no TypeScript, so it registers tsx's loader in this thread first.
import { register } from "tsx/esm/api";

register();
await import(new URL("./detection.thread.ts", import.meta.url).href);
