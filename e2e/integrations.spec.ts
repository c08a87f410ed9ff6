import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  ALERT_NO_CAUSE,
  ETQ_MESSAGES,
  INTEGRATION_MESSAGES as M,
  SETTINGS_KIT_MESSAGES,
  type TAlert,
  TEAMS_MESSAGES,
} from "@linewatch/contracts";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, expectSnackbar, openSettings, setFlag, signIn, test } from "./fixtures";

// Settings → Microsoft Teams and ETQ Reliance (requirements.md settings §2.2, §2.3, §4, §5, §8; issue #13)
// against local fake Teams and ETQ servers (the e2e server allows loopback: ALLOW_LOOPBACK_OUTBOUND).

const LINE = "Rear Axle";
/** A demo line without records: no alert's delivery changes its ETQ connection status mid-test. */
const QUIET_LINE = "Brake Module";
const RIGHT_SECRET = "right-secret";

type Received = { path: string; body: string };

/** A fake Teams webhook (/hook) and ETQ Reliance (/token, /api, /api/documents) on loopback. */
async function startFake() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, body });
      if (path === "/hook") return res.writeHead(200).end();
      if (path === "/token") {
        if (new URLSearchParams(body).get("client_secret") !== RIGHT_SECRET) {
          return res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_client"}');
        }
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ access_token: "tok", expires_in: 3600 }));
      }
      if (path === "/api")
        return res.writeHead(req.headers.authorization === "Bearer tok" ? 200 : 401).end("{}");
      if (path === "/api/documents") {
        return res
          .writeHead(201, { "content-type": "application/json" })
          .end(JSON.stringify({ id: "DOC-1" }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const teamsGrid = (page: Page) => page.getByRole("grid", { name: M.teamsTitle });
const etqGrid = (page: Page) => page.getByRole("grid", { name: ETQ_MESSAGES.title });
const rowIn = (grid: ReturnType<typeof teamsGrid>, line: string) =>
  grid.getByRole("row").filter({ has: grid.page().getByRole("gridcell", { name: line, exact: true }) });

/** The Teams card text of a received POST, or "" when it is not a Teams message. */
function cardText(r: Received): string {
  try {
    const msg = JSON.parse(r.body) as { attachments?: { content?: { body?: { text?: string }[] } }[] };
    return (msg.attachments?.[0]?.content?.body ?? []).map((b) => b.text ?? "").join(" | ");
  } catch {
    return "";
  }
}

/** Resolves every open or acknowledged alert of the demo line with this friendly name. */
async function resolveOpenAlerts(page: Page, friendlyName: string) {
  const plants = (await (await page.request.get("/api/plants")).json()) as { id: string }[];
  for (const plant of plants) {
    const lines = (await (await page.request.get(`/api/plants/${plant.id}/lines`)).json()) as {
      id: string;
      friendlyName: string | null;
    }[];
    for (const line of lines.filter((l) => l.friendlyName === friendlyName)) {
      const alerts = (await (await page.request.get(`/api/lines/${line.id}/alerts`)).json()) as TAlert[];
      for (const alert of alerts.filter((a) => a.state !== "RESOLVED")) {
        const res = await page.request.post(`/api/alerts/${alert.id}/resolve`, {
          data: { cause: ALERT_NO_CAUSE },
        });
        // 409: the worker resolved it meanwhile (three evaluations without a breach).
        expect([200, 409], await res.text()).toContain(res.status());
      }
    }
  }
}

test("an administrator configures Teams, sends a test message, sees an alert's card arrive, and deletes it", async ({
  page,
}) => {
  // The wait below is for the demo's next breach on the line after its open alerts are resolved:
  // its monitors evaluate every 5 s, and at load 13 a monitor save alone took over 10 s.
  test.setTimeout(240_000);
  const fake = await startFake();
  try {
    await signIn(page, "admin");
    await openSettings(page, "Microsoft Teams");
    const grid = teamsGrid(page);
    const row = rowIn(grid, LINE);
    await expect(row.getByText(M.notConfigured)).toBeVisible();

    // A blank URL is refused, then a refused URL keeps what was typed with the reason under it.
    await row.getByRole("button", { name: `Edit ${LINE}` }).click();
    const input = page.getByRole("textbox", { name: M.webhookUrl });
    await expect(input).toBeFocused();
    await input.press("Enter");
    await expectSnackbar(page, TEAMS_MESSAGES.urlBlank);
    await input.fill("https://example.com/hook");
    await input.press("Enter");
    await expectSnackbar(page, TEAMS_MESSAGES.saveFailed);
    await expect(grid.getByText(TEAMS_MESSAGES.notWorkflows)).toBeVisible();
    await expect(input).toHaveValue("https://example.com/hook");

    // Leaving the section with the row open asks first; Continue Editing keeps what was typed.
    await page
      .getByRole("navigation", { name: "Settings" })
      .getByRole("button", { name: "Line Management", exact: true })
      .click();
    const ask = page.getByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle });
    await ask.getByRole("button", { name: SETTINGS_KIT_MESSAGES.discardContinue }).click();
    await expect(ask).toHaveCount(0);
    await expect(input).toHaveValue("https://example.com/hook");

    await input.fill(`${fake.url}/hook`);
    await input.press("Enter");
    await expectSnackbar(page, TEAMS_MESSAGES.configured(LINE));
    await expect(row.getByText(M.configured)).toBeVisible();
    // Only the host of the stored URL is shown.
    await expect(row.getByText(new URL(fake.url).host)).toBeVisible();
    await expect(page.getByText(`${fake.url}/hook`)).toHaveCount(0);

    await row.getByRole("button", { name: `${M.sendTest} ${LINE}` }).click();
    await expect(row.getByTestId("last-test")).toHaveText(M.testOutcome(true, 200, TEAMS_MESSAGES.testSent));
    expect(
      fake.received.some((r) => r.path === "/hook" && cardText(r).includes("Linewatch test message")),
    ).toBe(true);

    // The demo line's monitors keep breaching (its press runs at Ppk about 1.0, so its capability
    // monitor breaches in about 4 of 10 evaluations), but an open alert takes further firings in:
    // a card comes with the next alert *opened*. Resolving the line's open alerts, as a user would,
    // makes the next firing open one.
    await resolveOpenAlerts(page, LINE);
    await expect
      .poll(
        () =>
          fake.received.filter((r) => r.path === "/hook" && !cardText(r).includes("Linewatch test message"))
            .length,
        { timeout: 150_000, intervals: [1_000] },
      )
      .toBeGreaterThan(0);
    // Its delivery shows on the row.
    await page.reload();
    await expect(
      rowIn(teamsGrid(page), LINE).getByText(new RegExp(`^${M.lastDelivery}: ${M.delivered}`)),
    ).toBeVisible();

    await rowIn(teamsGrid(page), LINE)
      .getByRole("button", { name: `Delete ${LINE}` })
      .click();
    const dialog = page.getByRole("dialog", { name: TEAMS_MESSAGES.deleteTitle });
    await expect(dialog.getByText(TEAMS_MESSAGES.deleteText(LINE))).toBeVisible();
    await expectAccessible(page, "Teams delete confirmation", dialog);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expectSnackbar(page, TEAMS_MESSAGES.deleted(LINE));
    await expect(rowIn(teamsGrid(page), LINE).getByText(M.notConfigured)).toBeVisible();
  } finally {
    await fake.close();
  }
});

test("an administrator configures ETQ, sees 'Connection Failed' on a 401, fixes the secret and sees 'Connection Active'", async ({
  page,
}) => {
  const fake = await startFake();
  try {
    await signIn(page, "admin");
    await setFlag(page, "etqIntegration", true);
    await openSettings(page, "ETQ Reliance");
    await expect(page.getByRole("heading", { name: ETQ_MESSAGES.title })).toBeVisible();
    const grid = etqGrid(page);
    const row = rowIn(grid, QUIET_LINE);
    await expect(row.getByText(M.notConfigured)).toBeVisible();

    await row.getByRole("button", { name: `Edit ${QUIET_LINE}` }).click();
    const form = page.getByRole("form", { name: `ETQ configuration for ${QUIET_LINE}` });
    await form.getByLabel("Reliance API Host").fill(`${fake.url}/api`);
    await form.getByLabel("Client ID").fill("linewatch");
    await form.getByLabel("Client Secret").fill("wrong-secret");
    await form.getByLabel("Token URL").fill(`${fake.url}/token`);
    await expectAccessible(page, "ETQ configuration form", form);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("group", { name: `ETQ configuration for ${QUIET_LINE}` })).toBeVisible();
    await expect(page.getByRole("group").getByLabel("Client Secret")).toHaveValue("••••••••");

    await row.getByRole("button", { name: `${M.testConnection} ${QUIET_LINE}` }).click();
    await expect(row.getByText(M.connectionFailed)).toBeVisible();
    await expect(row.getByTestId("last-test")).toContainText("401");

    // Fix the secret; the other fields are kept.
    await row.getByRole("button", { name: `Edit ${QUIET_LINE}` }).click();
    await form.getByLabel("Client Secret").fill(RIGHT_SECRET);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("group", { name: `ETQ configuration for ${QUIET_LINE}` })).toBeVisible();
    await row.getByRole("button", { name: `${M.testConnection} ${QUIET_LINE}` }).click();
    await expect(row.getByText(M.connectionActive)).toBeVisible();
    await expect(row.getByTestId("last-test")).toHaveText(M.testOutcome(true, 200, ETQ_MESSAGES.connected));

    await row.getByRole("button", { name: `Delete ${QUIET_LINE}` }).click();
    const confirmDelete = page.getByRole("dialog", { name: ETQ_MESSAGES.deleteConfirm });
    await expect(confirmDelete).toBeVisible();
    await expectAccessible(page, "ETQ delete confirmation", confirmDelete);
    await confirmDelete.getByRole("button", { name: "Delete" }).click();
    await expect(row.getByText(M.notConfigured)).toBeVisible();
  } finally {
    await fake.close();
  }
});

test("a user sees both integrations pages read-only, without a refused call", async ({ page }) => {
  const refused: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 403) refused.push(r.url());
  });
  await signIn(page, "user");
  await setFlag(page, "etqIntegration", true);
  await openSettings(page, "Microsoft Teams");
  await expect(page.getByText(M.readOnly)).toBeVisible();
  const teams = rowIn(teamsGrid(page), LINE);
  await expect(teams.getByRole("gridcell", { name: LINE, exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: `Edit ${LINE}` })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `${M.sendTest} ${LINE}` })).toHaveCount(0);

  await openSettings(page, "ETQ Reliance");
  await expect(page.getByRole("heading", { name: ETQ_MESSAGES.title })).toBeVisible();
  await expect(page.getByText(M.readOnly)).toBeVisible();
  await expect(rowIn(etqGrid(page), LINE).getByRole("gridcell", { name: LINE, exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: `Edit ${LINE}` })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Delete ${LINE}` })).toHaveCount(0);
  expect(refused).toEqual([]);
});
