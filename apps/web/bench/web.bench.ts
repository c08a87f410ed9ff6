// npm run bench:web — what a person waits for when a page of the built web app opens on a cold
// cache: the bytes it loads before it is usable (transfer size, as sent: compressed, headers
// included) and when its first content and its usable content are painted, against issue #17's
// budgets (sign-in ≤ 120 kB; the home page, the line overview, each Settings section and the audit
// log ≤ 300 kB).
//
// It builds the web app if a source is newer than the build, starts the real server (embedded
// PGlite database with the demo plant, free HTTP and MQTT ports) and opens each page in a fresh
// headless Chromium context (empty cache). "Usable" is the first animation frame in which the
// page's own content is there and nothing on it still shows a loading indicator; the bytes are
// those of every request the page started before that frame (the document, its scripts, the API
// answers). Times are on loopback, so they are mostly script parse and run time, which follows the
// machine's load: hence the load average at start and end.
//
// BENCH_ROUNDS (default 3) opens each page that many times; bytes are the same each time, times
// are the median. CHROMIUM_PATH as for the e2e suite (default /usr/bin/chromium). BENCH_SCRIPTS=file
// writes which script files each page loaded before it was usable (JSON, page name → file names
// under assets/), for apps/web/bench/bundle-report.ts.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { freePort } from "../../server/bench/bench-http.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KB = 1000; // kB as the issue counts them (1,000 bytes)
const ADMIN = { email: "admin@demo.local", password: "demo-admin" };

type Target = {
  name: string;
  /** Path to open; signed-in pages are opened with a session already in the context. */
  url: (ids: { lineId: string }) => string;
  signedIn: boolean;
  budgetBytes: number;
  /**
   * Run in the page every animation frame (self-contained: Playwright sends its source): the time
   * (performance.now()) once the page's own content is there and nothing on it says "loading"
   * (MUI's CircularProgress and LinearProgress and the app's PageLoading carry role=progressbar;
   * skeletons), else 0.
   */
  usableAt: () => number;
};

const settingsSection = (name: string, section: string): Target => ({
  name,
  url: () => `/settings?section=${section}`,
  signedIn: true,
  budgetBytes: 300 * KB,
  usableAt: () => {
    const nav = document.querySelector('nav[aria-label="Settings"]');
    const isShown =
      !!nav?.querySelector('[aria-current="page"]') && !!nav?.nextElementSibling?.querySelector("h2");
    const isBusy = !!document.querySelector('[role="progressbar"], .MuiSkeleton-root');
    return isShown && !isBusy ? performance.now() : 0;
  },
});

const TARGETS: Target[] = [
  {
    name: "Sign-in",
    url: () => "/login",
    signedIn: false,
    budgetBytes: 120 * KB,
    usableAt: () => {
      const isShown =
        !!document.querySelector('form input[type="email"]') &&
        !!document.querySelector('form button[type="submit"]');
      const isBusy = !!document.querySelector('[role="progressbar"], .MuiSkeleton-root');
      return isShown && !isBusy ? performance.now() : 0;
    },
  },
  {
    name: "Home (plant overview)",
    url: () => "/",
    signedIn: true,
    budgetBytes: 300 * KB,
    usableAt: () => {
      const isShown =
        !!document.querySelector("main h1") &&
        !!document.querySelector('main section[aria-label="Lines"] svg');
      const isBusy = !!document.querySelector('[role="progressbar"], .MuiSkeleton-root');
      return isShown && !isBusy ? performance.now() : 0;
    },
  },
  {
    name: "Line overview",
    url: ({ lineId }) => `/lines/${lineId}`,
    signedIn: true,
    budgetBytes: 300 * KB,
    usableAt: () => {
      const isShown =
        !!document.querySelector("main h1") &&
        [...document.querySelectorAll("main h2")].some((h) => h.textContent === "Monitors");
      const isBusy = !!document.querySelector('[role="progressbar"], .MuiSkeleton-root');
      return isShown && !isBusy ? performance.now() : 0;
    },
  },
  {
    name: "Audit log",
    url: () => "/audit-log",
    signedIn: true,
    budgetBytes: 300 * KB,
    usableAt: () => {
      const h1 = document.querySelector("main h1");
      const isShown =
        h1?.textContent === "Audit log" &&
        (!!document.querySelector('main table[aria-label="Audit log"]') ||
          !!document.querySelector("main")?.textContent?.includes("No changes recorded"));
      const isBusy = !!document.querySelector('[role="progressbar"], .MuiSkeleton-root');
      return isShown && !isBusy ? performance.now() : 0;
    },
  },
  // Every section of the Settings menu (packages/contracts/src/settings.ts; the demo customer has
  // every flag on, so ETQ Reliance and MVD are in the menu).
  settingsSection("Settings · SVD monitors", "SVD_ANOMALY_MONITORS"),
  settingsSection("Settings · MVD monitors", "MVD_ANOMALY_MONITORS"),
  settingsSection("Settings · Cap Alerts", "SPC_ALERT"),
  settingsSection("Settings · Cap Limits", "SPC_LIMITS"),
  settingsSection("Settings · Data Sources", "DATA_SOURCES"),
  settingsSection("Settings · Signal Management", "SIGNAL_MANAGEMENT"),
  settingsSection("Settings · Line Management", "LINE_MANAGEMENT"),
  settingsSection("Settings · Microsoft Teams", "MS_TEAMS"),
  settingsSection("Settings · ETQ Reliance", "ETQ_RELIANCE"),
  settingsSection("Settings · User Management", "USER_MANAGEMENT"),
  {
    name: "Feature flags",
    url: () => "/feature-flags",
    signedIn: true,
    budgetBytes: 300 * KB,
    usableAt: () => {
      const isShown =
        [...document.querySelectorAll("main h1")].some((h) => h.textContent === "Feature flags") &&
        !!document.querySelector('table[aria-label="Feature flags"] tbody tr');
      const isBusy = !!document.querySelector('[role="progressbar"], .MuiSkeleton-root');
      return isShown && !isBusy ? performance.now() : 0;
    },
  },
];

async function startServer(): Promise<{ baseURL: string; server: ChildProcess; dataDir: string }> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(tmpdir(), "linewatch-bench-web-"));
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
  try {
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
  } catch (e) {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return { baseURL, server, dataDir };
}

async function stopServer(server: ChildProcess) {
  if (server.exitCode != null || server.signalCode != null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
}

async function firstLineId(baseURL: string, browser: Browser): Promise<string> {
  const context = await browser.newContext({ baseURL });
  try {
    await signIn(context.request);
    const [plant] = (await (await context.request.get("/api/plants")).json()) as { id: string }[];
    if (!plant) throw new Error("the demo plant is missing");
    const [line] = (await (await context.request.get(`/api/plants/${plant.id}/lines`)).json()) as {
      id: string;
    }[];
    if (!line) throw new Error("the demo plant has no line");
    return line.id;
  } finally {
    await context.close();
  }
}

async function signIn(request: import("playwright-core").APIRequestContext) {
  const res = await request.post("/api/auth/login", { data: ADMIN });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

type Sample = {
  bytes: number;
  scriptBytes: number;
  /** Every request before usable but the document: its path and transfer size. */
  loaded: [string, number][];
  requests: number;
  fcpMs: number;
  readyMs: number;
  encoding: string;
};

async function measure(
  browser: Browser,
  baseURL: string,
  target: Target,
  lineId: string,
  isGzipOnly = false,
): Promise<Sample> {
  // A fresh context: empty cache, no service worker, its own cookies. Gzip only is what Chromium
  // asks for over plain http to a host name (brotli only over https or to localhost), as in a
  // plant that serves Linewatch without TLS.
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 720 },
    extraHTTPHeaders: isGzipOnly ? { "accept-encoding": "gzip, deflate" } : {},
  });
  try {
    if (target.signedIn) await signIn(context.request);
    const page: Page = await context.newPage();
    const encodings = new Set<string>();
    page.on("response", (r) => {
      if (r.url().includes("/assets/") && r.url().endsWith(".js"))
        encodings.add(r.headers()["content-encoding"] ?? "identity");
    });
    await page.goto(target.url({ lineId }), { waitUntil: "commit" });
    // Polled every animation frame: the frame in which the content is there and nothing is busy.
    const readyMs = (await (
      await page.waitForFunction(target.usableAt, undefined, { polling: "raf", timeout: 60_000 })
    ).jsonValue()) as number;
    // The paint entry is recorded when its frame is presented, which may come after the frame in
    // which the content was found: wait for it (up to 2 s; NaN if none came).
    await page
      .waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, undefined, {
        polling: "raf",
        timeout: 2_000,
      })
      .catch(() => undefined);
    return await page.evaluate(
      ({ readyMs, encoding }) => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
          (r) => r.startTime < readyMs,
        );
        const fcp = performance.getEntriesByName("first-contentful-paint")[0];
        return {
          bytes: nav.transferSize + resources.reduce((s, r) => s + r.transferSize, 0),
          scriptBytes: resources
            .filter((r) => r.name.endsWith(".js"))
            .reduce((s, r) => s + r.transferSize, 0),
          loaded: resources.map((r) => [new URL(r.name).pathname, r.transferSize] as [string, number]),
          requests: 1 + resources.length,
          fcpMs: fcp ? fcp.startTime : Number.NaN,
          readyMs,
          encoding,
        };
      },
      { readyMs, encoding: [...encodings].join("/") },
    );
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const kB = (n: number) => `${(n / KB).toFixed(1)} kB`;
const fmtLoad = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function main() {
  console.log(`bench:web — load average at start: ${fmtLoad()} (${availableParallelism()} cores)`);
  const build = spawnSync(process.execPath, ["scripts/build-web.mjs", "--if-stale"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the web build failed");

  const { baseURL, server, dataDir } = await startServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const lineId = await firstLineId(baseURL, browser);
    console.log(
      `server ${baseURL}; ${ROUNDS} cold-cache load(s) per page, bytes until usable (transfer size), times median\n`,
    );
    const header = [
      "page",
      "bytes",
      "budget",
      "ratio",
      "of it JS",
      "requests",
      "FCP",
      "usable",
      "JS encoding",
      "gzip only",
      "ratio",
    ];
    const rows: string[][] = [header];
    const loadedByPage: Record<string, [string, number][]> = {};
    for (const target of TARGETS) {
      const samples: Sample[] = [];
      for (let i = 0; i < ROUNDS; i++) samples.push(await measure(browser, baseURL, target, lineId));
      const bytes = median(samples.map((s) => s.bytes));
      const gzip = await measure(browser, baseURL, target, lineId, true);
      loadedByPage[target.name] = gzip.loaded;
      rows.push([
        target.name,
        kB(bytes),
        kB(target.budgetBytes),
        (bytes / target.budgetBytes).toFixed(2),
        kB(median(samples.map((s) => s.scriptBytes))),
        String(median(samples.map((s) => s.requests))),
        `${Math.round(median(samples.map((s) => s.fcpMs)))} ms`,
        `${Math.round(median(samples.map((s) => s.readyMs)))} ms`,
        samples[0]?.encoding ?? "",
        `${kB(gzip.bytes)} (${gzip.encoding})`,
        (gzip.bytes / target.budgetBytes).toFixed(2),
      ]);
    }
    const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c]?.length ?? 0)));
    for (const r of rows)
      console.log(
        r
          .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
          .join("  "),
      );
    if (process.env.BENCH_SCRIPTS)
      writeFileSync(process.env.BENCH_SCRIPTS, JSON.stringify(loadedByPage, null, 1));
    console.log(
      "\nratio = bytes / budget (≤ 1.00 meets it); gzip only: one more cold load asking for gzip, deflate",
    );
  } finally {
    await browser?.close();
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`load average at end: ${fmtLoad()}`);
}

await main();
