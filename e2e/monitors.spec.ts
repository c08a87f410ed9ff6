import { MONITOR_FORM_TEXTS } from "@linewatch/contracts";
import type { Page } from "@playwright/test";
import { expect, openSettings, signIn, test } from "./fixtures";

// The MVD and SVD monitor forms and the monitor administration pages, on the demo plant
// (requirements.md monitor-forms §2–§5, §8; requirements.md settings §2.7, §8).

async function axleLineId(page: Page): Promise<string> {
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  return lines.find((l: { name: string }) => l.name === "Axle Assembly").id;
}

/** Picks a signal or group in the Signals tab through its search box. */
async function pick(page: Page, name: string) {
  const search = page.getByLabel("Search signals");
  await search.fill(name);
  await page.getByRole("treeitem", { name, exact: true }).first().click();
  await search.fill("");
}

async function openNewMonitor(page: Page, type: "MVD" | "SVD", lineId: string) {
  await page.goto(`/lines/${lineId}`);
  await page.getByRole("link", { name: `New ${type} monitor` }).click();
  await expect(page.getByRole("tab", { name: "Data Filters", selected: true })).toBeVisible();
  // The default name uses the line's friendly name, as everything else on screen does.
  await expect(page.getByRole("textbox", { name: "Monitor name" })).toHaveValue(
    new RegExp(`^Rear Axle ${type} Monitor \\d+$`),
  );
}

const nameField = (page: Page) => page.getByRole("textbox", { name: "Monitor name" });

/** The press-and-leak settings both MVD tests use: two signals and a group. */
async function pickPressAndLeak(page: Page) {
  await page.getByRole("tab", { name: "Signals" }).click();
  for (const name of ["Press Depth", "Leak Rate", "Tightening"]) await pick(page, name);
}

/** 120 records of passing parts. */
async function filterPassingParts(page: Page) {
  const records = page.getByRole("textbox", { name: "Start records" });
  await records.fill("120");
  await records.blur();
  const result = page.getByRole("combobox", { name: "Result" });
  await result.click();
  await page.getByRole("option", { name: "Pass" }).click();
  await page.keyboard.press("Escape");
  // The menu closes with a transition: a click meant for the form must not go to its backdrop.
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await expect(result).toHaveAttribute("aria-expanded", "false");
}

test.describe.configure({ mode: "serial" });

test("an MVD monitor with two signals, a group, filters and two rules is created and evaluated", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "user");
  const lineId = await axleLineId(page);
  await openNewMonitor(page, "MVD", lineId);
  await nameField(page).fill("Press and leak watch");

  await pickPressAndLeak(page);
  const selected = page.getByRole("list", { name: "Selected Items" });
  await expect(selected).toContainText("Press Depth");
  await expect(selected).toContainText("Leak Rate");
  await expect(selected).toContainText("Tightening");

  await page.getByRole("tab", { name: "Data Filters" }).click();
  await expect(page.getByText("MVD monitor compatible")).toBeVisible();
  // A time-based start explores the past but cannot be saved as a monitor's rolling window.
  await page.getByRole("combobox", { name: "Start", exact: true }).click();
  await page.getByRole("option", { name: "Time" }).click();
  await expect(page.getByText("MVD monitor incompatible")).toBeVisible();
  await page.getByRole("combobox", { name: "Start", exact: true }).click();
  await page.getByRole("option", { name: "Records" }).click();
  await expect(page.getByText("MVD monitor compatible")).toBeVisible();
  await filterPassingParts(page);
  // 120 records lift the split's lower bound to 25 / 120: the split follows, and the preview
  // beside the filters reads the live records: 95 training and 25 evaluation parts.
  await expect(page.getByText("Min 20.83%")).toBeVisible();
  const preview = page.getByRole("region", { name: "Query preview" });
  await expect(preview.getByRole("definition").filter({ hasText: /^25$/ })).toBeVisible({ timeout: 30_000 });
  await expect(preview.getByRole("definition").filter({ hasText: /^95$/ })).toBeVisible();
  await expect(preview).toContainText(/p-value .* vs α 0\.01/);

  await page.getByRole("tab", { name: "Alert Rules" }).click();
  await expect(page.getByText("No rules set: all breaches will trigger an alert")).toBeVisible();
  await page.getByRole("switch", { name: "Consecutive" }).click();
  await page.getByRole("switch", { name: "Exceedance Runs" }).click();
  await expect(page.getByText("No rules set: all breaches will trigger an alert")).toBeHidden();

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Monitor created , Alert rules saved")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/lines/${lineId}$`));

  // The worker evaluates it (a worker minute is 1 s here): its row gets a state.
  const row = page
    .getByRole("table", { name: "Monitors" })
    .getByRole("row")
    .filter({ hasText: "Press and leak watch" });
  await expect(row).toBeVisible();
  // Asked of the API until the worker has evaluated it (the page refreshes its table once a minute),
  // then the page reloaded once: reloading the page every 2 s cost seconds a try.
  type Listed = { monitor_name: string; monitor_uuid: string; last_evaluated_at?: string | null };
  const listed = async () =>
    ((await (await page.request.get(`/api/lines/${lineId}/monitors?type=mvd`)).json()) as Listed[]).find(
      (m) => m.monitor_name === "Press and leak watch",
    );
  await expect
    .poll(async () => (await listed())?.last_evaluated_at ?? null, { timeout: 60_000 })
    .not.toBeNull();
  await expect(async () => {
    await page.reload();
    await expect(row).not.toContainText("Not evaluated yet", { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });

  // Its rules were stored with it.
  const monitors = await (await page.request.get(`/api/lines/${lineId}/monitors?type=mvd`)).json();
  const created = monitors.find((m: { monitor_name: string }) => m.monitor_name === "Press and leak watch");
  expect(created.monitor_filter.sample_size).toBe(120);
  expect(created.monitor_filter.pass_fail_filter).toEqual(["pass"]);
  expect(created.monitor_filter.evaluation_ratio).toBe(0.2083);
  const rules = await (
    await page.request.get(`/api/notifications/monitor-rules/${created.monitor_uuid}`)
  ).json();
  expect(rules.filter((r: { active: boolean }) => r.active).map((r: { type: string }) => r.type)).toEqual([
    "Consecutive",
    "ExceedanceRuns",
  ]);
});

test("creating the same settings again offers the existing monitor and opens it in EDIT", async ({
  page,
}) => {
  await signIn(page, "user");
  const lineId = await axleLineId(page);
  await openNewMonitor(page, "MVD", lineId);
  await nameField(page).fill("Press and leak again");
  await pickPressAndLeak(page);
  await page.getByRole("tab", { name: "Data Filters" }).click();
  await filterPassingParts(page);
  await page.getByRole("button", { name: "Save" }).click();

  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Duplicate Monitor Found");
  await expect(dialog).toContainText(
    "You already have a monitor Press and leak watch configured with these settings.",
  );
  await dialog.getByRole("button", { name: "Edit existing monitor" }).click();
  await expect(nameField(page)).toHaveValue("Press and leak watch");
  await expect(page.getByText("Max length: 1000 characters")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Deploy on create" })).toHaveCount(0);
});

test("an edit whose rules fail to save keeps the form open and lists each result", async ({ page }) => {
  await signIn(page, "user");
  const lineId = await axleLineId(page);
  const monitors = await (await page.request.get(`/api/lines/${lineId}/monitors?type=mvd`)).json();
  const m = monitors.find((x: { monitor_name: string }) => x.monitor_name === "Press and leak watch");
  await page.route("**/api/notifications/monitor-rules/*", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: '{"message":"Rules store down"}',
        })
      : route.fallback(),
  );
  await page.goto(`/monitors/${m.monitor_uuid}?mode=edit`);
  await expect(nameField(page)).toHaveValue("Press and leak watch");
  await page.getByRole("textbox", { name: "Notes" }).fill("Checked after the press rebuild");
  await page.getByRole("button", { name: "Save" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Error saving monitor and alert rules");
  await expect(dialog).toContainText("Monitor saved");
  await expect(dialog).toContainText("Error saving alert rules");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(nameField(page)).toBeVisible();
  const after = await (
    await page.request.post("/api/tasks/get-by-id", { data: { taskId: m.monitor_uuid } })
  ).json();
  expect(after.notes).toBe("Checked after the press rebuild");
});

test("an SVD monitor watches one signal; VIEW opens read-only, shows every tab, and Edit unlocks it", async ({
  page,
}) => {
  await signIn(page, "user");
  const lineId = await axleLineId(page);
  await openNewMonitor(page, "SVD", lineId);
  await nameField(page).fill("Press depth drift");
  await page.getByRole("tab", { name: "Signals" }).click();
  await pick(page, "Press Depth");
  await pick(page, "Leak Rate");
  // SVD keeps exactly one signal: the second pick replaced the first.
  const selected = page.getByRole("list", { name: "Selected Items" });
  await expect(selected).toContainText("Leak Rate");
  await expect(selected).not.toContainText("Press Depth");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Monitor created , Alert rules saved")).toBeVisible();

  await page
    .getByRole("table", { name: "Monitors" })
    .getByRole("link", { name: "Press depth drift" })
    .click();
  await expect(nameField(page)).toHaveValue("Press depth drift");
  await expect(nameField(page)).not.toBeEditable();
  // VIEW shows what the monitor watches: its signal is listed, and cannot be removed.
  await page.getByRole("tab", { name: "Signals" }).click();
  await expect(page.getByRole("list", { name: "Selected Items" })).toContainText("Leak Rate");
  await expect(page.getByRole("list", { name: "Selected Items" }).getByRole("button")).toHaveCount(0);
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(nameField(page)).toBeEditable();
  await expect(page.getByRole("tab", { name: "Signals" })).toBeEnabled();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/lines/${lineId}$`));
});

test("unsaved edits: another line picked in the top bar asks first; Keep editing keeps them, Discard leaves", async ({
  page,
}) => {
  await signIn(page, "user");
  const lineId = await axleLineId(page);
  await page.goto(`/lines/${lineId}`);
  await page
    .getByRole("table", { name: "Monitors" })
    .getByRole("link", { name: "Press depth drift" })
    .click();
  await page.getByRole("button", { name: "Edit" }).click();
  await nameField(page).fill("Press depth drift, edited");
  const topLine = page.getByRole("combobox", { name: "Line", exact: true });
  const shown = (await topLine.textContent()) ?? "";
  const pickBrake = async () => {
    await topLine.click();
    await page.getByRole("option", { name: "Brake Module" }).click();
  };
  const discard = page.getByRole("dialog", { name: MONITOR_FORM_TEXTS.discardTitle });

  await pickBrake();
  await discard.getByRole("button", { name: MONITOR_FORM_TEXTS.keepEditing }).click();
  await expect(discard).toBeHidden();
  await expect(page).toHaveURL(/\/monitors\//);
  await expect(nameField(page)).toHaveValue("Press depth drift, edited");
  await expect(topLine).toHaveText(shown);

  await pickBrake();
  await discard.getByRole("button", { name: MONITOR_FORM_TEXTS.discard }).click();
  await expect(page).toHaveURL(new RegExp(`/lines/(?!${lineId})[0-9a-f-]+$`));
  await expect(topLine).toHaveText("Brake Module");
});

test("the SVD monitors page toggles, edits in the drawer and deletes a monitor", async ({ page }) => {
  await signIn(page, "admin");
  // The page starts on the top bar's line, which other tests may have moved (it is remembered per
  // user): open the monitor's line first, which the top bar follows.
  await page.goto(`/lines/${await axleLineId(page)}`);
  await expect(page.getByRole("combobox", { name: "Line" }).first()).toHaveText("Rear Axle"); // its friendly name
  await openSettings(page, "Single-Variate (SVD)");
  await expect(page.getByRole("main").getByRole("combobox", { name: "Line" })).toHaveText("Rear Axle"); // its friendly name
  const grid = page.getByRole("grid");
  const row = grid.getByRole("row").filter({ hasText: "Press depth drift" });
  await expect(row).toBeVisible();

  await row.getByRole("switch", { name: "Active: Press depth drift" }).click();
  await expect(page.getByText("Monitor was successfully saved")).toBeVisible();

  await row.getByRole("button", { name: "Edit Press depth drift" }).click();
  const drawer = page.getByRole("presentation").filter({ hasText: "SVD Monitor Details" });
  await expect(drawer.getByRole("textbox", { name: "Monitor name" })).toHaveValue("Press depth drift");
  await drawer.getByRole("textbox", { name: "Notes" }).fill("Owned by the leak test team");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Monitor saved , Alert rules saved")).toBeVisible();
  await expect(drawer).toBeHidden();

  await row.getByRole("button", { name: "Delete Press depth drift" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("Delete this monitor?");
  await expect(confirm).toContainText("You are about to permanently delete the monitor :");
  await expect(confirm).toContainText("This is irreversible.");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(grid.getByRole("row").filter({ hasText: "Press depth drift" })).toHaveCount(0);
});
