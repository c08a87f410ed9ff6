import { PLANT_TEXTS } from "@linewatch/contracts";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, openSettings, signIn, test } from "./fixtures";

// Settings → Data Management → Plants (issue 28 §1), in the built app: an administrator adds a
// plant, which the top bar then offers, and deactivates it, which the top bar then no longer does.
// The plant is named to sort after the demo plants, and ends deactivated, so the other specs'
// "first plant" is untouched.

const table = (page: Page) => page.getByRole("table", { name: PLANT_TEXTS.title });
const rowOf = (page: Page, name: string) => table(page).getByRole("row").filter({ hasText: name });

async function topBarPlants(page: Page): Promise<string[]> {
  await page.getByRole("combobox", { name: "Plant" }).click();
  const names = await page.getByRole("listbox").getByRole("option").allTextContents();
  await page.keyboard.press("Escape");
  return names;
}

test("an administrator adds a plant the top bar offers, and deactivates it", async ({ page }) => {
  const name = `Zz E2E Plant ${Date.now()}`;
  await signIn(page, "admin");
  await openSettings(page, PLANT_TEXTS.menuItem);
  await expect(table(page)).toBeVisible();

  await page.getByRole("button", { name: PLANT_TEXTS.add }).click();
  const dialog = page.getByRole("dialog", { name: PLANT_TEXTS.addTitle });
  await dialog.getByRole("textbox", { name: PLANT_TEXTS.name }).fill(name);
  const zone = dialog.getByRole("combobox", { name: PLANT_TEXTS.timeZone });
  await zone.fill("Asia/Tokyo");
  await page.getByRole("option", { name: "Asia/Tokyo", exact: true }).click();
  await dialog.getByRole("button", { name: PLANT_TEXTS.add }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, name)).toContainText("Asia/Tokyo");
  expect(await topBarPlants(page)).toContain(name);

  await rowOf(page, name)
    .getByRole("button", { name: `${PLANT_TEXTS.deactivate} ${name}` })
    .click();
  const confirm = page.getByRole("dialog", { name: PLANT_TEXTS.deactivateTitle(name) });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, "deactivate plant confirmation", confirm);
  await confirm.getByRole("button", { name: PLANT_TEXTS.deactivate }).click();
  await expect(confirm).toBeHidden();
  await expect(
    rowOf(page, name).getByRole("button", { name: `${PLANT_TEXTS.reactivate} ${name}` }),
  ).toBeVisible();
  expect(await topBarPlants(page)).not.toContain(name);
});
