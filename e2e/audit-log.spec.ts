import { AUDIT_TEXTS, SPC_LIMITS_MESSAGES as L } from "@linewatch/contracts";
import type { Locator } from "@playwright/test";
import {
  expect,
  openSettings,
  putSpcLimits,
  restoreSelection,
  selectAxleLine,
  signIn,
  spcLimitsOf,
  test,
} from "./fixtures";

// The audit trail from the web (issue 18 §2): an administrator changes an SPC limit in Settings,
// finds the change with its value before and after in the Audit log (opened from the user menu),
// and in that limit's own history.

test.afterEach(({ page }) => restoreSelection(page));

/** Opens "Show all" in a row when its values are cut, so the whole before and after are read. */
async function openValues(row: Locator) {
  const showAll = row.getByRole("button", { name: "Show all" });
  if (await showAll.isVisible()) await showAll.click();
}

test("a changed SPC limit is in the audit log and in the limit's history, with before and after", async ({
  page,
}) => {
  await signIn(page, "admin");
  const lineId = await selectAxleLine(page);
  const original = await spcLimitsOf(page, lineId, "Press Force");
  // A known value before the change (unique to this run, so the record found is this test's).
  const n = String(Date.now() % 1000).padStart(3, "0");
  const before = `1${n}`;
  const after = `2${n}.5`;
  // "before … → … after": the old value left of the arrow, the new one right of it.
  const beforeToAfter = new RegExp(`${before}[^→]*→[^→]*${after.replace(".", "\\.")}`);
  try {
    await putSpcLimits(page, lineId, {
      ...original,
      limits: [
        { model_number: "*", lslFormula: null, lclFormula: null, uclFormula: before, uslFormula: null },
      ],
    });

    // Change the limit in Settings → Limits.
    await openSettings(page, "Limits");
    const grid = page.getByRole("grid", { name: L.title });
    const row = grid.getByRole("row").filter({ hasText: "Press Force" }).first();
    await row.getByRole("button", { name: "See models" }).click();
    const ucl = grid.getByRole("textbox", { name: "UCL *" }).first();
    await expect(ucl).toHaveValue(before);
    await ucl.fill(after);
    await page.getByRole("button", { name: L.saveChanges }).click();
    await expect(page.getByText(L.saved)).toBeVisible();

    // The audit log, from the user menu, filtered to SPC limits: the newest record is the change.
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: AUDIT_TEXTS.menuItem }).click();
    await expect(page).toHaveURL(/\/audit-log/);
    await expect(page.getByRole("heading", { name: AUDIT_TEXTS.title })).toBeVisible();
    await page.getByRole("combobox", { name: "Resource" }).click();
    await page.getByRole("option", { name: AUDIT_TEXTS.resourceLabels.spc_limit }).click();
    await expect(page).toHaveURL(/resource=spc_limit/);
    const log = page.getByRole("table", { name: AUDIT_TEXTS.title });
    // Newest first: the first record of Press Force is this change.
    const record = log.getByRole("row").filter({ hasText: "Press Force" }).first();
    await expect(record).toBeVisible();
    await expect(record).toContainText("admin@demo.local");
    await expect(record).toContainText(AUDIT_TEXTS.actionLabels.update);
    await openValues(record);
    await expect(record).toContainText(beforeToAfter);

    // The same change in the limit's own history, from the Limits page.
    await openSettings(page, "Limits");
    await page
      .getByRole("button", { name: `${AUDIT_TEXTS.history}: ${AUDIT_TEXTS.resourceLabels.spc_limit}` })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("combobox", { name: "Signal" }).click();
    await page.getByRole("option", { name: / \/ Press Force$/ }).click();
    const entry = dialog.getByRole("row").nth(1); // the newest, under the header
    await expect(entry).toBeVisible();
    await openValues(entry);
    await expect(entry).toContainText(beforeToAfter);
    await expect(entry).toContainText("admin@demo.local");
  } finally {
    await putSpcLimits(page, lineId, original);
  }
});
