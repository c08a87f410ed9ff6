// Builds the web app. With --if-stale, only when a source file is newer than the last build,
// so `npm install` (prepare) and `npm start` build once and then reuse the build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const built = path.join(root, "apps/web/dist/index.html");

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = [
  "apps/web/src",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "packages/contracts/src",
].map((p) => path.join(root, p));
const stale =
  !existsSync(built) ||
  Math.max(...sources.map((s) => (statSync(s).isDirectory() ? newest(s) : statSync(s).mtimeMs))) >
    statSync(built).mtimeMs;

if (process.argv.includes("--if-stale") && !stale) process.exit(0);
if (!existsSync(path.join(root, "node_modules/vite"))) {
  console.error("vite is not installed: run npm install first");
  process.exit(1);
}
console.log("[linewatch] building the web app…");
const r = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], {
  cwd: path.join(root, "apps/web"),
  stdio: "inherit",
});
process.exit(r.status ?? 1);
