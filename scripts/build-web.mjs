// Builds the web app. With --if-stale, only when a source file is newer than the last build,
// so `npm install` (prepare) and `npm start` build once and then reuse the build. With --optional
// (prepare), a missing vite skips the build with a note instead of failing: a production install
// (`npm ci --omit=dev`) has no vite and serves the build made before it (README, "Production
// installation").
// Then writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, which the
// server sends as they are to a browser that accepts them (apps/server/src/http/app.ts).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

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
  "scripts/build-web.mjs",
].map((p) => path.join(root, p));
const stale =
  !existsSync(built) ||
  Math.max(...sources.map((s) => (statSync(s).isDirectory() ? newest(s) : statSync(s).mtimeMs))) >
    statSync(built).mtimeMs;

if (process.argv.includes("--if-stale") && !stale) process.exit(0);
if (!existsSync(path.join(root, "node_modules/vite"))) {
  if (process.argv.includes("--optional")) {
    console.warn(
      existsSync(built)
        ? "[linewatch] vite is not installed (npm ci --omit=dev?): the web app's build is older than its sources and is kept as it is; rebuild it in a full install (npm run build)"
        : "[linewatch] vite is not installed (npm ci --omit=dev?) and the web app is not built: the server will answer the API only; build it in a full install first (npm run build)",
    );
    process.exit(0);
  }
  console.error("vite is not installed: run npm install first");
  process.exit(1);
}
console.log("[linewatch] building the web app…");
const r = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], {
  cwd: path.join(root, "apps/web"),
  stdio: "inherit",
});
if (r.status !== 0) process.exit(r.status ?? 1);

// Built once, sent many times: the slowest, smallest settings (brotli quality 11, gzip level 9).
// A copy that would not be smaller than the file is not written (the file is sent as it is).
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
const dist = path.join(root, "apps/web/dist");
function compressAll(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      compressAll(p);
      continue;
    }
    if (!COMPRESSIBLE.test(e.name)) continue;
    const data = readFileSync(p);
    const copies = {
      br: brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gz: gzipSync(data, { level: 9 }),
    };
    for (const [ext, copy] of Object.entries(copies)) {
      if (copy.length < data.length) writeFileSync(`${p}.${ext}`, copy);
      else rmSync(`${p}.${ext}`, { force: true });
    }
  }
}
compressAll(dist);
