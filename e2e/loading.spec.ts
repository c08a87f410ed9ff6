import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Issue #17: each page loads its own code. What a page fetched is told by the names of its
// scripts (the bundler names a chunk after its main module); how fast is bench:web's business.

/** The names (without hash) of the scripts the page has requested so far. */
function scriptsOf(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on("request", (r) => {
    const m = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname);
    if (m?.[1]) seen.add(m[1]);
  });
  return seen;
}

// The chunks of the data grid, the charts, the monitor form (date pickers) and the settings pages.
const HEAVY = ["SettingsGrid", "evaluationDetails", "EvaluationDetailsPanel", "MonitorForm", "SettingsPage"];

test("the sign-in page loads none of the shell, grid, charts, date pickers or forms", async ({ page }) => {
  const scripts = scriptsOf(page);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(scripts.has("LoginPage")).toBe(true);
  for (const name of [...HEAVY, "AppShell", "HomePage", "LineOverviewPage"]) {
    expect(scripts.has(name), name).toBe(false);
  }
  // Nothing but the entry, React with its router, the API client, the language (i18next, decision
  // 0316) and the page: no MUI, no query cache (issue #17: sign-in ≤ 120 kB).
  const allowed = new Set(["index", "rolldown-runtime", "react", "client", "i18n", "LoginPage", "AuthForm"]);
  expect([...scripts].filter((name) => !allowed.has(name))).toEqual([]);
});

test("each Settings section loads its own code, and the monitors' form only when the drawer opens", async ({
  page,
}) => {
  await signIn(page, "admin");
  const scripts = scriptsOf(page);
  await page.goto("/settings?section=DATA_SOURCES");
  await expect(page.getByRole("heading", { name: "Data Sources" })).toBeVisible();
  expect(scripts.has("DataSourcesPage")).toBe(true);
  for (const name of ["UsersPage", "MonitorsAdminPage", "SettingsGrid", "MonitorForm"]) {
    expect(scripts.has(name), name).toBe(false);
  }

  await page.getByRole("navigation", { name: "Settings" }).getByRole("button", { name: "Users" }).click();
  await expect(page.getByText(/Total users: \d+/)).toBeVisible();
  expect(scripts.has("UsersPage")).toBe(true);
  expect(scripts.has("MonitorForm")).toBe(false);

  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: "Single-Variate (SVD)" })
    .click();
  await expect(page.getByRole("heading", { name: "SVD Monitors" })).toBeVisible();
  expect(scripts.has("MonitorsAdminPage")).toBe(true);
  expect(scripts.has("MonitorForm")).toBe(false);
  await page.getByRole("button", { name: "New monitor" }).click();
  await expect(page.getByRole("dialog", { name: "SVD Monitor Details" })).toBeVisible();
  expect(scripts.has("MonitorForm")).toBe(true);
});

test("hovering a link loads its page's code before the click", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/");
  const scripts = scriptsOf(page);
  const settings = page.getByRole("link", { name: "Settings" });
  await expect(settings).toBeVisible();
  const fetched = page.waitForRequest((r) => /\/assets\/SettingsPage-[\w-]{8}\.js$/.test(r.url()));
  await settings.hover();
  await fetched;
  expect(scripts.has("SettingsPage")).toBe(true);
});

test.describe("a page whose code is gone", () => {
  // The browser reports the refused script; React reports the error its boundary caught.
  test.use({ allowedConsoleErrors: [/dynamically imported module/] });

  test("offers a reload (a new version was installed while the tab was open)", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/");
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
    // As after an update: the running page asks for a chunk name the server no longer has.
    const gone = /\/assets\/SettingsPage-[\w-]{8}\.js$/;
    await page.route(gone, (route) => route.fulfill({ status: 404 }));
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByText("Linewatch has been updated. Reload the page to continue.")).toBeVisible();
    await page.unroute(gone);
    await page.getByRole("button", { name: "Reload" }).click();
    await expect(page.getByRole("navigation", { name: "Settings" })).toBeVisible();
  });
});
