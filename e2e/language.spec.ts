import { LANGUAGE_TEXTS, PLANT_OVERVIEW_TEXTS, SHELL_TEXTS } from "@linewatch/contracts";
import { PLANT_OVERVIEW_TEXTS_DE, SHELL_TEXTS_DE } from "@linewatch/contracts/de";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Issue 32 §4 "Language": the interface in English or German, chosen per user (kept on the server,
// decision 0317) and defaulting to the browser's (Chromium here speaks en-US).

/** The user's language as the server keeps it; null follows the browser's. */
async function saveLanguage(page: Page, language: "en" | "de" | null) {
  const res = await page.request.put("/api/auth/me/language", { data: { language } });
  expect(res.status(), await res.text()).toBe(204);
}

async function chooseLanguage(page: Page, menuName: string, option: string) {
  await page.getByRole("button", { name: menuName }).click();
  await page.getByRole("menuitemradio", { name: option }).click();
}

test.afterEach(async ({ page }) => {
  // The demo user's language back to the browser's, whatever the test reached: other specs read English.
  await saveLanguage(page, null);
});

test("switches to German in the user menu, keeps it for the user across reloads and browsers, and back", async ({
  page,
  browser,
}) => {
  await signIn(page, "user");
  await saveLanguage(page, null);
  await page.goto("/");
  await expect(page.getByRole("button", { name: SHELL_TEXTS.userMenu })).toBeVisible();
  await expect(page.getByRole("heading", { name: PLANT_OVERVIEW_TEXTS.newestAlerts })).toBeVisible();

  await chooseLanguage(page, SHELL_TEXTS.userMenu, LANGUAGE_TEXTS.options.de);
  // The home page in German: the top bar and the page's own words.
  await expect(page.getByRole("button", { name: SHELL_TEXTS_DE.userMenu })).toBeVisible();
  await expect(page.getByRole("heading", { name: PLANT_OVERVIEW_TEXTS_DE.newestAlerts })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");

  await page.reload();
  await expect(page.getByRole("button", { name: SHELL_TEXTS_DE.userMenu })).toBeVisible();
  await expect(page.getByRole("heading", { name: PLANT_OVERVIEW_TEXTS_DE.newestAlerts })).toBeVisible();

  // Kept with the user, not this browser: another browser (nothing stored) opens in German too.
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage, "user");
    await otherPage.goto("/");
    await expect(otherPage.getByRole("button", { name: SHELL_TEXTS_DE.userMenu })).toBeVisible();
  } finally {
    await other.close();
  }

  await chooseLanguage(page, SHELL_TEXTS_DE.userMenu, LANGUAGE_TEXTS.options.en);
  await expect(page.getByRole("button", { name: SHELL_TEXTS.userMenu })).toBeVisible();
  await expect(page.getByRole("heading", { name: PLANT_OVERVIEW_TEXTS.newestAlerts })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: SHELL_TEXTS.userMenu })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});
