import { BACKTEST_TEXTS } from "@linewatch/contracts";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// The monitor form's Backtest panel (issue #18 §1) on the demo line: a new SVD monitor is replayed
// over the last 7 days of the demo's records, and asked again when its sensitivity changes.

async function axleLineId(page: Page): Promise<string> {
  const plants = await (await page.request.get("/api/plants")).json();
  const detroit = plants.find((p: { name: string }) => p.name === "Detroit Assembly");
  const lines = await (await page.request.get(`/api/plants/${detroit.id}/lines`)).json();
  return lines.find((l: { name: string }) => l.name === "Axle Assembly").id;
}

const SUMMARY = /would have opened \d+ alerts? in the last 7 days \(\d+ breaching evaluations of \d+\)/;

test("a new SVD monitor's backtest says what it would have done, and runs again when the sensitivity changes", async ({
  page,
}) => {
  await signIn(page, "user");
  await page.goto(`/lines/${await axleLineId(page)}`);
  await page.getByRole("link", { name: "New SVD monitor" }).click();
  await expect(page.getByRole("tab", { name: "Data Filters", selected: true })).toBeVisible();
  await expect(page.getByText(BACKTEST_TEXTS.blocked.signals)).toBeVisible();

  await page.getByRole("tab", { name: "Signals" }).click();
  const search = page.getByLabel("Search signals");
  await search.fill("Press Depth");
  await page.getByRole("treeitem", { name: "Press Depth", exact: true }).first().click();
  await page.getByRole("tab", { name: "Data Filters" }).click();

  const panel = page.getByRole("region", { name: BACKTEST_TEXTS.title });
  await expect(panel.getByTestId("backtest-summary")).toHaveText(SUMMARY, { timeout: 30_000 });

  const again = page.waitForRequest(
    (r) =>
      r.url().endsWith("/api/monitors/backtest") &&
      r.postDataJSON()?.task?.task_details?.alert_threshold === "HIGH",
  );
  await page.getByRole("button", { name: "High" }).click();
  await again;
  await expect(panel.getByTestId("backtest-summary")).toHaveText(SUMMARY, { timeout: 30_000 });
});
