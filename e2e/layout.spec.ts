import type { Page } from "@playwright/test";
import { expect, FORM_LOAD_MS, signIn, test } from "./fixtures";

// Every page without sideways scrolling at 1440 × 900, 1280 × 720 and a 768 × 1024 tablet, and every
// row action of the Settings grids in the viewport at every size: below 900 px the grids stack their rows (issue 32 §1).

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 768, height: 1024 },
] as const;

/**
 * What lies outside the viewport: the document's sideways overflow, and the actions (buttons,
 * links, switches) right or left of it. A grid's settings cells (Cap Alerts' exclusion checkboxes
 * at 1280) may still lie beyond its frame, in the grid's own sideways scroll.
 */
async function outside(page: Page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const controls = Array.from(
      document.querySelectorAll<HTMLElement>(
        "main button, main a, main [role=switch], header button, header a",
      ),
    );
    const offScreen = controls
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1);
      })
      .map((el) => el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName)
      .slice(0, 6);
    return { sideways: doc.scrollWidth - doc.clientWidth, offScreen };
  });
}

async function expectFits(page: Page, what: string) {
  const o = await outside(page);
  expect.soft(o.sideways, `${what}: the page scrolls sideways by ${o.sideways} px`).toBe(0);
  expect.soft(o.offScreen, `${what}: controls outside the viewport`).toEqual([]);
}

for (const size of SIZES) {
  test(`every page fits ${size.width} × ${size.height}`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, "admin");
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Lines" })).toBeVisible();
    // The top bar keeps its menus at every size.
    await expect(page.getByRole("link", { name: "Settings" })).toBeInViewport();
    await expect(page.getByRole("button", { name: "User menu" })).toBeInViewport();
    await expectFits(page, "home");

    const plants = await (await page.request.get("/api/plants")).json();
    const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
    const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
    const axle = lines.find((l: { name: string }) => l.name === "Axle Assembly").id;
    await page.goto(`/lines/${axle}`);
    await expect(page.getByRole("table", { name: "Monitors" })).toContainText("Wheel nut torque");
    await expectFits(page, "line overview");
    await page.goto(`/monitors/new?type=mvd&lineId=${axle}`);
    await expect(page.getByRole("textbox", { name: "Monitor name" })).toHaveValue(/Monitor \d+$/, {
      timeout: FORM_LOAD_MS,
    });
    await expectFits(page, "new MVD monitor");
    await page.goto("/audit-log");
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    await expectFits(page, "audit log");

    // Settings: below 900 px the side menu is a drawer opened from the button that names the section.
    await page.goto("/settings");
    const menu = page.getByRole("navigation", { name: "Settings" });
    const narrow = size.width < 900;
    const openMenu = async () => {
      if (!narrow) return;
      await page.getByRole("main").getByRole("button", { expanded: false }).first().click();
      await expect(menu).toBeVisible();
    };
    await openMenu();
    await expect(menu.getByRole("button", { name: "Users", exact: true })).toBeVisible();
    const labels = await menu.getByRole("button").allTextContents();
    if (narrow) {
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
    }
    for (const label of labels) {
      await openMenu();
      await menu.getByRole("button", { name: label, exact: true }).click();
      if (narrow) await expect(menu).toBeHidden();
      else
        await expect(menu.getByRole("button", { name: label, exact: true })).toHaveAttribute(
          "aria-current",
          "page",
        );
      await expect(page.getByRole("main").getByRole("heading", { level: 2 }).first()).toBeVisible();
      await expect(page.getByRole("main").getByRole("progressbar")).toHaveCount(0);
      await expectFits(page, `Settings: ${label}`);
    }
  });
}
