import { CAPABILITY_MESSAGES, EVALUATION_SERIES_MESSAGES, LINE_MESSAGES } from "@linewatch/contracts";
import mqtt from "mqtt";
import {
  expect,
  expectSnackbar,
  newMqttPassword,
  openAlertWithMonitorPaused,
  resumeMonitor,
  signIn,
  test,
} from "./fixtures";

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT ?? 18831}`;

test("the line overview shows monitors and alerts, and a user acknowledges, comments and resolves one", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "user");
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  const axle = lines.find((l: { name: string }) => l.name === "Axle Assembly");

  await page.goto(`/lines/${axle.id}`);
  await expect(page.getByRole("heading", { name: "Monitors" })).toBeVisible();
  const monitors = page.getByRole("table", { name: "Monitors" });
  await expect(monitors).toContainText("Wheel nut torque");
  await expect(monitors).toContainText("Torque and angle");

  // The demo monitors evaluate every few seconds here; the first alert comes from the live data.
  const { alerts, row, monitorName, monitorId } = await openAlertWithMonitorPaused(page, axle.id);
  await row.getByRole("button", { name: "Acknowledge" }).click();
  await expectSnackbar(page, "Alert acknowledged");
  const acked = alerts.getByRole("row").filter({ hasText: monitorName }).first();
  await expect(acked).toContainText("Acknowledged");

  await acked.getByRole("button", { name: "Comment" }).click();
  await page.getByRole("dialog").getByLabel("Comment").fill("Checked the nut runner calibration");
  await page.getByRole("dialog").getByRole("button", { name: "Add comment" }).click();
  await expectSnackbar(page, "Comment added");

  await acked.getByRole("button", { name: "Resolve" }).click();
  const resolve = page.getByRole("dialog");
  await resolve.getByLabel("Cause").fill("Nut runner recalibrated");
  await resolve.getByRole("button", { name: "Resolve" }).click();
  await expectSnackbar(page, "Alert resolved");

  // The alert's page shows its whole history with who did what.
  await alerts
    .getByRole("row")
    .filter({ hasText: monitorName })
    .first()
    .getByRole("button", { name: "Details" })
    .click();
  await expect(page).toHaveURL(/alert=/);
  const history = page.getByRole("region", { name: "History" });
  await expect(history).toContainText("Opened");
  await expect(history).toContainText("Acknowledged");
  await expect(history).toContainText("Checked the nut runner calibration");
  await expect(history).toContainText("cause: Nut runner recalibrated");
  await expect(history).toContainText("user@demo.local");

  // The evaluation history of its monitor as a chart, and the details of the latest evaluation by type.
  const evaluations = page.getByRole("region", { name: "Evaluations", exact: true });
  await expect(evaluations.locator("svg").first()).toBeVisible();
  await expect(evaluations.locator('path[data-series="score"]').first()).toBeAttached();
  const summary = (await page.getByText(/^(SVD|MVD|CAP) · rule/).textContent()) ?? "";
  const type = summary.slice(0, 3);
  const details = page.getByRole("region", { name: "Evaluation details" });
  if (type === "SVD") {
    await expect(details).toContainText("Training and evaluation distributions");
    await expect(details.getByRole("figure", { name: /^Training and evaluation values of / })).toBeVisible();
    await expect(details.locator('path[data-series="evaluation"]').first()).toBeAttached();
  } else if (type === "MVD") {
    await expect(details).toContainText("Top contributing signals of the worst rows");
    await expect(details.locator("svg rect").first()).toBeAttached();
  } else {
    expect(type).toBe("CAP");
    const table = details.getByRole("table", { name: "Limits and indices" });
    await expect(table).toContainText("Ppk");
    await expect(table).toContainText("Outside LCL/UCL");
  }
  await resumeMonitor(page, monitorId);
});

test("the line overview draws each monitor's scores over time, and a CAP monitor's I-MR view of the same period, at 768 px", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 768, height: 1000 });
  await signIn(page, "user");
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  const axle = lines.find((l: { name: string }) => l.name === "Axle Assembly");
  const names: string[] = [];
  for (const type of ["svd", "mvd", "cap"]) {
    const list = await (await page.request.get(`/api/lines/${axle.id}/monitors?type=${type}`)).json();
    names.push(...list.map((m: { monitor_name: string }) => m.monitor_name));
  }
  expect(names).toEqual(
    expect.arrayContaining(["Wheel nut torque", "Torque and angle", "Press force capability"]),
  );

  await page.goto(`/lines/${axle.id}`);
  const section = page.getByRole("region", { name: EVALUATION_SERIES_MESSAGES.title });
  await expect(section.getByRole("heading", { name: EVALUATION_SERIES_MESSAGES.title })).toBeVisible();
  await expect(section.getByRole("button", { name: EVALUATION_SERIES_MESSAGES.presets.day })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // The demo monitors evaluate every few seconds here: each has its chart of the last 24 hours
  // once it has evaluated (the page asks again on a reload).
  await expect(async () => {
    await page.reload();
    for (const name of names) {
      const chart = section.getByRole("figure", { name: EVALUATION_SERIES_MESSAGES.chartLabel(name) });
      // A chart is drawn as it comes near the viewport, as a person scrolls to it.
      await chart.scrollIntoViewIfNeeded();
      await expect(chart.locator('path[data-series="score"]').first()).toBeAttached({ timeout: 5_000 });
    }
  }).toPass({ timeout: 120_000, intervals: [3_000] });
  await expect(section.getByRole("figure")).toHaveCount(names.length);
  // Full width, one under the other, inside the 768 px window.
  for (const name of names) {
    const box = await section
      .getByRole("figure", { name: EVALUATION_SERIES_MESSAGES.chartLabel(name) })
      .boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(600);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(768);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);

  // Another period: asked again, the charts stay.
  await section.getByRole("button", { name: EVALUATION_SERIES_MESSAGES.presets.week }).click();
  await expect(
    section.getByRole("button", { name: EVALUATION_SERIES_MESSAGES.presets.week }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(section.getByRole("figure")).toHaveCount(names.length);

  // The CAP monitor's capability view: the I-MR chart of its signal over the same 7 days.
  await section.getByRole("button", { name: /^Capability \(I-MR\) of .* over this period$/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: /^Capability of / })).toBeVisible();
  const from = Date.parse(
    `${await dialog.getByLabel(CAPABILITY_MESSAGES.from, { exact: true }).inputValue()}Z`,
  );
  const to = Date.parse(`${await dialog.getByLabel(CAPABILITY_MESSAGES.to, { exact: true }).inputValue()}Z`);
  // The inputs show the plant's wall clock: 7 days apart, give or take a daylight-saving hour.
  expect(Math.abs(to - from - 7 * 86_400_000)).toBeLessThanOrEqual(3_600_000);
  await expect(dialog.getByRole("region", { name: CAPABILITY_MESSAGES.individuals })).toBeVisible();
});

test("a CAP alert shows the values its newest breach judged against the limits, with Cpk and Ppk", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "user");
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  const axle = lines.find((l: { name: string }) => l.name === "Axle Assembly");

  // The demo's press force capability monitor breaches within seconds of live data.
  let alertId = "";
  await expect(async () => {
    const alerts = await (await page.request.get(`/api/lines/${axle.id}/alerts`)).json();
    alertId = alerts.find((a: { monitor: { type: string } }) => a.monitor.type === "cap")?.id ?? "";
    expect(alertId).not.toBe("");
  }).toPass({ timeout: 120_000, intervals: [3_000] });

  await page.goto(`/lines/${axle.id}?alert=${alertId}`);
  const details = page.getByRole("region", { name: "Evaluation details" });
  const chart = details.getByRole("figure", {
    name: /^Values of Press Force \(kN\) against the control limits \(LCL\/UCL, dashed\) and the specification limits/,
  });
  await expect(chart).toBeVisible();
  await expect(chart).toContainText("times in America/Detroit");
  await expect(chart.locator('path[data-series="value"]').first()).toBeAttached();
  // The demo's press force limits are specification limits: LSL and USL drawn as reference lines.
  await expect(chart.locator("svg text").filter({ hasText: /^USL$/ })).toBeVisible();
  await expect(chart.locator("svg text").filter({ hasText: /^LSL$/ })).toBeVisible();
  const table = chart.getByRole("table", { name: "Limits and indices" });
  await expect(table.getByRole("row", { name: /^Cpk \d/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /^Ppk \d/ })).toBeVisible();
});

test("a link to another plant's line opens that line: the top bar, its times and its monitor form follow it", async ({
  page,
}) => {
  // An administrator: publishing needs the plant's MQTT login, which administrators set.
  await signIn(page, "admin");
  const plants = await (await page.request.get("/api/plants")).json();
  const stuttgart = plants.find((p: { name: string }) => p.name === "Stuttgart Components");
  const lines = await (await page.request.get(`/api/plants/${stuttgart.id}/lines`)).json();
  const valve = lines.find((l: { name: string }) => l.name === "Valve Machining");

  // Detroit picked in the top bar, then a colleague's link to a Stuttgart line.
  await page.goto("/");
  await page.getByRole("combobox", { name: "Plant" }).click();
  await page.getByRole("option", { name: "Detroit Assembly" }).click();
  await expect(page.getByTestId("plant-time-zone")).toHaveText("America/Detroit");
  await page.goto(`/lines/${valve.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Valve Machining" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Plant" })).toHaveText("Stuttgart Components");
  await expect(page.getByRole("combobox", { name: "Line" })).toHaveText("Valve Machining");
  await expect(page.getByTestId("plant-time-zone")).toHaveText("Europe/Berlin");

  // The same from Detroit straight to the new-monitor form of the Stuttgart line.
  await page.goto("/");
  await page.getByRole("combobox", { name: "Plant" }).click();
  await page.getByRole("option", { name: "Detroit Assembly" }).click();
  await expect(page.getByTestId("plant-time-zone")).toHaveText("America/Detroit");
  await page.goto(`/monitors/new?type=mvd&lineId=${valve.id}`);
  await expect(page.getByRole("combobox", { name: "Line" })).toHaveText("Valve Machining");
  await page.getByRole("tab", { name: "Signals" }).click();
  await page.getByLabel("Search signals").fill("Bore Diameter");
  await expect(page.getByRole("treeitem", { name: "Bore Diameter", exact: true }).first()).toBeVisible();
  await expect(page.getByText(/Error loading signals/)).toHaveCount(0);
  await page.getByRole("tab", { name: "Data Filters" }).click();
  await expect(page.getByText("Time zone: Europe/Berlin")).toBeVisible();
});

test("a line that does not exist says so and offers the way back, not a Retry", async ({ page }) => {
  await signIn(page, "user");
  await page.goto("/lines/00000000-0000-4000-8000-00000000dead");
  await expect(page.getByRole("heading", { level: 1, name: LINE_MESSAGES.notFound })).toBeVisible();
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await page.getByRole("link", { name: "Back to the lines" }).click();
  await expect(page).toHaveURL(/\/$/);
});

/** Every text of every chart in `scope` is whole and inside its chart (no "−0…"). */
async function expectChartTextInside(scope: import("@playwright/test").Locator) {
  const outside = await scope.evaluate((root) => {
    const cut: string[] = [];
    for (const svg of Array.from(root.querySelectorAll("svg"))) {
      if (!svg.querySelector("text")) continue;
      const box = svg.getBoundingClientRect();
      for (const t of Array.from(svg.querySelectorAll("text"))) {
        const r = t.getBoundingClientRect();
        if (r.width === 0) continue;
        // A label too long for its axis is shortened with an ellipsis ("−0…").
        if (t.textContent?.includes("…")) cut.push(`${t.textContent} (shortened)`);
        if (
          r.left < box.left - 0.5 ||
          r.right > box.right + 0.5 ||
          r.top < box.top - 0.5 ||
          r.bottom > box.bottom + 0.5
        )
          cut.push(
            `${t.textContent} (${Math.round(r.left - box.left)} px from the left, chart ${Math.round(box.width)} px)`,
          );
      }
    }
    return cut;
  });
  expect(outside).toEqual([]);
}

test("an alert's charts keep every axis label inside them at 1280 × 720, negative values included", async ({
  page,
}) => {
  test.setTimeout(150_000);
  // An administrator: publishing needs the plant's MQTT login, which administrators set.
  await signIn(page, "admin");
  const plants = await (await page.request.get("/api/plants")).json();
  const stuttgart = plants.find((p: { name: string }) => p.name === "Stuttgart Components");
  const lines = await (await page.request.get(`/api/plants/${stuttgart.id}/lines`)).json();
  const valve = lines.find((l: { name: string }) => l.name === "Valve Machining");

  // 100 parts whose Position X (mm, around 0: negative values too) leaves ±0.05: the Position X
  // capability monitor breaches at its next evaluation.
  const station = "OP30 CMM";
  const id = Date.now().toString(36);
  const login = await newMqttPassword(page, stuttgart.id);
  const client = await mqtt.connectAsync(MQTT_URL, { reconnectPeriod: 0, connectTimeout: 5_000, ...login });
  try {
    const start = Date.now() - 100 * 200;
    const records = Array.from({ length: 100 }, (_, i) => ({
      line: "Valve Machining",
      station,
      partId: `E2E-AXIS-${id}-${i}`,
      modelNumber: "VB-25-S",
      timestamp: new Date(start + i * 200).toISOString(),
      measurements: {
        "Position X": (i % 2 === 0 ? -1 : 1) * (0.03 + (i % 7) * 0.006),
        "Position X Upper Limit": 0.05,
        "Position X Lower Limit": -0.05,
      },
      results: { "CMM Result": "PASS" },
    }));
    await client.publishAsync(
      `linewatch/demo/stuttgart/Valve Machining/${station}`,
      JSON.stringify(records),
      {
        qos: 1,
      },
    );
  } finally {
    await client.endAsync();
  }
  let alertId = "";
  await expect(async () => {
    const alerts = await (await page.request.get(`/api/lines/${valve.id}/alerts`)).json();
    alertId =
      alerts.find((a: { monitor: { name: string } }) => a.monitor.name === "Position X capability")?.id ?? "";
    expect(alertId).not.toBe("");
  }).toPass({ timeout: 120_000, intervals: [2_000] });

  await page.goto(`/lines/${valve.id}?alert=${alertId}`);
  const details = page.getByRole("region", { name: "Evaluation details" });
  const values = details.getByRole("figure", { name: /^Values of Position X \(mm\)/ });
  await expect(values.locator('path[data-series="value"]').first()).toBeAttached({ timeout: 30_000 });
  const history = page.getByRole("region", { name: "Evaluations" });
  await expect(history.locator("svg").first()).toBeVisible();
  await expectChartTextInside(values);
  await expectChartTextInside(history);
});
