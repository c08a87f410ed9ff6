import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// One server for the run, on a fresh embedded database with the demo plant, its own HTTP and MQTT
// ports (Mosquitto may hold 1883), and Debian's Chromium.
const port = Number(process.env.E2E_PORT ?? 18090);
const mqttPort = Number(process.env.E2E_MQTT_PORT ?? 18831);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "linewatch-e2e-"));
// Playwright loads this file again in every worker process: they inherit the runner's folder
// instead of each leaving an empty one of its own behind.
process.env.E2E_DATA_DIR = dataDir;
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  // Own folder per run when several run at once (E2E_OUTPUT_DIR).
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  // Upper bounds of waiting for a condition, not durations: a passing test takes what it takes.
  // At load 13 on 2 cores (other work beside the run), a monitor save
  // took over 10 s and a backtest spec over 30 s.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // Tests share one demo customer and some switch its feature flags: one at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/results.json" }],
  ],
  use: {
    baseURL,
    viewport: { width: 1280, height: 720 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: "node --import tsx ../apps/server/src/main.ts",
        url: `${baseURL}/api/health`,
        timeout: 180_000,
        reuseExistingServer: false,
        stdout: "pipe",
        stderr: "pipe",
        env: {
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          MQTT_PORT: String(mqttPort),
          DEMO: "true",
          PUBLIC_URL: baseURL,
          // E2E_LOG_LEVEL=info with DEBUG=pw:webserver prints the server's log (ingest batches,
          // housekeeping, alerts) among Playwright's output: what to read when a run stalls.
          LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
          DATABASE_URL: "",
          MQTT_URL: "",
          // A worker "minute" of 1 s and a brisk simulator, so monitors evaluate every 5 s and the
          // line overview has alerts within a minute.
          WORKER_MINUTE_MS: "1000",
          WORKER_POLL_MS: "500",
          SIMULATOR_RATE: "30",
          // integrations.spec.ts runs local fake Teams and ETQ servers on loopback.
          ALLOW_LOOPBACK_OUTBOUND: "true",
        },
      },
});
