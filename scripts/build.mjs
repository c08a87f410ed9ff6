// `npm run build`: the production build. Compiles packages/contracts, packages/stats and
// apps/server with tsc into each one's dist/ (the layout of its src/, tests left out), copies beside
// the JavaScript what they read at run time that is not TypeScript (the database thread's and the
// statistics thread's entry files, the SQL migrations and their journal), then builds the web app
// (build-web.mjs). `npm run start:prod` runs the result with plain node: the packages' exports send
// the condition "linewatch-dist" to dist/, every other resolver (tsx, vitest, Vite, tsc) to src/
// (docs/decisions/0002-production-build-with-tsc.md).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Built in this order: the server imports both packages (tsc reads their sources for types). */
const COMPILED_WORKSPACES = ["packages/contracts", "packages/stats", "apps/server"];

const tsc = path.join(root, "node_modules/typescript/bin/tsc");
if (!existsSync(tsc)) {
  console.error("typescript is not installed: run npm ci (with devDependencies) before npm run build");
  process.exit(1);
}

/** Copies every file under `from` that tsc does not emit (not .ts, not a test) to the same place under `to`. */
function copyAssets(from, to) {
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dest = path.join(to, e.name);
    if (e.isDirectory()) {
      copyAssets(src, dest);
      continue;
    }
    if (e.name.endsWith(".ts") || e.name.includes(".test.")) continue;
    mkdirSync(to, { recursive: true });
    copyFileSync(src, dest);
  }
}

for (const ws of COMPILED_WORKSPACES) {
  const dir = path.join(root, ws);
  const started = Date.now();
  // A file removed from src/ must not live on in dist/.
  rmSync(path.join(dir, "dist"), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[linewatch] tsc failed in ${ws}`);
    process.exit(r.status ?? 1);
  }
  copyAssets(path.join(dir, "src"), path.join(dir, "dist"));
  console.log(`[linewatch] compiled ${ws} into ${ws}/dist (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const web = spawnSync(process.execPath, [path.join(root, "scripts/build-web.mjs")], { stdio: "inherit" });
process.exit(web.status ?? 1);
