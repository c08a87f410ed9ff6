import {
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TSpcSignalLimits,
  type TStation,
  UNMONITORED_TEXT,
} from "@linewatch/contracts";
import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, expectSnackbar, openSettings, signIn, test } from "./fixtures";

// Settings → Data Management → Signal Management (requirements.md settings §2.8, §4, §5, §7, §8) on a line of
// its own, made by ingesting one record per station: a final station, a friendly name the monitor
// form shows, an entity type change through its summary (naming the cap limit formula that uses
// the converted signal), associations dragged into their
// containers and confirmed in two steps, and classifications of two result signals that the
// monitor form's Result select then uses.

const lineName = `E2E Signals ${Date.now().toString(36)}`;
const row = (page: Page, name: string) => page.getByRole("treeitem", { name, exact: true });

async function plantId(page: Page): Promise<string> {
  const me = await (await page.request.get("/api/auth/me")).json();
  const plants: { id: string }[] = await (await page.request.get("/api/plants")).json();
  return (plants.find((p) => p.id === me.selectedPlantId) ?? plants[0])?.id as string;
}

/** Creates the line: OP10 with Torque, Angle, Spare, Torque USL and a Result; OP20 with Leak Result. */
async function createLine(page: Page): Promise<string> {
  const pid = await plantId(page);
  const token = await page.request.post(`/api/plants/${pid}/ingest-tokens`, { data: { name: lineName } });
  expect(token.status(), await token.text()).toBe(201);
  const headers = { authorization: `Bearer ${(await token.json()).secret}` };
  const timestamp = new Date().toISOString();
  const res = await page.request.post("/api/ingest", {
    headers,
    data: [
      {
        line: lineName,
        station: "OP10",
        partId: "P1",
        timestamp,
        measurements: { Torque: 12.3, Angle: 45, Spare: 1, "Torque USL": 14 },
        results: { Result: "OK" },
      },
      { line: lineName, station: "OP20", partId: "P1", timestamp, results: { "Leak Result": "OK" } },
    ],
  });
  expect(res.status(), await res.text()).toBe(200);
  const lines: { id: string; name: string }[] = await (
    await page.request.get(`/api/plants/${pid}/lines`)
  ).json();
  return lines.find((l) => l.name === lineName)?.id as string;
}

async function lineSignals(page: Page, lineId: string) {
  const stations: TStation[] = await (await page.request.get(`/api/lines/${lineId}/signals`)).json();
  return new Map(stations.flatMap((s) => s.signals).map((s) => [s.name, s]));
}

async function openPage(page: Page) {
  // The line's plant in the top bar: a section lists the top bar plant's lines, and a section's
  // pick in another spec moves the signed-in user's top bar (one line for both, issue 32 §2).
  const line: { plantId: string } = await (await page.request.get(`/api/lines/${lineId}`)).json();
  const selected = await page.request.patch("/api/auth/me/selection", {
    data: { selectedPlantId: line.plantId, selectedLineId: lineId },
  });
  expect(selected.ok(), await selected.text()).toBe(true);
  await openSettings(page, "Signal Management");
  await expect(page.getByRole("heading", { name: TEXT.title })).toBeVisible();
  await page.getByRole("combobox", { name: TEXT.lineLabel }).last().click();
  await page.getByRole("option", { name: lineName, exact: true }).click();
  await expect(row(page, "OP10")).toBeVisible();
}

/** Drags with the mouse (dnd-kit starts after 4 px of movement). */
async function drag(page: Page, what: Locator, to: Locator) {
  const from = await what.boundingBox();
  const target = await to.boundingBox();
  if (!from || !target) throw new Error("not visible");
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 15 });
  await page.mouse.up();
}

test.describe.configure({ mode: "serial" });
/** The line the first test creates; the others work on it. */
let lineId = "";

test("marks a final station, names a signal and changes an entity type", async ({ page }) => {
  await signIn(page, "admin");
  lineId = await createLine(page);
  // Torque's USL formula uses Spare, which this test converts: the summary dialog names it.
  const created = await lineSignals(page, lineId);
  const usl = `{${created.get("Spare")?.id}} + 13`;
  const limits = await page.request.put(`/api/line-config/spc-signal-limits?line-id=${lineId}`, {
    data: [
      {
        lineUUID: lineId,
        stationName: "OP10",
        signalUUID: created.get("Torque")?.id,
        signalName: "Torque",
        singleSide: null,
        limits: [
          { model_number: "*", lslFormula: null, lclFormula: null, uclFormula: null, uslFormula: usl },
        ],
      },
    ],
  });
  expect(limits.status(), await limits.text()).toBe(200);
  await openPage(page);
  await expect(page.getByText(TEXT.configuringHint)).toBeVisible();

  // OP10 holds a result signal, so it can be made final.
  await page.getByRole("button", { name: `${TEXT.configureStation} OP10` }).click();
  await expect(page.getByText(MSG.finalStationNeedsResult)).toBeVisible();
  // The switch shows the saved state once the server has answered (not at the click): click, then
  // wait for it (Playwright's check() wants the state changed at once and fails on a busy machine).
  const finalSwitch = page.getByRole("switch", { name: TEXT.finalStation });
  await finalSwitch.click();
  await expect(finalSwitch).toBeChecked();
  // A row's chips are its tree item's description.
  await expect(row(page, "OP10")).toHaveAccessibleDescription(new RegExp(`${TEXT.final}$`));

  // Friendly name: leading spaces are refused, then saved and shown in the tree and the monitor form.
  await row(page, "Angle").click();
  await page.getByRole("button", { name: TEXT.configure, exact: true }).click();
  const friendly = page.getByRole("textbox", { name: TEXT.friendlyName });
  await friendly.fill(" Spindle angle");
  await expect(page.getByText(MSG.noLeadingSpaces)).toBeVisible();
  await expect(page.getByRole("button", { name: TEXT.save, exact: true })).toBeDisabled();
  await friendly.fill("Spindle angle");
  await page.getByRole("button", { name: TEXT.save, exact: true }).click();
  await expect(row(page, "Spindle angle")).toBeVisible();

  // Entity type: Spare becomes Unknown through the summary dialog.
  await row(page, "Spare").click();
  await page.getByRole("combobox", { name: TEXT.entityType }).click();
  await page.getByRole("option", { name: "Unknown", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: TEXT.entityDialogTitle });
  await expect(dialog.getByText("Spare", { exact: true })).toBeVisible();
  await expect(dialog.getByText(TEXT.capFormulaLine("Torque", "USL", "*"))).toBeVisible();
  await expect(dialog.getByText(TEXT.capFormulaUses("Spare"))).toBeVisible();
  await dialog.getByRole("button", { name: TEXT.changeEntityType }).click();
  await expectSnackbar(page, MSG.entitySaved);
  await expect(row(page, "Spare")).toHaveAccessibleDescription(/Unknown/);
  // The formula is kept as it was.
  const kept: TSpcSignalLimits[] = await (
    await page.request.get(`/api/line-config/spc-signal-limits?line-id=${lineId}`)
  ).json();
  expect(kept.find((x) => x.signalName === "Torque")?.limits[0]?.uslFormula).toBe(usl);

  const signals = await lineSignals(page, lineId);
  expect(signals.get("Spare")?.entityType).toBe("UNKNOWN");
  expect(signals.get("Angle")?.friendlyName).toBe("Spindle angle");

  // The monitor form's tree shows the friendly name.
  await page.goto(`/monitors/new?type=svd&lineId=${lineId}`);
  await page.getByRole("tab", { name: "Signals" }).click();
  await expect(page.getByRole("treeitem", { name: "Spindle angle" })).toBeVisible();
});

test("associates a measurement with a limit and a result through the two-step confirmation", async ({
  page,
}) => {
  // Any signed-in user of the customer edits signals (docs/architecture.md "who may change what").
  await signIn(page, "user");
  await openPage(page);
  await row(page, "Torque").click();
  await page.getByRole("button", { name: TEXT.editAssociations }).click();
  const container = (name: string) => page.getByRole("group", { name, exact: true });
  await expect(container(TEXT.containers.measurement).getByText("Torque", { exact: true })).toBeVisible();
  // Part attributes and unknown signals cannot be associated.
  await expect(row(page, "Spare")).toHaveAttribute("title", TEXT.onlyAssociable);

  // Ingestion gave Torque its station's only result: the editor opens with it in Result.
  const chip = (c: string, name: string) => container(c).getByRole("button", { name, exact: true });
  await expect(chip(TEXT.containers.result, "Result")).toBeVisible();
  // Torque USL (a measurement) joins; dragged with the mouse to Lower Limit, then moved from the
  // keyboard (Space, Up, Space) to Upper Limit.
  await row(page, "Torque USL").click({ modifiers: ["ControlOrMeta"] });
  await expect(chip(TEXT.containers.measurement, "Torque USL")).toBeVisible();
  await drag(page, chip(TEXT.containers.measurement, "Torque USL"), container(TEXT.containers.lowerLimit));
  await expect(chip(TEXT.containers.lowerLimit, "Torque USL")).toBeVisible();
  const picked = chip(TEXT.containers.lowerLimit, "Torque USL");
  await picked.focus();
  await page.keyboard.press("Space");
  await expect(picked).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowUp");
  await expect(container(TEXT.containers.upperLimit)).toHaveAttribute("data-over", "true");
  await page.keyboard.press("Space");
  await expect(chip(TEXT.containers.upperLimit, "Torque USL")).toBeVisible();
  await expect(container(TEXT.containers.lowerLimit).getByText(TEXT.dropHere)).toBeVisible();

  await page.getByRole("button", { name: TEXT.confirm }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: TEXT.entityChanges })).toBeVisible();
  await expect(dialog.getByText("Measurement → Upper Limit")).toBeVisible();
  await dialog.getByRole("button", { name: TEXT.next }).click();
  const changes = dialog.getByRole("list", { name: TEXT.associationChanges }).getByRole("listitem");
  // Torque gets its upper limit; Torque USL, no longer a measurement, loses the result ingestion gave it.
  await expect(changes).toHaveCount(2);
  await expect(changes.nth(0)).toContainText("Torque — Upper Limit: Torque USL");
  await expect(changes.nth(0)).toContainText(TEXT.create);
  await expect(changes.nth(1)).toContainText("Torque USL — Result: Result");
  await expect(changes.nth(1)).toContainText(TEXT.delete);
  await dialog.getByRole("button", { name: TEXT.saveConfiguration }).click();
  await expectSnackbar(page, MSG.associationSaved);

  const signals = await lineSignals(page, lineId);
  const torque = signals.get("Torque");
  expect(signals.get("Torque USL")?.entityType).toBe("UPPER_LIMIT");
  expect(torque?.upperLimit).toBe(signals.get("Torque USL")?.id);
  expect(torque?.result).toBe(signals.get("Result")?.id);
  // The form shows the new associations.
  await row(page, "Torque").click();
  const associations = page.getByRole("region", { name: TEXT.associations });
  await expect(associations.getByText("Torque USL")).toBeVisible();
});

test("edits the classifications of two result signals; the monitor form's Result select uses them", async ({
  page,
}) => {
  await signIn(page, "user");
  await openPage(page);
  await row(page, "Result").click();
  await row(page, "Leak Result").click({ modifiers: ["ControlOrMeta"] });
  await page.getByRole("button", { name: TEXT.editResultClassifications }).click();
  const panel = page.getByRole("region", { name: TEXT.editResultClassifications });
  await expect(panel.getByText(TEXT.noCommonClassifications)).toBeVisible();
  // The tree beside the panel stays in reach (no backdrop over it): hovering a signal shows why the
  // selection is locked, and the signal cannot be chosen.
  await row(page, "Torque").hover();
  await expect(row(page, "Torque")).toHaveAttribute("title", TEXT.lockedWhileClassifications);
  await expect(row(page, "Torque")).toHaveAttribute("aria-disabled", "true");
  await expectAccessible(page, "Edit Result Classifications panel", panel);

  // A common row for both, then a unique row for Result only.
  const common = panel.getByRole("region", { name: TEXT.commonClassifications });
  await common.getByRole("button", { name: TEXT.addClassification }).click();
  await expect(panel.getByRole("button", { name: TEXT.saveChanges })).toBeDisabled();
  await expect(common.getByText(MSG.classificationEmpty)).toBeVisible();
  await common.getByRole("textbox", { name: TEXT.value }).fill("OK");
  await common.getByRole("combobox").first().click();
  await page.getByRole("option", { name: "pass", exact: true }).click();
  const unique = panel.getByRole("region", { name: "Result", exact: true });
  await unique.getByRole("button", { name: TEXT.addClassification }).click();
  await unique.getByRole("textbox", { name: TEXT.value }).fill("SCRAP");
  await unique.getByRole("combobox").first().click();
  await page.getByRole("option", { name: "fail", exact: true }).click();
  await expect(panel.getByRole("list", { name: TEXT.withoutUnique })).toContainText("Leak Result");
  await panel.getByRole("button", { name: TEXT.saveChanges }).click();
  await expectSnackbar(page, TEXT.classificationsSaved);
  await expect(panel).toBeHidden();

  const assoc = await page.request.post("/api/signal/associated-result-classifications", {
    data: [(await lineSignals(page, lineId)).get("Torque")?.id],
  });
  const saved = Object.values(await assoc.json())[0] as { associatedResultClassifications: object };
  expect(saved.associatedResultClassifications).toEqual({
    pass: [{ value: "OK", failureMode: null }],
    fail: [{ value: "SCRAP", failureMode: null }],
    other: [],
  });

  // The SVD form on this line: Torque's result is now configured, so Result offers Pass and Fail.
  await page.goto(`/monitors/new?type=svd&lineId=${lineId}`);
  await page.getByRole("tab", { name: "Signals" }).click();
  await page.getByRole("treeitem", { name: "Torque", exact: true }).click();
  await page.getByRole("tab", { name: "Data Filters" }).click();
  const result = page.getByRole("combobox", { name: "Result" });
  await expect(result).toBeEnabled();
  await result.click();
  await expect(page.getByRole("option", { name: "Fail" })).toBeVisible();
});

test("a signal switched off: the monitor that uses it says so on the line overview and its form", async ({
  page,
}) => {
  await signIn(page, "user");
  await page.goto(`/lines/${lineId}`);
  await page.getByRole("link", { name: "New SVD monitor" }).click();
  await expect(page.getByRole("tab", { name: "Data Filters", selected: true })).toBeVisible();
  await page.getByRole("textbox", { name: "Monitor name" }).fill("Angle watch");
  await page.getByRole("tab", { name: "Signals" }).click();
  await page.getByLabel("Search signals").fill("Spindle angle");
  await page.getByRole("treeitem", { name: "Spindle angle", exact: true }).click();
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Monitor created , Alert rules saved")).toBeVisible();
  const monitorRow = page
    .getByRole("table", { name: "Monitors" })
    .getByRole("row")
    .filter({ hasText: "Angle watch" });
  await expect(monitorRow).toBeVisible();
  await expect(monitorRow.getByText(UNMONITORED_TEXT.chip)).toHaveCount(0);

  await openPage(page);
  await row(page, "Spindle angle").click();
  await page.getByRole("switch", { name: TEXT.signalStatus }).click();
  await expect(page.getByText(`${TEXT.signalStatus}: ${TEXT.off}`)).toBeVisible();
  await expect(row(page, "Spindle angle")).toHaveAccessibleDescription(new RegExp(`${TEXT.off}$`));

  await page.goto(`/lines/${lineId}`);
  await expect(monitorRow.getByText(UNMONITORED_TEXT.chip)).toBeVisible();
  // Its only signal: nothing is left to watch, and the mark says it records no data.
  await expect(monitorRow.getByTitle(UNMONITORED_TEXT.chipTitleNoneLeft)).toBeVisible();
  await monitorRow.getByRole("link", { name: "Angle watch" }).click();
  await expect(page.getByText(UNMONITORED_TEXT.warning(1))).toBeVisible();
  await expect(page.getByText(UNMONITORED_TEXT.noneLeft)).toBeVisible();
  // The monitor form's tree leaves the switched-off signal out.
  await page.getByRole("tab", { name: "Signals" }).click();
  await expect(page.getByRole("treeitem", { name: "Torque", exact: true })).toBeVisible();
  await expect(page.getByRole("treeitem", { name: "Spindle angle", exact: true })).toHaveCount(0);
});
