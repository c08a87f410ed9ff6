import {
  CAP_ALERTS_MESSAGES as A,
  CAPABILITY_MESSAGES as C,
  SPC_LIMITS_MESSAGES as L,
  MONITOR_MESSAGES,
} from "@linewatch/contracts";
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

// Settings → Capability Metrics on the demo plant: Cap Limits (requirements.md settings §2.5, §5, §7) and
// Cap Alerts (§2.4, §4), issue #14.

test.afterEach(({ page }) => restoreSelection(page));

test("Cap Limits: a formula naming a signal is completed, saved as ids and locks the page until saved", async ({
  page,
}) => {
  await signIn(page, "user");
  const lineId = await selectAxleLine(page);
  await page.goto(`/lines/${lineId}`);
  const before = await spcLimitsOf(page, lineId, "Press Force");
  try {
    await openSettings(page, "Limits");
    const grid = page.getByRole("grid", { name: L.title });
    const row = grid.getByRole("row").filter({ hasText: "Press Force" }).first();
    await row.getByRole("button", { name: "See models" }).click();

    const ucl = grid.getByRole("textbox", { name: "UCL *" }).first();
    await ucl.fill("");
    await ucl.pressSequentially("{Press Force Up");
    await page.getByRole("menuitem", { name: "Press Force Upper Limit" }).click();
    await ucl.pressSequentially(" - 1");
    await expect(ucl).toHaveValue("{Press Force Upper Limit} - 1");
    const lcl = grid.getByRole("textbox", { name: "LCL *" }).first();
    await lcl.fill("abc");
    await expect(page.getByText("LCL must be a number")).toBeVisible();
    await expect(page.getByRole("button", { name: L.saveChanges })).toBeDisabled();
    await expect(page.getByRole("main").getByRole("combobox", { name: L.lineLabel })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    await lcl.fill("");
    await page.getByRole("button", { name: L.saveChanges }).click();
    await expect(page.getByText(L.saved)).toBeVisible();

    const saved = await spcLimitsOf(page, lineId, "Press Force");
    const upper = (await (await page.request.get(`/api/lines/${lineId}/signals`)).json())
      .flatMap((s: { signals: { id: string; name: string }[] }) => s.signals)
      .find((s: { name: string }) => s.name === "Press Force Upper Limit");
    expect(saved.limits.find((l) => l.model_number === "*")?.uclFormula).toBe(`{${upper.id}} - 1`);

    // The cap monitor evaluates against the formula (the preview runs the worker's evaluation): a
    // UCL far below every value puts points outside the control limits, one far above puts none.
    const evaluateWithUcl = async (ucl: string) => {
      const limits = saved.limits.map((l) => ({ ...l, lclFormula: null, uclFormula: ucl }));
      await putSpcLimits(page, lineId, { ...saved, limits });
      const res = await page.request.post("/api/monitors/preview", {
        data: {
          type: "cap",
          line_id: lineId,
          alert_threshold: "medium",
          filter: { signal_uuids: [saved.signalUUID], sample_size: 100, evaluation_ratio: 0.25 },
        },
      });
      expect(res.ok()).toBe(true);
      return (await res.json()).evaluation as { state: string; details: { controlHitCount?: number } };
    };
    const below = await evaluateWithUcl(`{${upper.id}} - 1000000`);
    expect(below.state).toBe("BREACH");
    expect(below.details.controlHitCount ?? 0).toBeGreaterThan(0);
    const above = await evaluateWithUcl(`{${upper.id}} + 1000000`);
    expect(above.details.controlHitCount).toBe(0);
  } finally {
    await putSpcLimits(page, lineId, before);
  }
});

test("Cap Alerts: a cap monitor created from the page, its rules edited, challenge parts excluded", async ({
  page,
}) => {
  await signIn(page, "user");
  const lineId = await selectAxleLine(page);
  await page.goto(`/lines/${lineId}`);
  const before = await spcLimitsOf(page, lineId, "Press Depth");
  let monitorId: string | undefined;
  try {
    await putSpcLimits(page, lineId, {
      ...before,
      limits: [{ model_number: "*", lslFormula: "1", lclFormula: null, uclFormula: null, uslFormula: "20" }],
    });
    await openSettings(page, "Alerts");
    await expect(page.getByText(A.note)).toBeVisible();
    const grid = page.getByRole("grid", { name: A.title });
    const monitor = grid.getByRole("checkbox", { name: A.monitorLabel("Press Depth") });
    await expect(monitor).not.toBeChecked();
    await expect(grid.getByRole("button", { name: A.editRulesLabel("Press Depth") })).toBeDisabled();
    await monitor.click();
    await expect(monitor).toBeChecked();

    await grid.getByRole("button", { name: A.editRulesLabel("Press Depth") }).click();
    const dialog = page.getByRole("dialog", { name: A.rulesTitle });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("switch").first().click();
    await dialog.getByRole("button", { name: A.save }).click();
    await expect(page.getByText(MONITOR_MESSAGES.rulesSaved)).toBeVisible();
    await expect(dialog).toBeHidden();

    const parts = grid.getByRole("checkbox", { name: A.excludePartsLabel("Press Depth") });
    await parts.click();
    await expect(parts).toBeChecked();

    await grid.getByRole("combobox", { name: A.opCountLabel("Press Depth") }).click();
    await page.getByRole("option", { name: "FIRST" }).click();
    await expect(grid.getByRole("combobox", { name: A.opCountLabel("Press Depth") })).toHaveText("FIRST");

    const monitors = await (await page.request.get(`/api/lines/${lineId}/monitors?type=cap`)).json();
    const created = monitors.find(
      (m: { monitor_filter: { signal_uuids: string[] } }) =>
        m.monitor_filter.signal_uuids[0] === before.signalUUID,
    );
    monitorId = created.monitor_uuid;
    expect(created).toMatchObject({
      active: true,
      use_excluded_part_ids: true,
      monitor_filter: { op_count: "FIRST" },
    });
    const rules = await (await page.request.get(`/api/notifications/monitor-rules/${monitorId}`)).json();
    expect(rules.some((r: { active: boolean }) => r.active)).toBe(true);
  } finally {
    if (monitorId) await page.request.delete("/api/tasks", { data: { monitor_uuid: monitorId } });
    await putSpcLimits(page, lineId, before);
  }
});

test("Cap Limits: a signal's capability view shows its I-MR chart, histogram and capability table", async ({
  page,
}) => {
  await signIn(page, "user");
  const lineId = await selectAxleLine(page);
  await page.goto(`/lines/${lineId}`);
  await openSettings(page, "Limits");
  const grid = page.getByRole("grid", { name: L.title });
  await grid
    .getByRole("button", { name: C.openFor("Press Force") })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: C.title("Press Force") });
  await expect(dialog).toBeVisible();
  // The demo's 14 days of records: the last 7 days are shown, every record in the statistics.
  const table = dialog.getByRole("table", { name: C.table });
  await expect(table).toBeVisible();
  await expect(table.getByRole("rowheader").first()).toHaveText(C.allModels);
  await expect(
    dialog.getByRole("region", { name: C.individuals }).locator("svg path").first(),
  ).toBeAttached();
  await expect(dialog.getByRole("region", { name: C.movingRange }).locator("svg").first()).toBeVisible();
  await expect(dialog.getByRole("region", { name: C.histogram }).locator("svg").first()).toBeVisible();
  await dialog.getByRole("button", { name: C.close }).click();
  await expect(dialog).toBeHidden();
});
