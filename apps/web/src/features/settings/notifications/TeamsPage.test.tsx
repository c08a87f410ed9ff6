import {
  INTEGRATION_MESSAGES as M,
  SETTINGS_GRID_PAGE_SIZE,
  SETTINGS_KIT_MESSAGES,
  type TDeliveryHealth,
  TEAMS_MESSAGES,
  type TLine,
  type TTeamsWebhook,
} from "@linewatch/contracts";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { testLine } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import {
  installGridLayout,
  LEFT_SETTINGS_TEXT,
  renderSettingsPage,
  setupSettingsServer,
} from "../../../test/renderSettingsPage";
import { line, me, plant } from "./notifications.fixtures";
import { TeamsPage } from "./TeamsPage";

installGridLayout();

const paint = line(1, "Paint");
const body = line(2, "Body");
/** The plant's lines (a test about paging gives it more). */
let plantLines: TLine[] = [paint, body];

let isAdmin = true;
let webhooks: TTeamsWebhook[];
let health: TDeliveryHealth[];
const puts: { lineId: string; url: string }[] = [];
const tests: string[] = [];
let testAnswer: { ok: boolean; httpStatus: number; message: string } = {
  ok: true,
  httpStatus: 202,
  message: TEAMS_MESSAGES.testSent,
};

const server = setupSettingsServer(
  { me: () => ({ ...me, isAdministrator: isAdmin }), plants: [plant], lines: () => plantLines },
  mockApi.get("*/api/notifications/teams-webhooks/plants/:plantId", () => HttpResponse.json(webhooks)),
  mockApi.get("*/api/notifications/delivery-health/plants/:plantId", () => HttpResponse.json(health)),
  mockApi.put(
    "*/api/notifications/teams-webhooks/plants/:plantId/lines/:lineId",
    async ({ request, params }) => {
      const { url } = JSON.parse(await request.text()) as { url: string };
      if (!url.startsWith("https://")) {
        return refusal(400, { message: TEAMS_MESSAGES.notHttps });
      }
      puts.push({ lineId: String(params.lineId), url });
      const hook: TTeamsWebhook = {
        id: "00000000-0000-4000-8000-000000000099",
        lineId: String(params.lineId),
        lastModifiedDateTime: "2026-11-22T10:15:00Z",
        urlHost: new URL(url).host,
        lastTest: null,
      };
      webhooks = [...webhooks.filter((w) => w.lineId !== hook.lineId), hook];
      return HttpResponse.json(hook);
    },
  ),
  mockApi.delete("*/api/notifications/teams-webhooks/:id", ({ params }) => {
    webhooks = webhooks.filter((w) => w.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  mockApi.post("*/api/notifications/teams-webhooks/:id/test", ({ params }) => {
    tests.push(String(params.id));
    webhooks = webhooks.map((w) =>
      w.id === params.id ? { ...w, lastTest: { at: "2026-11-22T11:00:00Z", ...testAnswer } } : w,
    );
    return HttpResponse.json(testAnswer);
  }),
);

const configured: TTeamsWebhook = {
  id: "00000000-0000-4000-8000-000000000050",
  lineId: paint.id,
  lastModifiedDateTime: "2026-11-20T08:30:00Z",
  urlHost: "prod-01.westeurope.logic.azure.com",
  lastTest: null,
};

function renderPage(o: { admin?: boolean; health?: TDeliveryHealth[]; lines?: TLine[] } = {}) {
  plantLines = o.lines ?? [paint, body];
  isAdmin = o.admin ?? true;
  webhooks = [configured];
  health = o.health ?? [];
  puts.length = 0;
  tests.length = 0;
  testAnswer = { ok: true, httpStatus: 202, message: TEAMS_MESSAGES.testSent };
  return renderSettingsPage(<TeamsPage />, { section: "MS_TEAMS" });
}

const rowOf = async (name: string) => {
  const cell = await screen.findByRole("gridcell", { name });
  const row = cell.closest('[role="row"]');
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${name}`);
  return row;
};

describe("TeamsPage", { timeout: 30_000 }, () => {
  it("shows one row per line, sorted by line, with date, status and the host only", async () => {
    renderPage();
    const grid = await screen.findByRole("grid", { name: M.teamsTitle });
    await within(grid).findByText("prod-01.westeurope.logic.azure.com");
    const rows = within(grid).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("gridcell")[0]?.textContent)).toEqual(["Body", "Paint"]);
    const paintRow = await rowOf("Paint");
    expect(within(paintRow).getByText(M.configured)).toBeInTheDocument();
    expect(within(paintRow).getByText("2026-11-20 08:30:00 UTC")).toBeInTheDocument();
    const bodyRow = await rowOf("Body");
    expect(within(bodyRow).getByText(M.notConfigured)).toBeInTheDocument();
    // Delete and the test message only where a webhook is configured.
    expect(within(bodyRow).queryByRole("button", { name: "Delete Body" })).not.toBeInTheDocument();
    expect(within(bodyRow).queryByRole("button", { name: `${M.sendTest} Body` })).not.toBeInTheDocument();
    expect(within(paintRow).getByRole("button", { name: "Delete Paint" })).toBeInTheDocument();
  });

  it("refuses a blank URL with 'URL cannot be blank' and sends nothing", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Body")).getByRole("button", { name: "Edit Body" }));
    const input = await screen.findByRole("textbox", { name: M.webhookUrl });
    expect((input as HTMLInputElement).value).toBe("");
    await ue.click(screen.getByRole("button", { name: "Save Body" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", TEAMS_MESSAGES.urlBlank);
    expect(screen.getAllByText(TEAMS_MESSAGES.urlBlank).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole("textbox", { name: M.webhookUrl })).toBeInTheDocument();
    expect(puts).toEqual([]);
  });

  it("keeps a refused URL with the server's reason under it, then saves a good one", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Body")).getByRole("button", { name: "Edit Body" }));
    const input = await screen.findByRole("textbox", { name: M.webhookUrl });
    await ue.type(input, "http://prod.logic.azure.com/x{Enter}");
    expect(await screen.findByText(TEAMS_MESSAGES.saveFailed)).toBeInTheDocument();
    expect(await screen.findByText(TEAMS_MESSAGES.notHttps)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: M.webhookUrl })).toHaveValue("http://prod.logic.azure.com/x");

    await ue.clear(screen.getByRole("textbox", { name: M.webhookUrl }));
    await ue.type(
      screen.getByRole("textbox", { name: M.webhookUrl }),
      "https://prod.logic.azure.com/x{Enter}",
    );
    expect(await screen.findByText(TEAMS_MESSAGES.configured("Body"))).toBeInTheDocument();
    expect(puts).toEqual([{ lineId: body.id, url: "https://prod.logic.azure.com/x" }]);
    await waitFor(() =>
      expect(screen.queryByRole("textbox", { name: M.webhookUrl })).not.toBeInTheDocument(),
    );
    const bodyRow = await rowOf("Body");
    await within(bodyRow).findByText(M.configured);
    expect(within(bodyRow).getByText("prod.logic.azure.com")).toBeInTheDocument();
  });

  it("Cancel closes the row without saving", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Body")).getByRole("button", { name: "Edit Body" }));
    await ue.type(await screen.findByRole("textbox", { name: M.webhookUrl }), "https://x.logic.azure.com/y");
    await ue.click(screen.getByRole("button", { name: "Cancel Body" }));
    await waitFor(() =>
      expect(screen.queryByRole("textbox", { name: M.webhookUrl })).not.toBeInTheDocument(),
    );
    expect(puts).toEqual([]);
  });

  it("asks before leaving the section with a row open; Continue Editing keeps it, Exit leaves", async () => {
    const ue = userEvent.setup();
    const { router } = renderPage();
    await ue.click(within(await rowOf("Body")).getByRole("button", { name: "Edit Body" }));
    await ue.type(await screen.findByRole("textbox", { name: M.webhookUrl }), "https://x.logic.azure.com/y");
    await act(() => router.navigate("/settings?section=USER_MANAGEMENT"));
    const ask = await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle });
    expect(within(ask).getByText(SETTINGS_KIT_MESSAGES.discardText)).toBeInTheDocument();
    await ue.click(within(ask).getByRole("button", { name: SETTINGS_KIT_MESSAGES.discardContinue }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByRole("textbox", { name: M.webhookUrl })).toHaveValue("https://x.logic.azure.com/y");

    await act(() => router.navigate("/settings?section=USER_MANAGEMENT"));
    await ue.click(
      within(await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle })).getByRole(
        "button",
        { name: SETTINGS_KIT_MESSAGES.discardExit },
      ),
    );
    expect(await screen.findByText(LEFT_SETTINGS_TEXT)).toBeInTheDocument();
    expect(puts).toEqual([]);
  });

  it("leaves without asking when no row is open, and holds 25 lines a page", async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      testLine({
        id: `00000000-0000-4000-8000-0000000002${String(i).padStart(2, "0")}`,
        plantId: plant.id,
        name: `Line ${i + 1}`,
      }),
    );
    const { router } = renderPage({ lines: many });
    await rowOf("Line 1");
    expect(screen.getByText(`1–${SETTINGS_GRID_PAGE_SIZE} of 30`)).toBeInTheDocument();
    await act(() => router.navigate("/settings?section=USER_MANAGEMENT"));
    expect(await screen.findByText(LEFT_SETTINGS_TEXT)).toBeInTheDocument();
  });

  it("deletes only after the confirmation and says so", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Delete Paint" }));
    const dialog = await screen.findByRole("dialog", { name: TEAMS_MESSAGES.deleteTitle });
    expect(within(dialog).getByText(TEAMS_MESSAGES.deleteText("Paint"))).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(webhooks).toHaveLength(1);

    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Delete Paint" }));
    await ue.click(
      within(await screen.findByRole("dialog", { name: TEAMS_MESSAGES.deleteTitle })).getByRole("button", {
        name: "Delete",
      }),
    );
    expect(await screen.findByText(TEAMS_MESSAGES.deleted("Paint"))).toBeInTheDocument();
    await waitFor(async () =>
      expect(within(await rowOf("Paint")).getByText(M.notConfigured)).toBeInTheDocument(),
    );
  });

  it("sends a test message and shows the outcome on the row, delivered or failed", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: `${M.sendTest} Paint` }));
    await waitFor(async () =>
      expect(within(await rowOf("Paint")).getByTestId("last-test").textContent).toBe(
        M.testOutcome(true, 202, TEAMS_MESSAGES.testSent),
      ),
    );
    expect(tests).toEqual([configured.id]);

    testAnswer = { ok: false, httpStatus: 400, message: "Microsoft Teams answered 400: bad card" };
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: `${M.sendTest} Paint` }));
    await waitFor(async () =>
      expect(within(await rowOf("Paint")).getByTestId("last-test").textContent).toBe(
        "Last test failed: Microsoft Teams answered 400: bad card",
      ),
    );
  });

  it("marks a line whose last delivery failed, with failures in 24 hours and alerts in retry", async () => {
    renderPage({
      health: [
        {
          lineId: paint.id,
          lastAttempt: {
            at: "2026-11-22T09:00:00Z",
            ok: false,
            httpStatus: 503,
            error: "Microsoft Teams answered 503",
          },
          failuresLast24h: 4,
          retryingAlerts: 2,
        },
        {
          lineId: body.id,
          lastAttempt: { at: "2026-11-22T09:30:00Z", ok: true, httpStatus: 202, error: null },
          failuresLast24h: 0,
          retryingAlerts: 0,
        },
      ],
    });
    const paintRow = await rowOf("Paint");
    expect(
      await within(paintRow).findByText(`${M.deliveryFailed}: Microsoft Teams answered 503`),
    ).toBeInTheDocument();
    expect(within(paintRow).getByText(`${M.failures24h(4)} · ${M.retrying(2)}`)).toBeInTheDocument();
    expect(paintRow.className).toContain("lw-row-delivery-failed");
    const bodyRow = await rowOf("Body");
    expect(
      within(bodyRow).getByText(`${M.lastDelivery}: ${M.delivered} · 2026-11-22 09:30:00 UTC`),
    ).toBeInTheDocument();
    expect(bodyRow.className).not.toContain("lw-row-delivery-failed");
  });

  it("shows 'Error Loading Data' when the webhooks do not load, and says when health does not", async () => {
    server.use(
      mockApi.get("*/api/notifications/teams-webhooks/plants/:plantId", () =>
        refusal(500, { message: "boom" }),
      ),
      mockApi.get("*/api/notifications/delivery-health/plants/:plantId", () =>
        refusal(500, { message: "boom" }),
      ),
    );
    renderPage();
    expect(await screen.findByText(SETTINGS_KIT_MESSAGES.errorLoadingData)).toBeInTheDocument();
    expect(await screen.findByText(M.healthError)).toBeInTheDocument();
  });

  it("shows a user the grid and its status read-only: no edit, delete or test", async () => {
    renderPage({ admin: false });
    expect(await screen.findByText(M.readOnly)).toBeInTheDocument();
    const paintRow = await rowOf("Paint");
    expect(within(paintRow).getByText(M.configured)).toBeInTheDocument();
    for (const name of [/^Edit/, /^Delete/, new RegExp(`^${M.sendTest}`)]) {
      expect(screen.queryAllByRole("button", { name })).toEqual([]);
    }
    expect(screen.queryByRole("columnheader", { name: "actions" })).not.toBeInTheDocument();
  });
});
