import type { Page } from "@playwright/test";
import { expect, openSettings, signIn, test } from "./fixtures";

// Settings → Data Sources (requirements.md monitor-forms §2, §4, §7, §8; requirements.md settings §2.1), as the demo
// administrator on the demo plant, whose ingestor already has the "Line simulator" source.

type Source = { id: string; name: string; topic: string; createdAt: string; ingestorId: string };

/** A name no earlier run against the same server has used. */
const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

async function openDataSources(page: Page) {
  await signIn(page, "admin");
  await openSettings(page, "Data Sources");
  await expect(page.getByRole("heading", { name: "Data Sources" })).toBeVisible();
}

/** The plant the page shows: the one selected in the top bar. */
async function currentPlantId(page: Page): Promise<string> {
  const me = await (await page.request.get("/api/auth/me")).json();
  const plants: { id: string; name: string }[] = await (await page.request.get("/api/plants")).json();
  const plant = plants.find((p) => p.id === me.selectedPlantId) ?? plants[0];
  if (!plant) throw new Error("no plant");
  return plant.id;
}

async function addSourceByApi(page: Page, name: string, topic = "e2e/+/records"): Promise<Source> {
  const res = await page.request.post(`/api/plants/${await currentPlantId(page)}/data-sources`, {
    data: { name, topic },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

const card = (page: Page, name: string) => page.getByRole("article", { name });

test("shows the title, Refresh, the plant's ingestor id and one card per source", async ({ page }) => {
  await openDataSources(page);
  const plantId = await currentPlantId(page);
  const ingestor = await (await page.request.get(`/api/plants/${plantId}/ingestor`)).json();
  await expect(page.getByRole("button", { name: "Refresh" })).toBeVisible();
  await expect(page.getByTestId("ingestor-id")).toHaveText(ingestor.id);

  const sources: Source[] = await (await page.request.get(`/api/plants/${plantId}/data-sources`)).json();
  expect(sources.length).toBeGreaterThan(0);
  await expect(page.getByTestId("data-source-card")).toHaveCount(sources.length);
  const first = sources[0] as Source;
  const c = card(page, first.name);
  await expect(c.getByText("Name", { exact: true })).toBeVisible();
  await expect(c.getByText(first.name, { exact: true })).toBeVisible();
  await expect(c.getByText("Topic", { exact: true })).toBeVisible();
  await expect(c.getByText(first.topic, { exact: true })).toBeVisible();
  await expect(c.getByText("Created", { exact: true })).toBeVisible();
  // Date-time plus the plant's time zone, e.g. "2026-11-22 06:15:03 EST".
  await expect(c.locator("time")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+$/);
  await expect(c.getByRole("button", { name: "Insight", exact: true })).toBeVisible();
  await expect(c.getByRole("button", { name: `Delete data source ${first.name}` })).toBeVisible();
});

test("says 'No data sources' when the plant has none", async ({ page }) => {
  await page.route("**/api/plants/*/data-sources", (route) =>
    route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.fallback(),
  );
  await openDataSources(page);
  await expect(page.getByText("No data sources")).toBeVisible();
  await expect(page.getByTestId("data-source-card")).toHaveCount(0);
});

test("adds a source: inline validation first, a taken name in the dialog, then the new card", async ({
  page,
}) => {
  await openDataSources(page);
  const name = uniqueName("Paint shop");
  await page.getByRole("button", { name: "Add data source" }).click();
  const dialog = page.getByRole("dialog", { name: /Add data source/ });
  await expect(dialog).toBeVisible();

  // Nothing typed: both fields are required.
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await expect(dialog.getByText("Topic is required")).toBeVisible();

  // '#' must be the last level.
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("MQTT topic filter").fill("paint/#/records");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(dialog.getByText(/Topic must be a valid MQTT topic filter/)).toBeVisible();
  await expect(dialog.getByLabel("MQTT topic filter")).toHaveAttribute("aria-invalid", "true");

  // A name the plant already uses (letter case ignored) comes back as 409, shown under Name.
  await dialog.getByLabel("MQTT topic filter").fill("paint/+/records");
  await dialog.getByLabel("Name").fill("LINE SIMULATOR");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(dialog.getByText("A data source with this name already exists for this plant")).toBeVisible();

  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Data source added")).toBeVisible();
  const c = card(page, name);
  await expect(c.getByText("paint/+/records", { exact: true })).toBeVisible();
  await expect(c.locator("time")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+$/);
});

test("a dirty add dialog asks before it closes; a clean one just closes", async ({ page }) => {
  await openDataSources(page);
  await page.getByRole("button", { name: "Add data source" }).click();
  const dialog = page.getByRole("dialog", { name: /Add data source/ });
  // The dialog's code loads with its first opening (issue #17): Escape once it is shown.
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Add data source" }).click();
  await dialog.getByLabel("Name").fill("Half typed");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const discard = page.getByRole("dialog", { name: "Discard this data source?" });
  await expect(discard).toBeVisible();
  await discard.getByRole("button", { name: "Keep editing" }).click();
  await expect(dialog.getByLabel("Name")).toHaveValue("Half typed");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await discard.getByRole("button", { name: "Discard" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("article", { name: "Half typed" })).toHaveCount(0);
});

test("Insight opens the relative insight-mapping path with the source's details", async ({ page }) => {
  await openDataSources(page);
  const source = await addSourceByApi(page, uniqueName("Insight"), "insight/#");
  await page.getByRole("button", { name: "Refresh" }).click();
  await card(page, source.name).getByRole("button", { name: "Insight", exact: true }).click();

  await expect(page).toHaveURL(
    new RegExp(`/settings/insight-mapping\\?sourceId=${source.id}&mappingVersion=$`),
  );
  await expect(page.getByRole("heading", { name: `Insight mapping : ${source.name}` })).toBeVisible();
  await expect(page.getByText("insight/#", { exact: true })).toBeVisible();
  await expect(page.getByText(source.ingestorId, { exact: true })).toBeVisible();
  await expect(page.getByText(/Field mapping arrives with ingestion/)).toBeVisible();

  await page.getByRole("link", { name: "Back to Data Sources" }).click();
  await expect(page).toHaveURL(/\/settings\?section=DATA_SOURCES$/);
  await expect(card(page, source.name)).toBeVisible();
});

test("the insight page says when the source does not exist", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings/insight-mapping?sourceId=00000000-0000-4000-8000-000000000000&mappingVersion=");
  await expect(page.getByText("Data source not found")).toBeVisible();
  await page.goto("/settings/insight-mapping?sourceId=not-an-id&mappingVersion=");
  await expect(page.getByText("Data source not found")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Data Sources" })).toBeVisible();
});

test("Refresh fetches sources added elsewhere", async ({ page }) => {
  await openDataSources(page);
  const name = uniqueName("Added elsewhere");
  await expect(page.getByTestId("data-source-card").first()).toBeVisible();
  await expect(card(page, name)).toHaveCount(0);
  await addSourceByApi(page, name);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(card(page, name)).toBeVisible();
});

test("deletes a source after confirmation, says so and refreshes the list", async ({ page }) => {
  await openDataSources(page);
  const source = await addSourceByApi(page, uniqueName("To delete"), "delete/me");
  await page.getByRole("button", { name: "Refresh" }).click();

  // Cancel first: nothing happens.
  await card(page, source.name)
    .getByRole("button", { name: `Delete data source ${source.name}` })
    .click();
  const confirm = page.getByRole("dialog", { name: `Delete Source : ${source.name}` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(card(page, source.name)).toBeVisible();

  await card(page, source.name)
    .getByRole("button", { name: `Delete data source ${source.name}` })
    .click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Source was deleted Successfully")).toBeVisible();
  await expect(card(page, source.name)).toHaveCount(0);
  expect((await page.request.get(`/api/data-sources/${source.id}`)).status()).toBe(404);
});

test("a failed delete shows an error modal with Status and statusText, and keeps the source", async ({
  page,
}) => {
  await openDataSources(page);
  const source = await addSourceByApi(page, uniqueName("Stays"), "stays/#");
  await page.route("**/api/data-sources/*", (route) =>
    route.request().method() === "DELETE"
      ? route.fulfill({ status: 500, json: { message: "Internal server error" } })
      : route.fallback(),
  );
  await page.getByRole("button", { name: "Refresh" }).click();
  await card(page, source.name)
    .getByRole("button", { name: `Delete data source ${source.name}` })
    .click();
  await page
    .getByRole("dialog", { name: `Delete Source : ${source.name}` })
    .getByRole("button", { name: "Delete" })
    .click();

  const modal = page.getByRole("dialog", { name: `Unable to Delete Source : ${source.name}` });
  await expect(modal).toBeVisible();
  await expect(modal.getByText("Status: 500", { exact: true })).toBeVisible();
  await expect(modal.getByText("Internal Server Error", { exact: true })).toBeVisible();
  await expect(page.getByText("Source was deleted Successfully")).toHaveCount(0);
  await modal.getByRole("button", { name: "Ok" }).click();
  await expect(modal).toBeHidden();
  await expect(card(page, source.name)).toBeVisible();
});

test("a failed list load shows 'Fetch Sources Error' with the status, and Retry loads it", async ({
  page,
}) => {
  let failing = true;
  await page.route("**/api/plants/*/data-sources", (route) =>
    failing && route.request().method() === "GET"
      ? route.fulfill({ status: 503, json: { message: "Service unavailable" } })
      : route.fallback(),
  );
  await openDataSources(page);
  const alert = page.getByRole("alert").filter({ hasText: "Fetch Sources Error" });
  await expect(alert).toBeVisible();
  await expect(alert.getByText("Status : 503", { exact: true })).toBeVisible();
  await expect(alert.getByText("Error fetching datasources", { exact: true })).toBeVisible();
  await expect(page.getByTestId("data-source-card")).toHaveCount(0);

  failing = false;
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(alert).toBeHidden();
  await expect(page.getByTestId("data-source-card").first()).toBeVisible();
});

test("a failed ingestor fetch shows 'Error fetching ingestor' and the list still loads", async ({ page }) => {
  await page.route("**/api/plants/*/ingestor", (route) =>
    route.fulfill({ status: 500, json: { message: "Internal server error" } }),
  );
  await openDataSources(page);
  await expect(page.getByText("Error fetching ingestor")).toBeVisible();
  await expect(page.getByTestId("data-source-card").first()).toBeVisible();
});

test("the screen works from the keyboard: add dialog, Insight and delete are reachable", async ({ page }) => {
  await openDataSources(page);
  const name = uniqueName("Keyboard");
  await page.getByRole("button", { name: "Add data source" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /Add data source/ });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("MQTT topic filter")).toBeFocused();
  await page.keyboard.type("keys/#");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();

  const c = card(page, name);
  await c.getByRole("button", { name: "Insight", exact: true }).focus();
  await page.keyboard.press("Tab");
  await expect(c.getByRole("button", { name: `Delete data source ${name}` })).toBeFocused();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog", { name: `Delete Source : ${name}` });
  await expect(confirm.getByRole("button", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Source was deleted Successfully")).toBeVisible();
  await expect(c).toHaveCount(0);
});

test("without a plant the screen says a plant is needed", async ({ page }) => {
  await page.route("**/api/plants", (route) => route.fulfill({ json: [] }));
  await openDataSources(page);
  await expect(page.getByText("Plant ID is required to fetch ingestors.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add data source" })).toBeDisabled();
});

test("a plain user cannot open the insight page: back to Settings", async ({ page }) => {
  await signIn(page, "user");
  await page.goto("/settings/insight-mapping?sourceId=00000000-0000-4000-8000-000000000000&mappingVersion=");
  await expect(page).toHaveURL(/\/settings\?section=/);
  await expect(page.getByRole("heading", { name: /Insight mapping/ })).toHaveCount(0);
});
