// The file piscina loads in each statistics thread (stats-pool.ts). Plain JavaScript on purpose:
// a worker thread loads its file with Node's own loader, which reads no TypeScript under vitest
// or tsx (even with `--import tsx` in its execArgv). Run from the sources, it registers tsx's
// loader in this thread first; a compiled build (stats.thread.js beside this file) needs none.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = new URL("./stats.thread.js", import.meta.url);
let handler;
if (existsSync(fileURLToPath(compiled))) {
  handler = (await import(compiled.href)).default;
} else {
  const { register } = await import("tsx/esm/api");
  register();
  handler = (await import(new URL("./stats.thread.ts", import.meta.url).href)).default;
}
export default handler;
