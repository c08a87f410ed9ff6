import { FEATURE_FLAG_MESSAGES, PLANT_OVERVIEW_TEXTS } from "@linewatch/contracts";
import { expect, openSettings, setFlag, signIn, test } from "./fixtures";

const menu = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Settings" });

test("administrators see every group, Data Sources and Users", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  await expect(menu(page).getByRole("heading", { name: "Settings" })).toBeVisible();
  for (const group of [
    "Anomaly Monitors",
    "Capability Metrics",
    "Data Management",
    "Integrations",
    "Users",
  ]) {
    await expect(menu(page).getByText(group, { exact: true }).first()).toBeVisible();
  }
  const items = await menu(page).getByRole("button").allTextContents();
  expect(items).toEqual([
    "Single-Variate (SVD)",
    "Multi-Variate (MVD)",
    "Alerts",
    "Limits",
    "Data Sources",
    "Signal Management",
    "Line Management",
    // After the spec's items of Data Management (issue 28 §1, issue 31 §2), administrators only.
    "Plants",
    "Data retention",
    "Microsoft Teams",
    "ETQ Reliance",
    "Users",
  ]);
});

test("users see neither Data Sources nor Users, and cannot reach them by URL", async ({ page }) => {
  await signIn(page, "user");
  await page.goto("/settings");
  const items = await menu(page).getByRole("button").allTextContents();
  expect(items).not.toContain("Data Sources");
  expect(items).not.toContain("Users");
  expect(items).not.toContain("Plants");
  expect(items).not.toContain("Data retention");
  expect((await page.request.get("/api/retention")).status()).toBe(403);
  await page.goto("/settings?section=USER_MANAGEMENT");
  await expect(page).toHaveURL(/section=SPC_ALERT/);
  expect((await page.request.get("/api/customer-users-for-user")).status()).toBe(403);
});

test("the default section is SPC Alert, the selection is in the URL and remembered", async ({ page }) => {
  // A new browser context: nothing remembered in localStorage yet.
  await signIn(page, "user");
  await page.goto("/settings");
  await expect(page).toHaveURL(/section=SPC_ALERT/);
  await expect(menu(page).getByRole("button", { name: "Alerts" })).toHaveAttribute("aria-current", "page");
  await menu(page).getByRole("button", { name: "Line Management" }).click();
  await expect(page).toHaveURL(/section=LINE_MANAGEMENT/);
  await expect(page.getByRole("heading", { name: "Line Management", level: 2 })).toBeVisible();
  await page.goto("/");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/section=LINE_MANAGEMENT/);
});

test("the MVD and ETQ items follow their flags; ETQ without its flag sends the user home", async ({
  page,
}) => {
  await signIn(page, "admin");
  try {
    await setFlag(page, "mvdMonitorCreation", false);
    await setFlag(page, "etqIntegration", false);
    await page.goto("/settings");
    const items = await menu(page).getByRole("button").allTextContents();
    expect(items).not.toContain("Multi-Variate (MVD)");
    expect(items).not.toContain("ETQ Reliance");
    await page.goto("/settings?section=ETQ_RELIANCE");
    await expect(page).toHaveURL(/\/$/);
  } finally {
    await setFlag(page, "mvdMonitorCreation", true);
    await setFlag(page, "etqIntegration", true);
  }
  await page.goto("/settings");
  await expect(menu(page).getByRole("button", { name: "Multi-Variate (MVD)" })).toBeVisible();
  await expect(menu(page).getByRole("button", { name: "ETQ Reliance" })).toBeVisible();
});

test("provider staff switch a customer's flags on the Feature flags page from the user menu", async ({
  page,
}) => {
  await signIn(page, "support");
  await page.goto("/");
  await page.getByRole("button", { name: "User menu" }).click();
  const select = page.getByRole("menu").getByLabel("Customer");
  await expect(select.locator("option", { hasText: "Demo" }).first()).toBeAttached();
  const demo = await select.locator("option", { hasText: "Demo" }).first().getAttribute("value");
  await select.selectOption(demo ?? "");
  await expect(page.getByText(/Now acting for/)).toBeVisible();
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Feature flags" }).click();
  await expect(page.getByRole("heading", { name: "Feature flags" })).toBeVisible();
  await expect(page.getByText(FEATURE_FLAG_MESSAGES.readOnly)).toHaveCount(0);
  const mvd = page.getByLabel("MVD monitor creation");
  await expect(mvd).toBeChecked();
  await expect(mvd).toBeEnabled();
  await mvd.click();
  await expect(mvd).not.toBeChecked();
  try {
    await openSettings(page, "Alerts");
    expect(await menu(page).getByRole("button").allTextContents()).not.toContain("Multi-Variate (MVD)");
  } finally {
    await page.goto("/feature-flags");
    await page.getByLabel("MVD monitor creation").click();
    await expect(page.getByLabel("MVD monitor creation")).toBeChecked();
  }
});

test("administrators see the Feature flags page read-only, and the API refuses their changes", async ({
  page,
}) => {
  await signIn(page, "admin");
  await page.goto("/");
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Feature flags" }).click();
  await expect(page.getByRole("heading", { name: "Feature flags" })).toBeVisible();
  await expect(page.getByText(FEATURE_FLAG_MESSAGES.readOnly)).toBeVisible();
  const mvd = page.getByLabel("MVD monitor creation");
  await expect(mvd).toBeChecked();
  await expect(mvd).toBeDisabled();
  const put = await page.request.put("/api/feature-flags/mvdMonitorCreation", { data: { enabled: false } });
  expect(put.status()).toBe(403);
});

test("users have no Feature flags item", async ({ page }) => {
  await signIn(page, "user");
  await page.goto("/");
  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Feature flags" })).toHaveCount(0);
});

test("provider staff act for another customer through the user menu", async ({ page }) => {
  await signIn(page, "support");
  await page.goto("/");
  await page.getByRole("button", { name: "User menu" }).click();
  const select = page.getByRole("menu").getByLabel("Customer");
  await expect(select.locator("option", { hasText: "Demo" }).first()).toBeAttached();
  const demo = await select.locator("option", { hasText: "Demo" }).first().getAttribute("value");
  await select.selectOption(demo ?? "");
  await expect(page.getByText(/Now acting for/)).toBeVisible();
  await expect(page.getByRole("region", { name: PLANT_OVERVIEW_TEXTS.lines })).toBeVisible();
});
