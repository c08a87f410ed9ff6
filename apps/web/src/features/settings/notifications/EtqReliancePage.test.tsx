import {
  ETQ_MESSAGES,
  INTEGRATION_MESSAGES as M,
  SETTINGS_GRID_PAGE_SIZE,
  SETTINGS_KIT_MESSAGES,
  type TLine,
  type TRelianceConfig,
  type TRelianceConfigBody,
} from "@linewatch/contracts";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
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
import { EtqReliancePage } from "./EtqReliancePage";
import { line, me, plant } from "./notifications.fixtures";

installGridLayout();

const paint = line(1, "Paint");
const body = line(2, "Body");
const weld = line(3, "Weld");
/** The plant's lines (a test about paging gives it more). */
let plantLines: TLine[] = [paint, body, weld];

let isAdmin = true;
let configs: Record<string, TRelianceConfig>;
const posts: { lineId: string; body: TRelianceConfigBody }[] = [];
let refuseSave: string | null = null;
/** Holds the answer of a save or delete until released (the overlays are seen meanwhile). */
let gate: Promise<void> | null = null;

const config = (l: TLine, connectionStatus: TRelianceConfig["connectionStatus"]): TRelianceConfig => ({
  id: `00000000-0000-4000-8000-0000000000${l.id.slice(-2)}`.slice(0, 36),
  lineId: l.id,
  apiHost: "https://etq.example.com/api",
  clientId: "linewatch",
  tokenEndpoint: "https://login.example.com/token",
  connectionStatus,
  updatedTime: "2026-11-20T08:30:00Z",
  hasClientSecret: true,
  lastTest: null,
});

const server = setupSettingsServer(
  { me: () => ({ ...me, isAdministrator: isAdmin }), plants: [plant], lines: () => plantLines },
  mockApi.get("*/api/reliance-configuration/plants/:plantId", () => HttpResponse.json(configs)),
  mockApi.get("*/api/notifications/delivery-health/plants/:plantId", () => HttpResponse.json([])),
  mockApi.post("*/api/reliance-configuration/lines/:lineId/test", ({ params }) => {
    const c = configs[String(params.lineId)];
    if (!c) return refusal(404, { message: ETQ_MESSAGES.notFound });
    const answer = { ok: false, httpStatus: 401, message: "The ETQ token URL answered 401" };
    configs[c.lineId] = {
      ...c,
      connectionStatus: "ERROR",
      lastTest: { at: "2026-11-22T11:00:00Z", ...answer },
    };
    return HttpResponse.json(answer);
  }),
  mockApi.post("*/api/reliance-configuration/lines/:lineId", async ({ request, params }) => {
    const b = JSON.parse(await request.text()) as TRelianceConfigBody;
    await gate;
    if (refuseSave) return refusal(400, { message: refuseSave });
    const lineId = String(params.lineId);
    posts.push({ lineId, body: b });
    const { clientSecret: _, ...visible } = b;
    configs[lineId] = {
      ...(configs[lineId] ?? config([paint, body, weld].find((l) => l.id === lineId) as TLine, null)),
      ...visible,
      connectionStatus: null,
      updatedTime: "2026-11-22T10:15:00Z",
    };
    return HttpResponse.json(configs[lineId]);
  }),
  mockApi.delete("*/api/reliance-configuration/lines/:lineId", async ({ params }) => {
    await gate;
    delete configs[String(params.lineId)];
    return new HttpResponse(null, { status: 204 });
  }),
);

function renderPage(o: { admin?: boolean; configs?: Record<string, TRelianceConfig>; lines?: TLine[] } = {}) {
  plantLines = o.lines ?? [paint, body, weld];
  isAdmin = o.admin ?? true;
  configs = o.configs ?? { [paint.id]: config(paint, "SUCCESS"), [weld.id]: config(weld, "ERROR") };
  posts.length = 0;
  refuseSave = null;
  gate = null;
  return renderSettingsPage(<EtqReliancePage />, { section: "ETQ_RELIANCE" });
}

const rowOf = async (name: string) => {
  const cell = await screen.findByRole("gridcell", { name });
  const row = cell.closest('[role="row"]');
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${name}`);
  return row;
};
const field = (form: HTMLElement, label: string) =>
  within(form).getByLabelText(label, { exact: false }) as HTMLInputElement;

/** A promise held open until `release` is called. */
function hold() {
  let release = () => {};
  gate = new Promise<void>((r) => {
    release = r;
  });
  return () => release();
}

describe("EtqReliancePage", { timeout: 30_000 }, () => {
  it("lists every line with its connection chip; Delete only when configured", async () => {
    renderPage();
    expect(await screen.findByRole("heading", { name: ETQ_MESSAGES.title })).toBeInTheDocument();
    const paintRow = await rowOf("Paint");
    expect(within(paintRow).getByText(M.connectionActive)).toBeInTheDocument();
    expect(within(paintRow).getByText("2026-11-20 08:30:00 UTC")).toBeInTheDocument();
    expect(within(await rowOf("Weld")).getByText(M.connectionFailed)).toBeInTheDocument();
    const bodyRow = await rowOf("Body");
    expect(within(bodyRow).getByText(M.notConfigured)).toBeInTheDocument();
    expect(within(bodyRow).getByRole("button", { name: "Edit Body" })).toBeInTheDocument();
    expect(within(bodyRow).queryByRole("button", { name: "Delete Body" })).not.toBeInTheDocument();
    expect(within(paintRow).getByRole("button", { name: "Delete Paint" })).toBeInTheDocument();
  });

  it("filters by status, with 'No ETQ configurations found' when nothing is left", async () => {
    const ue = userEvent.setup();
    renderPage();
    await rowOf("Body");
    await ue.click(screen.getByRole("button", { name: M.configured }));
    await waitFor(() => expect(screen.queryByRole("gridcell", { name: "Body" })).not.toBeInTheDocument());
    expect(await rowOf("Paint")).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: M.notConfigured }));
    expect(await rowOf("Body")).toBeInTheDocument();
    expect(screen.queryByRole("gridcell", { name: "Paint" })).not.toBeInTheDocument();

    cleanup();
    renderPage({ configs: {} });
    await rowOf("Body");
    await ue.click(screen.getByRole("button", { name: M.configured }));
    expect(await screen.findByText(ETQ_MESSAGES.empty)).toBeInTheDocument();
  });

  it("expands a row into its form, read-only, the stored secret masked", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(await screen.findByRole("button", { name: "Show ETQ configuration of Paint" }));
    const form = await screen.findByRole("group", { name: "ETQ configuration for Paint" });
    expect(field(form, "Reliance API Host")).toHaveValue("https://etq.example.com/api");
    expect(field(form, "Client ID")).toHaveValue("linewatch");
    expect(field(form, "Client Secret")).toHaveValue("••••••••");
    expect(field(form, "Token URL")).toHaveValue("https://login.example.com/token");
    expect(field(form, "Client ID").readOnly).toBe(true);
    expect(within(form).queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
  });

  it("says 'required' for a touched empty field, saves a new configuration behind 'Saving...'", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Body")).getByRole("button", { name: "Edit Body" }));
    const form = await screen.findByRole("form", { name: "ETQ configuration for Body" });
    const saveButton = within(form).getByRole("button", { name: "Save" }) as HTMLButtonElement;
    expect(saveButton).toBeDisabled();
    await ue.click(field(form, "Client ID"));
    await ue.tab();
    // Reliance API Host (focused first) and Client ID were touched; the untouched two say nothing.
    await waitFor(() => expect(within(form).getAllByText(ETQ_MESSAGES.required)).toHaveLength(2));
    expect(field(form, "Client ID")).toHaveAttribute("aria-invalid", "true");
    expect(field(form, "Token URL")).toHaveAttribute("aria-invalid", "false");

    await ue.type(field(form, "Reliance API Host"), "https://etq.example.com/api");
    await ue.type(field(form, "Client ID"), "lw");
    await ue.type(field(form, "Client Secret"), "s3cret");
    await ue.type(field(form, "Token URL"), "https://login.example.com/token");
    await waitFor(() => expect(saveButton).not.toBeDisabled());
    expect(within(form).queryByText(ETQ_MESSAGES.required)).not.toBeInTheDocument();

    const release = hold();
    await ue.click(saveButton);
    expect(await screen.findByText(ETQ_MESSAGES.saving)).toBeInTheDocument();
    release();
    await waitFor(() => expect(screen.queryByText(ETQ_MESSAGES.saving)).not.toBeInTheDocument());
    expect(posts).toEqual([
      {
        lineId: body.id,
        body: {
          apiHost: "https://etq.example.com/api",
          clientId: "lw",
          clientSecret: "s3cret",
          tokenEndpoint: "https://login.example.com/token",
        },
      },
    ]);
    await waitFor(async () =>
      expect(within(await rowOf("Body")).getByText(M.configured)).toBeInTheDocument(),
    );
    expect(await screen.findByRole("group", { name: "ETQ configuration for Body" })).toBeInTheDocument();
  });

  it("keeps the stored secret when Client Secret is left empty on edit", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Edit Paint" }));
    const form = await screen.findByRole("form", { name: "ETQ configuration for Paint" });
    expect(field(form, "Client Secret").value).toBe("");
    await ue.clear(field(form, "Client ID"));
    await ue.type(field(form, "Client ID"), "other");
    await ue.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]?.body).toEqual({
      apiHost: "https://etq.example.com/api",
      clientId: "other",
      tokenEndpoint: "https://login.example.com/token",
    });
  });

  it("shows 'Error saving configuration for {line} line' and keeps what was typed", async () => {
    const ue = userEvent.setup();
    renderPage();
    refuseSave = ETQ_MESSAGES.notHttps("Token URL");
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Edit Paint" }));
    const form = await screen.findByRole("form", { name: "ETQ configuration for Paint" });
    await ue.clear(field(form, "Token URL"));
    await ue.type(field(form, "Token URL"), "http://login.example.com/token");
    await ue.click(within(form).getByRole("button", { name: "Save" }));
    const dialog = await screen.findByRole("dialog", { name: ETQ_MESSAGES.saveFailed("Paint") });
    expect(within(dialog).getByText(ETQ_MESSAGES.notHttps("Token URL"))).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Ok" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const still = screen.getByRole("form", { name: "ETQ configuration for Paint" });
    expect(field(still, "Token URL")).toHaveValue("http://login.example.com/token");
  });

  it("Cancel asks before dropping typed changes, then goes back to view mode without saving", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Edit Paint" }));
    const form = await screen.findByRole("form", { name: "ETQ configuration for Paint" });
    await ue.type(field(form, "Client ID"), "-changed");
    await ue.click(within(form).getByRole("button", { name: "Cancel" }));
    const ask = await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle });
    await ue.click(within(ask).getByRole("button", { name: SETTINGS_KIT_MESSAGES.discardContinue }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(field(screen.getByRole("form", { name: "ETQ configuration for Paint" }), "Client ID")).toHaveValue(
      "linewatch-changed",
    );
    await ue.click(within(form).getByRole("button", { name: "Cancel" }));
    await ue.click(
      within(await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle })).getByRole(
        "button",
        { name: SETTINGS_KIT_MESSAGES.discardExit },
      ),
    );
    const view = await screen.findByRole("group", { name: "ETQ configuration for Paint" });
    expect(field(view, "Client ID")).toHaveValue("linewatch");
    expect(posts).toEqual([]);
  });

  it("collapsing the row being edited asks the same way before dropping typed changes", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Edit Paint" }));
    const form = await screen.findByRole("form", { name: "ETQ configuration for Paint" });
    await ue.type(field(form, "Client ID"), "-changed");
    const collapse = screen.getByRole("button", { name: "Hide ETQ configuration of Paint" });
    await ue.click(collapse);
    const ask = await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle });
    await ue.click(within(ask).getByRole("button", { name: SETTINGS_KIT_MESSAGES.discardContinue }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(field(screen.getByRole("form", { name: "ETQ configuration for Paint" }), "Client ID")).toHaveValue(
      "linewatch-changed",
    );

    await ue.click(screen.getByRole("button", { name: "Hide ETQ configuration of Paint" }));
    await ue.click(
      within(await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle })).getByRole(
        "button",
        { name: SETTINGS_KIT_MESSAGES.discardExit },
      ),
    );
    await waitFor(() =>
      expect(screen.queryByRole("form", { name: "ETQ configuration for Paint" })).not.toBeInTheDocument(),
    );
    // Expanded again, the row shows the stored configuration in view mode.
    await ue.click(await screen.findByRole("button", { name: "Show ETQ configuration of Paint" }));
    const view = await screen.findByRole("group", { name: "ETQ configuration for Paint" });
    expect(field(view, "Client ID")).toHaveValue("linewatch");
    expect(posts).toEqual([]);
  });

  it("asks before leaving the section with typed changes, and holds 25 lines a page", async () => {
    const ue = userEvent.setup();
    const many = Array.from({ length: 30 }, (_, i) =>
      testLine({
        id: `00000000-0000-4000-8000-0000000002${String(i).padStart(2, "0")}`,
        plantId: plant.id,
        name: `Line ${i + 1}`,
      }),
    );
    const { router } = renderPage({ lines: many, configs: {} });
    await rowOf("Line 1");
    expect(screen.getByText(`1–${SETTINGS_GRID_PAGE_SIZE} of 30`)).toBeInTheDocument();
    await ue.click(within(await rowOf("Line 1")).getByRole("button", { name: "Edit Line 1" }));
    const form = await screen.findByRole("form", { name: "ETQ configuration for Line 1" });
    await ue.type(field(form, "Client ID"), "typed");
    await act(() => router.navigate("/settings?section=MS_TEAMS"));
    await ue.click(
      within(await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle })).getByRole(
        "button",
        { name: SETTINGS_KIT_MESSAGES.discardExit },
      ),
    );
    expect(await screen.findByText(LEFT_SETTINGS_TEXT)).toBeInTheDocument();
    expect(posts).toEqual([]);
  });

  it("deletes after the confirmation, behind 'Deleting ETQ integration...'", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: "Delete Paint" }));
    const dialog = await screen.findByRole("dialog", { name: ETQ_MESSAGES.deleteConfirm });
    const release = hold();
    await ue.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText(ETQ_MESSAGES.deleting)).toBeInTheDocument();
    release();
    await waitFor(async () =>
      expect(within(await rowOf("Paint")).getByText(M.notConfigured)).toBeInTheDocument(),
    );
    expect(configs[paint.id]).toBeUndefined();
  });

  it("tests the connection and shows 'Connection Failed' with the outcome on the row", async () => {
    const ue = userEvent.setup();
    renderPage();
    await ue.click(within(await rowOf("Paint")).getByRole("button", { name: `${M.testConnection} Paint` }));
    await waitFor(async () =>
      expect(within(await rowOf("Paint")).getByText(M.connectionFailed)).toBeInTheDocument(),
    );
    expect(within(await rowOf("Paint")).getByTestId("last-test").textContent).toBe(
      "Last test failed: The ETQ token URL answered 401",
    );
  });

  it("shows 'Error Loading Data' when the configurations do not load, and says when health does not", async () => {
    server.use(
      mockApi.get("*/api/reliance-configuration/plants/:plantId", () => refusal(500, { message: "boom" })),
      mockApi.get("*/api/notifications/delivery-health/plants/:plantId", () =>
        refusal(500, { message: "boom" }),
      ),
    );
    renderPage();
    expect(await screen.findByText(SETTINGS_KIT_MESSAGES.errorLoadingData)).toBeInTheDocument();
    expect(await screen.findByText(M.healthError)).toBeInTheDocument();
  });

  it("shows a user the grid read-only: no edit, delete or test; the form stays read-only", async () => {
    const ue = userEvent.setup();
    renderPage({ admin: false });
    expect(await screen.findByText(M.readOnly)).toBeInTheDocument();
    const paintRow = await rowOf("Paint");
    expect(within(paintRow).getByText(M.connectionActive)).toBeInTheDocument();
    for (const name of [/^Edit/, /^Delete/, new RegExp(`^${M.testConnection}`)]) {
      expect(screen.queryAllByRole("button", { name })).toEqual([]);
    }
    await ue.click(await screen.findByRole("button", { name: "Show ETQ configuration of Paint" }));
    const view = await screen.findByRole("group", { name: "ETQ configuration for Paint" });
    expect(field(view, "Client Secret")).toHaveValue("••••••••");
  });
});
