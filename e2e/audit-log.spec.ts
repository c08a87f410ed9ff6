import { AUDIT_TEXTS, SPC_LIMITS_MESSAGES as L, type TSpcSignalLimits } from "@linewatch/contracts";
import type { Locator, Page } from "@playwright/test";
import { expect, openSettings, signIn, test } from "./fixtures";

// The audit trail from the web (issue 18 §2): an administrator changes an SPC limit in Settings,
// finds the change with its value before and after in the Audit log (opened from the user menu),
// and in that limit's own history.

let previousSelection: { selectedPlantId: string | null; selectedLineId: string | null } | undefined;
test.afterEach(async ({ page }) => {
  if (!previousSelection) return;
  await page.request.patch("/api/auth/me/selection", { data: previousSelection });
  previousSelection = undefined;
});

/** The Axle Assembly line's id, made the user's selected line (Settings opens on it). */
async function axleLineId(page: Page): Promise<string> {
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  const lineId = lines.find((l: { name: string }) => l.name === "Axle Assembly").id;
  const me = await (await page.request.get("/api/auth/me")).json();
  previousSelection = { selectedPlantId: me.selectedPlantId, selectedLineId: me.selectedLineId };
  const res = await page.request.patch("/api/auth/me/selection", {
    data: { selectedPlantId: detroit.id, selectedLineId: lineId },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return lineId;
}

const limitsUrl = (lineId: string) => `/api/line-config/spc-signal-limits?line-id=${lineId}`;

async function limitsOf(page: Page, lineId: string, signal: string): Promise<TSpcSignalLimits> {
  const list = (await (await page.request.get(limitsUrl(lineId))).json()) as TSpcSignalLimits[];
  const found = list.find((s) => s.signalName === signal);
  if (!found) throw new Error(`no signal ${signal}`);
  return found;
}

async function putLimits(page: Page, lineId: string, limits: TSpcSignalLimits) {
  const res = await page.request.put(limitsUrl(lineId), { data: [limits] });
  expect(res.status(), await res.text()).toBe(200);
}

/** Opens "Show all" in a row when its values are cut, so the whole before and after are read. */
async function openValues(row: Locator) {
  const showAll = row.getByRole("button", { name: "Show all" });
  if (await showAll.isVisible()) await showAll.click();
}

test("a changed SPC limit is in the audit log and in the limit's history, with before and after", async ({
  page,
}) => {
  await signIn(page, "admin");
  const lineId = await axleLineId(page);
  const original = await limitsOf(page, lineId, "Press Force");
  // A known value before the change (unique to this run, so the record found is this test's).
  const n = String(Date.now() % 1000).padStart(3, "0");
  const before = `1${n}`;
  const after = `2${n}.5`;
  // "before … → … after": the old value left of the arrow, the new one right of it.
  const beforeToAfter = new RegExp(`${before}[^→]*→[^→]*${after.replace(".", "\\.")}`);
  try {
    await putLimits(page, lineId, {
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
    await putLimits(page, lineId, original);
  }
});
