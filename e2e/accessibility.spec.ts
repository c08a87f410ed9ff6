import {
  APPEARANCE_TEXTS,
  CAP_ALERTS_MESSAGES,
  CAPABILITY_MESSAGES,
  PLANT_TEXTS,
} from "@linewatch/contracts";
import type { Locator, Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectSnackbar,
  FORM_LOAD_MS,
  openAlertWithMonitorPaused,
  openSettings,
  resumeMonitor,
  signIn,
  test,
} from "./fixtures";

// axe-core over every page, and the dialogs, drawers and menus on them, signed in as an
// administrator (issue 32 §3): no serious or critical violation anywhere. Soft assertions, so one
// run lists every page's violations at once. (Dialogs that need a spec's own set-up — a Teams or
// ETQ row to delete, a plant to deactivate, the feeder lines, the result classifications — are
// read by expectAccessible in those specs.)

/** Opens the capability view of a signal from Cap Limits (open), once its table is shown. */
async function openCapabilityView(page: Page, signal: string) {
  await page
    .getByRole("grid")
    .getByRole("button", { name: CAPABILITY_MESSAGES.openFor(signal) })
    .first()
    .click();
  const capability = page.getByRole("dialog", { name: CAPABILITY_MESSAGES.title(signal) });
  await expect(capability.getByRole("table", { name: CAPABILITY_MESSAGES.table })).toBeVisible();
  return capability;
}

/** MUI's dark background, the page's in dark mode. */
const DARK_BACKGROUND = "rgb(18, 18, 18)";

async function demoLineIds(page: Page) {
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  return {
    axle: lines.find((l: { name: string }) => l.name === "Axle Assembly").id as string,
  };
}

test("the sign-in and set-password pages", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectAccessible(page, "sign-in page");
  await page.getByLabel("Email").fill("nobody@demo.local");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectAccessible(page, "sign-in page with its error");

  await page.goto("/set-password?token=not-a-token");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await expectAccessible(page, "set-password page");
});

test("the home page, the line overview, an alert's drawer and the user menu", async ({ page }) => {
  // Up to 120 s for the demo's first alert on a busy machine, besides the scans.
  test.setTimeout(240_000);
  await signIn(page, "admin");
  const { axle } = await demoLineIds(page);
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Lines" })).toBeVisible();
  await expectAccessible(page, "home page");

  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menu")).toBeVisible();
  await expectAccessible(page, "user menu", page.getByRole("menu"));
  await page.keyboard.press("Escape");

  await page.getByRole("combobox", { name: "Line", exact: true }).click();
  await expect(page.getByRole("listbox")).toBeVisible();
  await expectAccessible(page, "top bar's line list", page.getByRole("listbox"));
  await page.keyboard.press("Escape");

  await page.goto(`/lines/${axle}`);
  await expect(page.getByRole("table", { name: "Monitors" })).toContainText("Wheel nut torque");
  await expectAccessible(page, "line overview");

  // An alert's details: the demo's monitors alert within a minute here.
  const alerts = page.getByRole("table", { name: "Alerts" });
  await expect(async () => {
    await page.reload();
    await expect(alerts.getByRole("button", { name: "Details" }).first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [3_000] });
  await alerts.getByRole("button", { name: "Details" }).first().click();
  await expect(page).toHaveURL(/alert=/);
  const history = page.getByRole("region", { name: "History" });
  await expect(history).toContainText("Opened");
  await expectAccessible(page, "alert details");
});

test("dark mode: followed from the system, chosen in the user menu, and readable (issue 32 §4)", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("main")).toHaveCSS("background-color", DARK_BACKGROUND);
  await expectAccessible(page, "sign-in page, dark");

  await signIn(page, "admin");
  const { axle } = await demoLineIds(page);
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Lines" })).toBeVisible();
  await expect(page.locator("body")).toHaveCSS("background-color", DARK_BACKGROUND);
  await expectAccessible(page, "home page, dark");
  await page.goto(`/lines/${axle}`);
  await expect(page.getByRole("table", { name: "Monitors" })).toContainText("Wheel nut torque");
  await expectAccessible(page, "line overview, dark");

  await openSettings(page, "Alerts");
  await expect(page.getByRole("grid").getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByRole("main").getByRole("progressbar")).toHaveCount(0);
  await expectAccessible(page, "Cap Alerts, dark");
  await openSettings(page, "Limits");
  const capability = await openCapabilityView(page, "Press Force");
  await expectAccessible(page, "capability view, dark", capability);
  await page.keyboard.press("Escape");

  // Chosen in the user menu, the appearance holds over the system's.
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitemradio", { name: APPEARANCE_TEXTS.options.light }).click();
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(255, 255, 255)");
  await page.reload();
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(255, 255, 255)");
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitemradio", { name: APPEARANCE_TEXTS.options.system }).click();
  await expect(page.locator("body")).toHaveCSS("background-color", DARK_BACKGROUND);
});

test("the monitor forms: new MVD and SVD, a monitor in VIEW, and the validation dialog", async ({ page }) => {
  await signIn(page, "admin");
  const { axle } = await demoLineIds(page);
  await page.goto(`/monitors/new?type=mvd&lineId=${axle}`);
  await expect(page.getByRole("textbox", { name: "Monitor name" })).toHaveValue(/Monitor \d+$/, {
    timeout: FORM_LOAD_MS,
  });
  await expectAccessible(page, "new MVD monitor, Data Filters tab");
  await page.getByRole("tab", { name: "Signals" }).click();
  await expect(page.getByLabel("Search signals")).toBeVisible();
  await expectAccessible(page, "new MVD monitor, Signals tab");
  await page.getByRole("tab", { name: "Alert Rules" }).click();
  await expectAccessible(page, "new MVD monitor, Alert Rules tab");
  await page.getByRole("button", { name: /^(Create|Save)$/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "monitor form's validation dialog", dialog);
  await page.keyboard.press("Escape");

  await page.goto(`/monitors/new?type=svd&lineId=${axle}`);
  await expect(page.getByRole("textbox", { name: "Monitor name" })).toHaveValue(/Monitor \d+$/, {
    timeout: FORM_LOAD_MS,
  });
  await expectAccessible(page, "new SVD monitor");

  const monitors = await (await page.request.get(`/api/lines/${axle}/monitors?type=mvd`)).json();
  await page.goto(`/monitors/${monitors[0].monitor_uuid}`);
  await expect(page.getByRole("textbox", { name: "Monitor name" })).not.toBeEditable();
  await expectAccessible(page, "a monitor in VIEW");
});

test("every Settings section, and the drawers and dialogs they open", async ({ page }) => {
  // Twelve sections and four overlays, each read by axe: minutes on a busy machine (5–6 min
  // measured at load 16–20 on 2 cores).
  test.setTimeout(600_000);
  await signIn(page, "admin");
  await page.goto("/settings");
  const menu = page.getByRole("navigation", { name: "Settings" });
  await expect(menu.getByRole("button", { name: "Users", exact: true })).toBeVisible();
  const items = await menu.getByRole("button").allTextContents();
  expect(items.length).toBeGreaterThanOrEqual(12);
  for (const label of items) {
    await menu.getByRole("button", { name: label, exact: true }).click();
    await expect(menu.getByRole("button", { name: label, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // The section's heading, and its content loaded.
    await expect(page.getByRole("main").getByRole("heading", { level: 2 }).first()).toBeVisible();
    await expect(page.getByRole("main").getByRole("progressbar")).toHaveCount(0);
    await expectAccessible(page, `Settings: ${label}`);
  }

  // The monitor details drawer.
  await menu.getByRole("button", { name: "Single-Variate (SVD)", exact: true }).click();
  const row = page.getByRole("grid").getByRole("row").nth(1);
  await row.getByRole("button", { name: /^Edit / }).click();
  const drawer = page.getByRole("dialog").filter({ hasText: "SVD Monitor Details" });
  await expect(drawer.getByRole("textbox", { name: "Monitor name" })).toBeVisible();
  await expectAccessible(page, "SVD monitor details drawer", drawer);
  await drawer.getByRole("button", { name: "Close" }).first().click();
  await expect(drawer).toBeHidden();

  // A delete confirmation.
  await row.getByRole("button", { name: /^Delete / }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("Delete this monitor?");
  await expectAccessible(page, "delete confirmation", confirm);
  await confirm.getByRole("button", { name: "Cancel" }).click();

  // Line Management's drawer.
  await menu.getByRole("button", { name: "Line Management", exact: true }).click();
  // (The demo's customer has part marriage: a row's actions are in its menu.)
  await page.getByRole("button", { name: "Line actions Brake Module" }).click();
  await expect(page.getByRole("menu")).toBeVisible();
  await expectAccessible(page, "Line Management row menu", page.getByRole("menu"));
  await page.getByRole("menuitem", { name: "Configure Line" }).click();
  const lineDrawer = page.getByRole("dialog");
  await expect(lineDrawer).toBeVisible();
  await expectAccessible(page, "Line Management drawer", lineDrawer);
  await page.keyboard.press("Escape");

  // Users: a new user's row in edit mode.
  await menu.getByRole("button", { name: "Users", exact: true }).click();
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("button", { name: "Add user" })).toBeDisabled();
  await expectAccessible(page, "Users with a new row being edited");
});

test("more of the Settings dialogs: add data source, CSV upload, add plant, Cap Alert Rules, the capability view", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, "admin");
  const { axle } = await demoLineIds(page);
  // Settings open on the top bar's line: the page's line sets it.
  await page.goto(`/lines/${axle}`);
  await expect(page.getByRole("table", { name: "Monitors" })).toContainText("Wheel nut torque");

  await openSettings(page, "Data Sources");
  await page.getByRole("button", { name: "Add data source" }).click();
  const addSource = page.getByRole("dialog", { name: /Add data source/ });
  await expect(addSource).toBeVisible();
  await expectAccessible(page, "add data source dialog", addSource);
  await page.keyboard.press("Escape");
  await expect(addSource).toBeHidden();
  await page.getByRole("button", { name: "Upload CSV" }).click();
  const upload = page.getByRole("dialog", { name: /Upload part records to/ });
  await expect(upload.getByLabel("CSV file")).toBeAttached();
  await expectAccessible(page, "CSV upload dialog", upload);
  await page.keyboard.press("Escape");
  await expect(upload).toBeHidden();

  await openSettings(page, PLANT_TEXTS.menuItem);
  await page.getByRole("button", { name: PLANT_TEXTS.add }).click();
  const addPlant = page.getByRole("dialog", { name: PLANT_TEXTS.addTitle });
  await expect(addPlant).toBeVisible();
  await expectAccessible(page, "add plant dialog", addPlant);
  await page.keyboard.press("Escape");
  await expect(addPlant).toBeHidden();

  await openSettings(page, "Alerts");
  await page
    .getByRole("grid", { name: CAP_ALERTS_MESSAGES.title })
    .getByRole("button", { name: CAP_ALERTS_MESSAGES.editRulesLabel("Press Force") })
    .click();
  const rules = page.getByRole("dialog", { name: CAP_ALERTS_MESSAGES.rulesTitle });
  await expect(rules.getByRole("switch").first()).toBeVisible();
  await expectAccessible(page, "Cap Alert Rules dialog", rules);
  await page.keyboard.press("Escape");
  await expect(rules).toBeHidden();

  await openSettings(page, "Limits");
  const capability = await openCapabilityView(page, "Press Force");
  await expectAccessible(page, "capability view", capability);
});

test("the audit log, the insight mapping, the feature flags and a page that does not exist", async ({
  page,
}) => {
  await signIn(page, "admin");
  await page.goto("/audit-log");
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await expect(
    page.getByRole("main").locator("[role=grid], table").or(page.getByText("No changes recorded")).first(),
  ).toBeVisible();
  await expectAccessible(page, "audit log");

  await page.goto("/settings/insight-mapping");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await expectAccessible(page, "insight mapping");

  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "page not found");

  await signIn(page, "support");
  await page.goto("/feature-flags");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await expectAccessible(page, "feature flags (provider staff)");
});

// ── Keyboard only: no click from here on (issue 32 §3) ──

/** Presses Tab until `target` has the focus (at most `max` presses), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)))
      return;
    await page.keyboard.press("Tab");
  }
  await expect(target, `reached by Tab within ${max} presses`).toBeFocused();
}

test("keyboard only: sign in, acknowledge an alert", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/login");
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type("user@demo.local");
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type("demo-user");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

  const { axle } = await demoLineIds(page);
  const { row, monitorId } = await openAlertWithMonitorPaused(page, axle);
  try {
    await tabTo(page, row.getByRole("button", { name: "Acknowledge" }), 200);
    await page.keyboard.press("Enter");
    await expectSnackbar(page, "Alert acknowledged");
  } finally {
    await resumeMonitor(page, monitorId);
  }
});

test("keyboard only: a new SVD monitor, and a user added in the Users grid", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin");
  const { axle } = await demoLineIds(page);
  await page.goto(`/monitors/new?type=svd&lineId=${axle}`);
  const name = page.getByRole("textbox", { name: "Monitor name" });
  await expect(name).toHaveValue(/Monitor \d+$/, { timeout: FORM_LOAD_MS });
  await tabTo(page, name);
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Keyboard-made monitor");
  // The tabs: arrow keys move between them, Enter opens one.
  await tabTo(page, page.getByRole("tab", { selected: true }));
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Signals" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("tab", { name: "Signals", selected: true })).toBeVisible();
  // The tree: search, then into the tree, down to the signal, Space to choose it.
  await tabTo(page, page.getByLabel("Search signals"));
  await page.keyboard.type("Leak Rate");
  const leak = page.getByRole("treeitem", { name: "Leak Rate", exact: true }).first();
  await expect(leak).toBeVisible();
  await tabTo(page, page.getByRole("tree").getByRole("treeitem").first());
  for (let i = 0; i < 20 && !(await leak.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("ArrowDown");
  await expect(leak).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByRole("list", { name: "Selected Items" })).toContainText("Leak Rate");
  await tabTo(page, page.getByRole("button", { name: "Create" }), 200);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Monitor created , Alert rules saved")).toBeVisible();
  // Gone again, so that the monitor specs can create one of these settings.
  const made = (await (await page.request.get(`/api/lines/${axle}/monitors?type=svd`)).json()).find(
    (m: { monitor_name: string }) => m.monitor_name === "Keyboard-made monitor",
  );
  const removed = await page.request.delete("/api/tasks", { data: { monitor_uuid: made.monitor_uuid } });
  expect(removed.ok(), await removed.text()).toBe(true);

  // Users: Add user, type the e-mail, Enter saves the row; the link's dialog closes with Done.
  await page.goto("/settings?section=USER_MANAGEMENT");
  const add = page.getByRole("button", { name: "Add user" });
  await expect(add).toBeEnabled();
  await tabTo(page, add);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("textbox", { name: "Email" })).toBeFocused();
  const email = `keyboard-${Date.now()}@demo.local`;
  await page.keyboard.type(email);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "Done" })).toBeVisible();
  await tabTo(page, dialog.getByRole("button", { name: "Done" }));
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("grid").getByRole("row").filter({ hasText: email })).toBeVisible();
});
