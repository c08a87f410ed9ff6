import { PLANT_OVERVIEW_TEXTS } from "@linewatch/contracts";
import { DEMO_USERS, expect, signIn, test } from "./fixtures";

test("signs in and out", async ({ page }) => {
  await page.goto("/settings");
  // No session: the sign-in page, then back where the user was going.
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(DEMO_USERS.user.email);
  await page.getByLabel("Password").fill(DEMO_USERS.user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings/);
  await expect(page.getByRole("navigation", { name: "Settings" })).toBeVisible();

  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menu")).toContainText(DEMO_USERS.user.email);
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The session is gone on the server too.
  expect((await page.request.get("/api/auth/me")).status()).toBe(401);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("wrong credentials say so without telling whether the user exists", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO_USERS.user.email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  await page.getByLabel("Email").fill("nobody@demo.local");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
});

test("home shows the plant's lines with status and last data in the plant's time zone", async ({ page }) => {
  await signIn(page, "user");
  await page.goto("/");
  const lines = page.getByRole("region", { name: PLANT_OVERVIEW_TEXTS.lines });
  await expect(lines).toBeVisible();
  expect(await lines.getByRole("region").count()).toBeGreaterThan(1);
  await expect(lines).toContainText(/Alerting|OK|No data yet/);
  await expect(lines).toContainText(`${PLANT_OVERVIEW_TEXTS.lastData}:`);
  const zone = (await page.getByTestId("plant-time-zone").textContent()) ?? "";
  await expect(page.getByText(PLANT_OVERVIEW_TEXTS.timesIn(zone), { exact: false })).toBeVisible();
});

test("the line selection is remembered for the user", async ({ page }) => {
  await signIn(page, "user");
  await page.goto("/");
  const line = page.getByRole("combobox", { name: "Line", exact: true });
  await line.click();
  const options = page.getByRole("option");
  const count = await options.count();
  const pick = options.nth(count - 1);
  const name = (await pick.textContent()) ?? "";
  await pick.click();
  await expect(line).toHaveText(name);
  // The selection is remembered on the server: reload once the server holds it (a condition, where
  // waiting for the network to be idle depended on the page's polling).
  await expect
    .poll(async () => {
      const me = await (await page.request.get("/api/auth/me")).json();
      if (!me.selectedPlantId || !me.selectedLineId) return [];
      const lines: { id: string; name: string; friendlyName: string | null }[] = await (
        await page.request.get(`/api/plants/${me.selectedPlantId}/lines`)
      ).json();
      const selected = lines.find((l) => l.id === me.selectedLineId);
      return selected ? [selected.name, selected.friendlyName] : [];
    })
    .toContain(name);
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Line", exact: true })).toHaveText(name);
});
