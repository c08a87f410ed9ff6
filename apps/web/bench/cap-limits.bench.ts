// npm run bench:cap-limits — issue #14's goal for Cap Limits: "Stays quick with 500 signals × 5
// models on a line (virtualised rows; a keystroke in a cell answers within 50 ms)".
//
// Builds the web app if a source is newer than the build, starts the real server (embedded PGlite,
// demo plant, free ports) and opens Settings → Limits in headless Chromium with the line's limits
// and signals answered by a synthetic line of 500 measurements, each with the default row '*' and
// 4 model numbers (the other calls go to the server). It prints when the grid is usable, how many
// rows the DOM holds (virtualisation), then expands BENCH_EXPAND signals (default 20) and types
// into a limit cell — a number, then a formula whose '{' opens the completion over the 1,000 signal
// names — and reports each keystroke's time from the key press to the next paint (the browser's
// Event Timing API, what INP measures; keystrokes under 16 ms are not reported by the browser and
// count as 16 ms) with the slowest and the median against 50 ms (ratio ≤ 1 meets the goal), and
// the load average (the machine is shared). CHROMIUM_PATH as for the e2e suite.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";
import { freePort } from "../../server/bench/bench-http.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SIGNALS = 500;
const MODELS = ["*", "M-1", "M-2", "M-3", "M-4"];
const EXPAND = Number(process.env.BENCH_EXPAND ?? 20);
const GOAL_MS = 50;
const ADMIN = { email: "admin@demo.local", password: "demo-admin" };

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");

/** The real server with the demo plant, as bench:web starts it. */
async function startServer(): Promise<{ baseURL: string; server: ChildProcess; dataDir: string }> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(tmpdir(), "linewatch-bench-cap-limits-"));
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      MQTT_PORT: String(mqttPort),
      DEMO: "true",
      PUBLIC_URL: baseURL,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      MQTT_URL: "",
    },
  });
  const deadline = Date.now() + 180_000; // first start migrates and seeds the demo plant
  for (;;) {
    if (server.exitCode != null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the server did not answer /api/health in 180 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseURL, server, dataDir };
}

const uuid = (kind: number, i: number) =>
  `00000000-0000-4000-8${kind.toString(16).padStart(3, "0")}-${i.toString(16).padStart(12, "0")}`;

/** 500 measurements on 10 stations, each with an upper-limit signal a formula may name. */
function syntheticLine(lineId: string) {
  const signal = (id: string, name: string, entityType: string, station: string) => ({
    id,
    name,
    friendlyName: null,
    entityType,
    isSignalActive: true,
    qualityCharacteristic: "NONE",
    stationName: station,
    upperLimit: null,
    lowerLimit: null,
    result: null,
    singleSide: null,
    storage: "num",
    hasCapLimits: true,
  });
  const stationOf = (i: number) => `OP${String(10 + (i % 10) * 10)}`;
  const stations = Array.from({ length: 10 }, (_, s) => ({
    id: uuid(1, s),
    name: stationOf(s),
    final: false,
    isDefault: false,
    signals: Array.from({ length: SIGNALS }, (_, i) => i)
      .filter((i) => i % 10 === s)
      .flatMap((i) => [
        signal(uuid(2, i), `Signal ${i}`, "MEASUREMENT", stationOf(s)),
        signal(uuid(3, i), `Signal ${i} Upper Limit`, "UPPER_LIMIT", stationOf(s)),
      ]),
  }));
  const limits = Array.from({ length: SIGNALS }, (_, i) => ({
    lineUUID: lineId,
    stationName: stationOf(i % 10),
    signalUUID: uuid(2, i),
    signalName: `Signal ${i}`,
    singleSide: null,
    limits: MODELS.map((model, m) => ({
      uuid: uuid(4, i * 10 + m),
      model_number: model,
      lslFormula: "1",
      lclFormula: "2",
      uclFormula: m % 2 ? `{${uuid(3, i)}} - 1` : "8",
      uslFormula: "9",
    })),
  }));
  return { stations, limits };
}

/**
 * Collects, per key pressed, the Event Timing duration of its keydown (key press to next paint) in
 * the page: the browser reports events of 16 ms or more; a key it does not report took less.
 */
async function watchKeystrokes(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __keys: { key: string; at: number; duration: number }[] };
    w.__keys = [];
    document.addEventListener(
      "keydown",
      (e) => w.__keys.push({ key: e.key, at: e.timeStamp, duration: 0 }),
      true,
    );
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEventTiming[]) {
        if (e.name !== "keydown") continue;
        const k = w.__keys.find((x) => Math.abs(x.at - e.startTime) < 1);
        if (k) k.duration = Math.max(k.duration, e.duration);
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: false } as PerformanceObserverInit);
  });
}

async function main() {
  console.log(`bench:cap-limits — load average at start: ${load()}`);
  const build = spawnSync(process.execPath, ["scripts/build-web.mjs", "--if-stale"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the web build failed");
  const { baseURL, server, dataDir } = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext({ baseURL, viewport: { width: 1600, height: 1000 } });
    const login = await context.request.post("/api/auth/login", { data: ADMIN });
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
    const me = await (await context.request.get("/api/auth/me")).json();
    const lineId = me.selectedLineId as string;
    const line = syntheticLine(lineId);
    await context.route("**/api/line-config/spc-signal-limits?*", (route) =>
      route.request().method() === "GET" ? route.fulfill({ json: line.limits }) : route.fallback(),
    );
    await context.route(/\/api\/lines\/[^/]+\/signals$/, (route) => route.fulfill({ json: line.stations }));

    const page = await context.newPage();
    const started = Date.now();
    await page.goto("/settings?section=SPC_LIMITS");
    const grid = page.getByRole("grid", { name: "Cap Limits" });
    await grid.getByRole("button", { name: "See models" }).first().waitFor({ timeout: 60_000 });
    const usableMs = Date.now() - started;
    // The largest page (100 signals), then EXPAND of them open: up to 100 + 5 × EXPAND rows.
    await page.getByRole("combobox", { name: /Rows per page/ }).click();
    await page.getByRole("option", { name: "100" }).click();
    for (let i = 0; i < EXPAND; i++) {
      const see = grid.getByRole("button", { name: "See models" }).first();
      await see.click();
    }
    const rowsInDom = await grid.locator('[role="row"]').count();
    const cell = grid.getByRole("textbox", { name: "LSL M-2" }).first();
    await cell.click();
    await cell.press("End");
    await page.waitForTimeout(300); // the End key's own entry arrives before the watch starts
    await watchKeystrokes(page);
    const typed = "2.5+{Signal 4";
    for (const ch of typed) {
      await page.keyboard.type(ch);
      // one key at a time, as a person types (100 ms apart): each gets its own next paint
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(500);
    const value = await cell.inputValue();
    const keys = (await page.evaluate(
      () => (window as unknown as { __keys: { key: string; duration: number }[] }).__keys,
    )) as { key: string; duration: number }[];
    // A key the browser did not report took under 16 ms: counted as 16.
    const times = keys.map((k) => Math.max(16, k.duration)).sort((a, b) => a - b);
    const worst = times.at(-1) as number;
    const median = times[Math.floor(times.length / 2)] as number;
    console.log(
      `${SIGNALS} signals × ${MODELS.length} models; grid usable after ${usableMs} ms; ${EXPAND} signals expanded, ${rowsInDom} rows in the DOM (virtualised)`,
    );
    console.log(`typed "${typed}" into LSL M-2: cell reads "${value}"`);
    console.log(
      `keystroke to next paint over ${keys.length} keys: median ${median} ms (ratio to 50 ms ${(median / GOAL_MS).toFixed(2)}), slowest ${worst} ms (ratio ${(worst / GOAL_MS).toFixed(2)})`,
    );
    console.log(
      `per key (ms, "<16" unreported): ${keys.map((k) => `${k.key} ${k.duration || "<16"}`).join(", ")}`,
    );
    console.log(`load average at end: ${load()}`);
    await context.close();
  } finally {
    await browser.close();
    if (server.exitCode == null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
