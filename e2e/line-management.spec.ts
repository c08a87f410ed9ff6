// Settings → Line Management (requirements.md settings §2.9) on the demo plant: deactivating and reactivating
// a line stops and resumes its monitors, feeder lines refuse a cycle, the two values edited in
// place, the export read back, a no-data alert raised for a line whose records stopped, and the
// part-marriage layout. Every change is undone at the end, as other specs use the demo lines.
import { readFileSync } from "node:fs";
import {
  LINE_MESSAGES,
  LINE_MANAGEMENT_MESSAGES as M,
  PLANT_OVERVIEW_TEXTS,
  LINE_MANAGEMENT_TEXTS as T,
} from "@linewatch/contracts";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, openSettings, setFlag, signIn, test } from "./fixtures";

type Line = { id: string; name: string; friendlyName: string | null; active: boolean };

/** Axle Assembly is shown by its friendly name in the demo. */
const AXLE = "Rear Axle";

async function detroit(page: Page) {
  const plants: { id: string; name: string }[] = await (await page.request.get("/api/plants")).json();
  const plant = plants.find((p) => p.name === "Detroit Assembly");
  if (!plant) throw new Error("no Detroit plant");
  // The page shows the plant picked in the top bar.
  await page.request.patch("/api/auth/me/selection", { data: { selectedPlantId: plant.id } });
  const lines: Line[] = await (await page.request.get(`/api/plants/${plant.id}/lines`)).json();
  const byName = (n: string) => {
    const l = lines.find((x) => x.name === n);
    if (!l) throw new Error(`no line ${n}`);
    return l;
  };
  const active = lines.filter((l) => l.active).length;
  return {
    plant,
    axle: byName("Axle Assembly"),
    brake: byName("Brake Module"),
    active,
    inactive: lines.length - active,
  };
}

/** The newest evaluation time of the line's monitors (ms), or 0. */
async function lastEvaluated(request: APIRequestContext, lineId: string): Promise<number> {
  const monitors: { last_evaluated_at?: string | null }[] = await (
    await request.get(`/api/lines/${lineId}/monitors`)
  ).json();
  return Math.max(0, ...monitors.map((m) => (m.last_evaluated_at ? Date.parse(m.last_evaluated_at) : 0)));
}

const layoutWithoutPartMarriage = async (page: Page) => {
  await setFlag(page, "partMarriage", false);
  await setFlag(page, "lineFriendlyName", true);
  await setFlag(page, "feederLineAssignment", true);
};

test("deactivating a line stops its monitors and hides it; reactivating resumes them", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const { axle, brake, active, inactive } = await detroit(page);
  try {
    await layoutWithoutPartMarriage(page);
    await openSettings(page, "Line Management");
    await expect(page.getByRole("button", { name: `Active: ${active}` })).toBeVisible();
    // Axle's monitors are evaluating before anything changes.
    await expect.poll(() => lastEvaluated(page.request, axle.id), { timeout: 60_000 }).toBeGreaterThan(0);

    await page.getByRole("switch", { name: `Line Active ${AXLE}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(`You are about to deactivate line "${AXLE}."`);
    await expect(dialog).toContainText(T.deactivateDetail);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("button", { name: `Inactive: ${inactive + 1}` })).toBeVisible();

    // Stopped: while the worker keeps evaluating (the demo's other plant's line), Axle's monitors
    // evaluate no more.
    const stoppedAt = await lastEvaluated(page.request, axle.id);
    const plants: { id: string; name: string }[] = await (await page.request.get("/api/plants")).json();
    const stuttgart = plants.find((p) => p.name !== "Detroit Assembly");
    const valve: Line = (await (await page.request.get(`/api/plants/${stuttgart?.id}/lines`)).json())[0];
    const before = await lastEvaluated(page.request, valve.id);
    await expect
      .poll(() => lastEvaluated(page.request, valve.id), { timeout: 60_000 })
      .toBeGreaterThan(before);
    const later = await lastEvaluated(page.request, valve.id);
    await expect
      .poll(() => lastEvaluated(page.request, valve.id), { timeout: 60_000 })
      .toBeGreaterThan(later);
    expect(await lastEvaluated(page.request, axle.id)).toBe(stoppedAt);

    // Its overview says so; the top bar no longer offers it.
    await page.goto(`/lines/${axle.id}`);
    await expect(page.getByText(LINE_MESSAGES.inactiveOverview)).toBeVisible();
    await page.goto("/");
    const homeLines = page.getByRole("region", { name: PLANT_OVERVIEW_TEXTS.lines });
    await expect(homeLines).toContainText(brake.name);
    await expect(homeLines).not.toContainText(AXLE);

    await openSettings(page, "Line Management");
    await page.getByRole("switch", { name: `Line Active ${AXLE}` }).click();
    await expect(page.getByRole("dialog")).toContainText(`You are about to reactivate line "${AXLE}"`);
    const reactivatedAt = Date.now();
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("button", { name: `Active: ${active}` })).toBeVisible();
    // Resumed: the monitors evaluate again.
    await expect
      .poll(() => lastEvaluated(page.request, axle.id), { timeout: 60_000 })
      .toBeGreaterThan(Math.max(stoppedAt, reactivatedAt - 5_000));
  } finally {
    await page.request.patch(`/api/lines/${axle.id}`, { data: { active: true } });
    await setFlag(page, "partMarriage", true);
  }
});

test("feeder lines are set in the Feeder Lines drawer, across plants, and a cycle is refused", async ({
  page,
}) => {
  await signIn(page, "admin");
  const { axle, brake } = await detroit(page);
  const brakeFeeders = async () =>
    (await (await page.request.get(`/api/lines/${brake.id}`)).json()).feederLineIds as string[];
  try {
    await layoutWithoutPartMarriage(page);
    await openSettings(page, "Line Management");
    // The demo's Axle Assembly is fed by Brake Module.
    await page.getByRole("button", { name: `Configure Line ${AXLE}` }).click();
    const editor = page.getByRole("dialog", { name: T.configureLine });
    await expect(editor.getByRole("table", { name: T.feederLines })).toContainText("Brake Module");
    await editor.getByRole("button", { name: T.close }).click();
    await expect(editor).toBeHidden();

    // Brake Module fed by the other plant's Valve Machining.
    await page.getByRole("button", { name: "Configure Line Brake Module" }).click();
    await expect(editor.getByText(T.noFeederLines)).toBeVisible();
    await editor.getByRole("button", { name: T.configure }).click();
    const feeder = page.getByRole("dialog", { name: T.feederLines });
    await expect(
      feeder.getByRole("checkbox", { name: "Stuttgart Components / Valve Machining" }),
    ).toBeVisible();
    await expectAccessible(page, "Feeder Lines drawer", feeder);
    await feeder.getByRole("checkbox", { name: "Stuttgart Components / Valve Machining" }).check();
    await expect(feeder).toContainText(T.feederSelectedCaption);
    await feeder.getByRole("button", { name: T.saveChanges }).click();
    await expect(editor.getByRole("table", { name: T.feederLines })).toContainText("Valve Machining");
    await editor.getByRole("button", { name: T.saveChanges }).click();
    await expect(editor).toBeHidden();
    await expect.poll(brakeFeeders).toHaveLength(1);

    // Brake Module fed by Axle Assembly as well would close the circle.
    await page.getByRole("button", { name: "Configure Line Brake Module" }).click();
    await editor.getByRole("button", { name: T.configure }).click();
    await feeder.getByRole("checkbox", { name: `Detroit Assembly / ${AXLE}` }).check();
    await feeder.getByRole("button", { name: T.saveChanges }).click();
    await editor.getByRole("button", { name: T.saveChanges }).click();
    const failed = page.getByRole("dialog", { name: M.saveFailedTitle });
    await expect(failed).toContainText(M.circularDependency);
    await failed.getByRole("button", { name: T.ok }).click();
    expect(await brakeFeeders()).not.toContain(axle.id);
    // Leaving with the refused change asks first.
    await editor.getByRole("button", { name: T.close }).click();
    await page.getByRole("button", { name: "Exit" }).click();
    await expect(editor).toBeHidden();
  } finally {
    await page.request.patch(`/api/lines/${brake.id}`, { data: { feederLineIds: [] } });
    await setFlag(page, "partMarriage", true);
  }
});

test("thresholds edited in place, the export read back, and a no-data alert for a line whose records stopped", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const { plant } = await detroit(page);
  // A line whose one record is three hours old, named to be escaped in the export.
  const name = `=E2E No Data ${Date.now()}`;
  const token = await page.request.post(`/api/plants/${plant.id}/ingest-tokens`, {
    data: { name: "E2E lines" },
  });
  expect(token.status(), await token.text()).toBe(201);
  const { secret } = await token.json();
  const record = {
    line: name,
    station: "OP10",
    partId: `ND-${Date.now()}`,
    timestamp: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    measurements: { Torque: 12.3 },
  };
  const ingested = await page.request.post("/api/ingest", {
    headers: { authorization: `Bearer ${secret}` },
    data: [record],
  });
  expect(ingested.status(), await ingested.text()).toBe(200);
  try {
    await layoutWithoutPartMarriage(page);
    await openSettings(page, "Line Management");
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const hours = page.getByRole("textbox", { name: `${T.columns.ingestionThreshold} of ${name}` });
    await hours.fill("-1");
    await expect(page.getByText(M.thresholdMin)).toBeVisible();
    await hours.fill("1");
    const days = page.getByRole("textbox", { name: `${T.columns.overviewAlertFilter} of ${name}` });
    await days.fill("91");
    await expect(page.getByText(M.alertFilterRange)).toBeVisible();
    await days.fill("14");
    await days.press("Enter");
    await expect(hours).toBeHidden();
    const lines: (Line & { ingestionThresholdHours: number; alertViewingWindowDays: number })[] = await (
      await page.request.get(`/api/plants/${plant.id}/lines`)
    ).json();
    const line = lines.find((l) => l.name === name);
    expect(line).toMatchObject({ ingestionThresholdHours: 1, alertViewingWindowDays: 14 });

    // The export: UTF-8 with a BOM, the line's name escaped.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: T.export }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("line-management-summary.csv");
    const bytes = readFileSync((await file.path()) ?? "");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString("utf8");
    expect(text).toContain(`\r\n'${name},Yes,0,`);

    // The worker raises the no-data alert (its check runs every half minute of its clock: 0.5 s
    // with these tests' WORKER_MINUTE_MS); the overview lists it.
    await page.goto(`/lines/${line?.id}`);
    await expect(page.getByRole("heading", { name: /Alerts \(last 14 days\)/ })).toBeVisible();
    const alerts = page.getByRole("table", { name: "Alerts" });
    await expect(async () => {
      await page.reload();
      await expect(alerts.getByText("No data", { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 90_000, intervals: [3_000] });
    await expect(alerts).toContainText("No Data Alert after 1 h");
  } finally {
    // Hidden again from the selectors (and its alert resolved), so other specs' default line stays.
    const lines: Line[] = await (await page.request.get(`/api/plants/${plant.id}/lines`)).json();
    const created = lines.find((l) => l.name === name);
    if (created) await page.request.patch(`/api/lines/${created.id}`, { data: { active: false } });
    await setFlag(page, "partMarriage", true);
  }
});

test("with part marriage: Enabled, Disabled and All tabs, and Configure Line from the row menu", async ({
  page,
}) => {
  await signIn(page, "user");
  await detroit(page);
  await openSettings(page, "Line Management");
  await expect(page.getByRole("tab", { name: "Enabled", selected: true })).toBeVisible();
  await expect(page.getByRole("grid", { name: T.title })).toContainText(AXLE);
  await expect(page.getByRole("columnheader", { name: /Last Data received/ })).toBeVisible();
  await page.getByRole("tab", { name: "Disabled" }).click();
  await expect(page.getByRole("grid", { name: T.title })).not.toContainText(AXLE);
  await page.getByRole("tab", { name: "All" }).click();
  await page.getByRole("button", { name: `${T.moreActions} ${AXLE}` }).click();
  await page.getByRole("menuitem", { name: T.configureLine }).click();
  const editor = page.getByRole("dialog", { name: T.configureLine });
  await expect(editor.getByLabel(T.noDataAlert)).toBeVisible();
  await expect(editor.getByLabel(T.alertDisplayed)).toBeVisible();
  await editor.getByRole("button", { name: T.close }).click();
  await expect(editor).toBeHidden();
});
