// `npm start`: the whole product in one process on the embedded defaults (API, web app, worker,
// ingest, embedded MQTT broker, demo plant). Builds the web app first if its build is stale.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-web.mjs"), "--if-stale"], {
  stdio: "inherit",
});
if (build.status !== 0) process.exit(build.status ?? 1);

// Node loads TypeScript through tsx's loader: one server process that signals reach directly.
const child = spawn(
  process.execPath,
  ["--import", "tsx", path.join(root, "apps/server/src/main.ts"), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" },
  },
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
