// The home page is the plant at a glance (issue 18 §3), on the demo plant with its live simulator:
// every line with its records sparkline and its monitors' marks, readable at 1280 × 720 without
// scrolling sideways; a mark reached with the keyboard says its monitor and state; the newest
// alerts link to each alert, which opens in its line's overview.
import { PLANT_OVERVIEW_TEXTS as T, type TPlantOverview } from "@linewatch/contracts";
import { expect, signIn, test } from "./fixtures";

test("home shows the demo plant's lines with their sparklines and monitor marks, and opens an alert", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "user");
  await page.goto("/");
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  await page.getByRole("combobox", { name: "Plant" }).click();
  await page.getByRole("option", { name: "Detroit Assembly" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Detroit Assembly" })).toBeVisible();

  const overview = (await (
    await page.request.get(`/api/plants/${detroit.id}/overview`)
  ).json()) as TPlantOverview;
  const lines = page.getByRole("region", { name: T.lines });
  for (const line of overview.lines) {
    const card = lines.getByRole("region", { name: line.friendlyName || line.name, exact: true });
    await expect(card).toBeVisible();
    await expect(card.getByRole("img", { name: /records in the last 24 hours/ })).toBeVisible();
    if (line.monitors.length > 0)
      await expect(
        card.getByRole("list", { name: T.monitorsLabel(line.friendlyName || line.name) }).getByRole("link"),
      ).toHaveCount(line.monitors.length);
  }
  // A line fed by the simulator has records in its sparkline's label.
  const fed = overview.lines.find((l) => l.recordsPerHour.some((n) => n > 0));
  expect(fed, "a demo line with records in the last 24 hours").toBeTruthy();
  const total = fed?.recordsPerHour.reduce((a, b) => a + b, 0) ?? 0;
  const fedCard = lines.getByRole("region", { name: fed?.friendlyName || fed?.name, exact: true });
  await expect(fedCard.getByRole("img", { name: /records in the last 24 hours/ })).toHaveAccessibleName(
    /^[\d,]+ records/,
  );
  expect(total).toBeGreaterThan(0);

  // Readable at 1280 × 720: nothing wider than the window.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);

  // The keyboard reaches a monitor's mark, which says its monitor and state.
  const withMonitors = overview.lines.find((l) => l.monitors.length > 0);
  if (withMonitors) {
    const name = withMonitors.friendlyName || withMonitors.name;
    const card = lines.getByRole("region", { name, exact: true });
    await card.getByRole("link", { name, exact: true }).focus();
    const first = card
      .getByRole("list", { name: T.monitorsLabel(name) })
      .getByRole("link")
      .first();
    for (let i = 0; i < 4; i++) {
      if (await first.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expect(first).toBeFocused();
    const label = (await first.getAttribute("aria-label")) ?? "";
    await expect(page.getByRole("tooltip")).toHaveText(label);
  }

  // The demo monitors evaluate every few seconds here; the first alert comes from the live data,
  // and the page's polling brings it to the newest alerts.
  const newest = page.getByRole("region", { name: T.newestAlerts });
  await expect(newest.getByRole("link").first()).toBeVisible({ timeout: 120_000 });
  const link = newest.getByRole("link").first();
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/lines\/[\w-]+\?alert=[\w-]+$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href.replace("?", "\\?")}$`));
  await expect(page.getByRole("region", { name: "History" })).toContainText("Opened");
});
