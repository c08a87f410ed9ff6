import AxeBuilder from "@axe-core/playwright";
import type { TSpcSignalLimits } from "@linewatch/contracts";
import { test as base, expect, type Locator, type Page, request } from "@playwright/test";

/**
 * Upper bound for a monitor form's first opening: its chunk, six requests and a large first
 * render took 13.5 s at load 20 on 2 cores (the expect default of 20 s was exceeded at load 26).
 */
export const FORM_LOAD_MS = 60_000;

/** Demo sign-ins (README "Demo sign-ins"). */
export const DEMO_USERS = {
  admin: { email: "admin@demo.local", password: "demo-admin" },
  user: { email: "user@demo.local", password: "demo-user" },
  support: { email: "support@linewatch.local", password: "demo-support" },
} as const;
export type DemoUser = keyof typeof DEMO_USERS;

/**
 * Signs in as the sign-in form does (POST /api/auth/login) without opening a page: the session
 * cookie lands in the test's browser context, so its next page.goto opens signed in, in a session
 * of its own (tests sign out, switch customers: a session shared between tests would not do).
 * The form itself is what auth.spec.ts ("signs in and out", wrong credentials) and security.spec.ts
 * (signInThroughForm, under the CSP) test; going through it in every test cost 1–2 s a test (load
 * /login, type, wait for the home page most tests then leave).
 */
export async function signIn(page: Page, who: DemoUser) {
  const res = await page.request.post("/api/auth/login", { data: DEMO_USERS[who] });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs in through the real form, and waits for the signed-in shell (the home page). */
export async function signInThroughForm(page: Page, who: DemoUser) {
  const { email, password } = DEMO_USERS[who];
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
}

/**
 * Switches a feature flag of the signed-in user's customer through the API, the only way there is:
 * as provider staff acting for that customer, in a session of their own.
 */
export async function setFlag(page: Page, key: string, enabled: boolean) {
  const me = await page.request.get("/api/auth/me");
  expect(me.status(), await me.text()).toBe(200);
  const customerId = (await me.json()).customer.id as string;
  const staff = await request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const login = await staff.post("/api/auth/login", { data: DEMO_USERS.support });
    expect(login.status(), await login.text()).toBe(200);
    const sw = await staff.post("/api/auth/switch-customer", { data: { customerId } });
    expect(sw.status(), await sw.text()).toBe(200);
    const res = await staff.put(`/api/feature-flags/${key}`, { data: { enabled } });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await staff.dispose();
  }
}

/** Opens a Settings section by its menu label. */
export async function openSettings(page: Page, label: string) {
  await page.goto("/settings");
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: label, exact: true })
    .click();
}

/**
 * Every test fails on a console error or an uncaught page error, so "no console errors" holds
 * everywhere. Tests that provoke an error answer on purpose list its text in `allowedConsoleErrors`.
 */
export const test = base.extend<{
  consoleErrors: string[];
  allowedConsoleErrors: RegExp[];
  shownAlerts: undefined;
}>({
  allowedConsoleErrors: [[], { option: true }],
  // Every page records the texts its alerts (role="alert": snackbars, error banners) showed, for
  // expectSnackbar.
  shownAlerts: [
    async ({ page }, use) => {
      await page.addInitScript(recordShownAlerts);
      await use(undefined);
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() !== "error") return;
        const text = m.text();
        // The browser logs every non-2xx response; tests assert those answers themselves.
        if (/Failed to load resource: the server responded with a status of/.test(text)) return;
        if (allowedConsoleErrors.some((r) => r.test(text))) return;
        errors.push(text);
      });
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

declare global {
  interface Window {
    __shownAlerts?: string[];
  }
}

/** In the page, before its scripts: appends each alert's text as it appears or changes. */
function recordShownAlerts() {
  const shown: string[] = [];
  window.__shownAlerts = shown;
  const last = new WeakMap<Element, string>();
  new MutationObserver(() => {
    for (const el of Array.from(document.querySelectorAll("[role=alert]"))) {
      const text = el.textContent?.trim() ?? "";
      if (text && last.get(el) !== text) shown.push(text);
      last.set(el, text);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/**
 * Waits until the page has shown a snackbar (or another alert) holding `text`, and takes that
 * showing off the record, so the next call waits for a new one. A snackbar is on screen for 3.3 s:
 * on a loaded machine a visibility check can look before it opens and after it closes; the
 * record cannot miss it.
 */
export async function expectSnackbar(page: Page, text: string) {
  await expect
    .poll(
      () =>
        page.evaluate((t) => {
          const shown = window.__shownAlerts ?? [];
          const i = shown.findIndex((s) => s.includes(t));
          if (i >= 0) shown.splice(i, 1);
          return i >= 0;
        }, text),
      { message: `a snackbar saying "${text}"` },
    )
    .toBe(true);
}

/**
 * A new MQTT password for the plant through the API, as an administrator (the Data Sources page
 * shows the same answer once): the login a test publishes with on the embedded broker.
 */
export async function newMqttPassword(
  page: Page,
  plantId: string,
): Promise<{ username: string; password: string }> {
  const res = await page.request.post(`/api/plants/${plantId}/mqtt-credential/password`);
  expect(res.status(), await res.text()).toBe(201);
  const body: { credential: { username: string }; password: string } = await res.json();
  return { username: body.credential.username, password: body.password };
}

/** The user's selected plant and line before `selectAxleLine` changed them (restoreSelection). */
let previousSelection: { selectedPlantId: string | null; selectedLineId: string | null } | undefined;

/**
 * The demo's Axle Assembly line's id, made the user's selected line: Settings opens on the selected
 * line, and other specs (auth.spec.ts) leave the demo user on another one. Put the previous
 * selection back with restoreSelection after the test.
 */
export async function selectAxleLine(page: Page): Promise<string> {
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  const lineId = lines.find((l: { name: string }) => l.name === "Axle Assembly").id;
  const me = await (await page.request.get("/api/auth/me")).json();
  previousSelection ??= { selectedPlantId: me.selectedPlantId, selectedLineId: me.selectedLineId };
  const res = await page.request.patch("/api/auth/me/selection", {
    data: { selectedPlantId: detroit.id, selectedLineId: lineId },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return lineId;
}

/** Puts back the selection selectAxleLine found (call it in afterEach). */
export async function restoreSelection(page: Page) {
  if (!previousSelection) return;
  await page.request.patch("/api/auth/me/selection", { data: previousSelection });
  previousSelection = undefined;
}

const spcLimitsUrl = (lineId: string) => `/api/line-config/spc-signal-limits?line-id=${lineId}`;

/** A signal's SPC limits as the API answers them. */
export async function spcLimitsOf(page: Page, lineId: string, signal: string): Promise<TSpcSignalLimits> {
  const list = (await (await page.request.get(spcLimitsUrl(lineId))).json()) as TSpcSignalLimits[];
  const found = list.find((s) => s.signalName === signal);
  if (!found) throw new Error(`no signal ${signal}`);
  return found;
}

/** Saves a signal's SPC limits through the API (to set up a test, or put them back after it). */
export async function putSpcLimits(page: Page, lineId: string, limits: TSpcSignalLimits) {
  const res = await page.request.put(spcLimitsUrl(lineId), { data: [limits] });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Opens the line overview once it lists an alert to acknowledge (the demo's live data raises the
 * first within a minute or two), and pauses that alert's monitor: three clean evaluations (15 s
 * with the e2e server's 1 s worker minute) would otherwise resolve it mid-test. Resume the monitor
 * with `resumeMonitor` when done.
 */
export async function openAlertWithMonitorPaused(
  page: Page,
  lineId: string,
): Promise<{ alerts: Locator; row: Locator; monitorName: string; monitorId: string }> {
  const alerts = page.getByRole("table", { name: "Alerts" });
  await expect(async () => {
    await page.goto(`/lines/${lineId}`);
    await expect(alerts.getByRole("button", { name: "Acknowledge" }).first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [3_000] });
  const row = alerts
    .getByRole("row")
    .filter({ has: page.getByRole("button", { name: "Acknowledge" }) })
    .first();
  const monitorName = (await row.getByRole("cell").nth(1).textContent()) ?? "";
  const monitors = await (await page.request.get(`/api/lines/${lineId}/monitors`)).json();
  const monitorId = monitors.find((m: { monitor_name: string }) => m.monitor_name === monitorName)
    .monitor_uuid as string;
  const pause = await page.request.patch(`/api/monitors/${monitorId}`, { data: { active: false } });
  expect(pause.status(), await pause.text()).toBe(200);
  return { alerts, row, monitorName, monitorId };
}

export async function resumeMonitor(page: Page, monitorId: string) {
  await page.request.patch(`/api/monitors/${monitorId}`, { data: { active: true } });
}

/** A violation as the failure message shows it: rule, impact, and where. */
type Found = { rule: string; impact: string; help: string; targets: string[] };

/**
 * Runs axe over the page (or only `within`, a dialog or drawer) and fails softly on any serious or
 * critical violation. Every rule axe runs by default, and `label-content-name-mismatch`, which it
 * leaves off (an experimental rule: a control whose name does not start with its visible text
 * cannot be spoken to by voice control).
 */
export async function expectAccessible(page: Page, what: string, within?: Locator) {
  // Transitions finished: axe reads colours mid-fade otherwise.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  let builder = new AxeBuilder({ page }).options({
    rules: { "label-content-name-mismatch": { enabled: true } },
  });
  if (within) {
    const id = `axe-scope-${Math.random().toString(36).slice(2)}`;
    await within.evaluate((el, v) => el.setAttribute("data-axe-scope", v), id);
    builder = builder.include(`[data-axe-scope="${id}"]`);
  }
  const { violations } = await builder.analyze();
  const found: Found[] = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.html.slice(0, 160)}`),
    }));
  expect.soft(found, `${what}: serious or critical accessibility violations`).toEqual([]);
}

export { expect };
