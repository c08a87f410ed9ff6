import { MONITOR_MESSAGES, type TMonitor, type TMonitorType } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import {
  installResizeObserver,
  testCustomer,
  testLine,
  testMe,
  testMonitor,
  testPlant,
} from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import type { MonitorFormProps } from "../../monitors/components/MonitorForm";
import { MvdMonitorsPage, SvdMonitorsPage } from "./MonitorsAdminPage";
import { MONITORS_ADMIN_TEXTS as T } from "./texts";

// The monitor form has its own tests; here it only shows what it was opened with and offers the
// two ways it ends (saved, or cancelled).
vi.mock("../../monitors/components/MonitorForm", () => ({
  MonitorForm: (p: MonitorFormProps) => (
    <section
      aria-label="Monitor form"
      data-type={p.type}
      data-mode={p.mode}
      data-monitor-id={p.monitorId ?? ""}
      data-line-id={p.lineId ?? ""}
    >
      <button
        type="button"
        onClick={() => {
          p.onSaved?.(p.monitorId ?? "00000000-0000-4000-8000-0000000000ff");
          p.onClose();
        }}
      >
        Save form
      </button>
      <button type="button" onClick={p.onClose}>
        Cancel form
      </button>
    </section>
  ),
}));

// jsdom has no layout: give the grid a size and a ResizeObserver so it renders its rows.
installResizeObserver();
const size = { width: 1200, height: 800, top: 0, left: 0, right: 1200, bottom: 800, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const customer = testCustomer;
const plant = testPlant({ timeZone: "UTC" });
const lineOf = (id: string, name: string) =>
  testLine({ id, plantId: plant.id, name, alertViewingWindowDays: 90 });
const line1 = lineOf("00000000-0000-4000-8000-000000000011", "Assembly");
const line2 = lineOf("00000000-0000-4000-8000-000000000012", "Paint");
const me = testMe({ selectedPlantId: plant.id, selectedLineId: line1.id });

let nextId = 100;
function monitorOf(name: string, type: TMonitorType, active: boolean, line = line1): TMonitor {
  return testMonitor(
    {
      monitor_uuid: `00000000-0000-4000-8000-000000000${nextId++}`,
      monitor_name: name,
      monitor_type: type,
      active,
    },
    { cust_uuid: customer.id, plant_uuid: plant.id, line_uuid: line.id },
  );
}

let monitors: TMonitor[];
let listRequests: string[];
let patches: { id: string; body: unknown }[];
let deletes: unknown[];
let patchStatus: number;
let deleteStatus: number;
let listStatus: number;

const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([line1, line2])),
  mockApi.get("*/api/lines/:lineId/monitors", ({ request, params }) => {
    const type = new URL(request.url).searchParams.get("type");
    listRequests.push(`${params.lineId}?type=${type}`);
    if (listStatus !== 200) return refusal(listStatus, { message: "Database unavailable" });
    // Deliberately not in name order: the page sorts.
    return HttpResponse.json(
      monitors.filter((m) => m.monitor_filter.line_uuid === params.lineId && m.monitor_type === type),
    );
  }),
  mockApi.patch("*/api/monitors/:monitorId", async ({ request, params }) => {
    const body = JSON.parse(await request.text()) as { active: boolean };
    patches.push({ id: String(params.monitorId), body });
    if (patchStatus !== 200) return refusal(patchStatus, { message: "No" });
    monitors = monitors.map((m) => (m.monitor_uuid === params.monitorId ? { ...m, active: body.active } : m));
    return HttpResponse.json(monitors.find((m) => m.monitor_uuid === params.monitorId));
  }),
  mockApi.delete("*/api/tasks", async ({ request }) => {
    const body = JSON.parse(await request.text()) as { monitor_uuid: string };
    deletes.push(body);
    if (deleteStatus !== 204) return refusal(deleteStatus, { message: "No" });
    monitors = monitors.filter((m) => m.monitor_uuid !== body.monitor_uuid);
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  monitors = [
    monitorOf("Weld SVD", "svd", false),
    monitorOf("Dryer SVD", "svd", true),
    monitorOf("Press SVD", "svd", true),
    monitorOf("Oven MVD", "mvd", true),
  ];
  listRequests = [];
  patches = [];
  deletes = [];
  patchStatus = 200;
  deleteStatus = 204;
  listStatus = 200;
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderPage(Page = SvdMonitorsPage) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <Page />
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

const grid = () => screen.getByRole("grid");
/** The monitor names in the order the grid shows them. */
const shownNames = () =>
  within(grid())
    .getAllByRole("row")
    .slice(1)
    .map((r) => r.querySelector('[data-field="monitor_name"]')?.textContent);
const activeSwitch = (name: string) =>
  screen.getByRole("switch", { name: T.activeLabel(name) }) as HTMLInputElement;
const byId = (name: string) => monitors.find((m) => m.monitor_name === name)?.monitor_uuid;

describe("Settings → SVD / MVD monitors", { timeout: 30_000 }, () => {
  it("lists the selected line's monitors of the page's type, sorted by name, with their Active state", async () => {
    renderPage();
    expect(await screen.findByText("Dryer SVD")).toBeInTheDocument();
    expect(shownNames()).toEqual(["Dryer SVD", "Press SVD", "Weld SVD"]);
    expect(screen.queryByText("Oven MVD")).not.toBeInTheDocument();
    expect(listRequests).toEqual([`${line1.id}?type=svd`]);
    expect(activeSwitch("Dryer SVD")).toBeChecked();
    expect(activeSwitch("Weld SVD")).not.toBeChecked();
    // Row height 65 (requirements.md settings §9).
    const row = within(grid()).getAllByRole("row")[1] as HTMLElement;
    expect(row.style.getPropertyValue("--height")).toBe("65px");
  });

  it("shows the empty text for a line without monitors, picked in the page's line selector", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Dryer SVD");
    await ue.click(screen.getByRole("combobox", { name: T.lineLabel }));
    await ue.click(await screen.findByRole("option", { name: "Paint" }));
    expect(await screen.findByText(T.empty("svd"))).toBeInTheDocument();
    expect(screen.queryByText("Dryer SVD")).not.toBeInTheDocument();
    expect(listRequests).toContain(`${line2.id}?type=svd`);
  });

  it("switches a monitor on, says it was saved and shows the refreshed list", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Weld SVD");
    const requestsBefore = listRequests.length;
    await ue.click(activeSwitch("Weld SVD"));
    expect(await screen.findByText(MONITOR_MESSAGES.adminSaved)).toBeInTheDocument();
    expect(patches).toEqual([{ id: byId("Weld SVD"), body: { active: true } }]);
    await waitFor(() => expect(listRequests.length).toBeGreaterThan(requestsBefore));
    expect(activeSwitch("Weld SVD")).toBeChecked();
    expect(activeSwitch("Weld SVD")).not.toBeDisabled();
  });

  it("hides the monitor saved message after 3000 ms (not the usual 3300 ms)", async () => {
    // Fake clock that also moves with real time, so the requests and the grid still run.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout"] });
    try {
      const ue = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderPage();
      await screen.findByText("Weld SVD");
      await ue.click(activeSwitch("Weld SVD"));
      await screen.findByText(MONITOR_MESSAGES.adminSaved);
      act(() => vi.advanceTimersByTime(2800));
      expect(screen.queryByText(MONITOR_MESSAGES.adminSaved)).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(300));
      expect(screen.queryByText(MONITOR_MESSAGES.adminSaved)).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("says 'Error saving monitor' when the change fails and leaves the switch as it was; nothing on 409", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Dryer SVD");
    patchStatus = 500;
    await ue.click(activeSwitch("Dryer SVD"));
    expect(await screen.findByText(MONITOR_MESSAGES.errorSaving)).toBeInTheDocument();
    expect(patches).toEqual([{ id: byId("Dryer SVD"), body: { active: false } }]);
    await waitFor(() => expect(activeSwitch("Dryer SVD")).toBeChecked());
    await ue.click(within(screen.getByRole("alert")).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByText(MONITOR_MESSAGES.errorSaving)).not.toBeInTheDocument());

    patchStatus = 409;
    await ue.click(activeSwitch("Press SVD"));
    await waitFor(() => expect(patches).toHaveLength(2));
    await waitFor(() => expect(activeSwitch("Press SVD")).not.toBeDisabled());
    expect(activeSwitch("Press SVD")).toBeChecked();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("deletes a monitor after the confirmation, with its name in the text", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Press SVD");
    await ue.click(screen.getByRole("button", { name: T.deleteLabel("Press SVD") }));
    let dialog = await screen.findByRole("dialog", { name: "Delete this monitor?" });
    expect(dialog).toHaveTextContent("You are about to permanently delete the monitor : Press SVD");
    expect(within(dialog).getByText("This is irreversible.")).toBeInTheDocument();

    // Cancel deletes nothing.
    await ue.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(deletes).toEqual([]);

    await ue.click(screen.getByRole("button", { name: T.deleteLabel("Press SVD") }));
    dialog = await screen.findByRole("dialog", { name: "Delete this monitor?" });
    const id = byId("Press SVD");
    await ue.click(within(dialog).getByRole("button", { name: T.deleteConfirm }));
    expect(await screen.findByText(T.deleted)).toBeInTheDocument();
    expect(deletes).toEqual([{ monitor_uuid: id }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByText("Press SVD")).not.toBeInTheDocument());
    expect(shownNames()).toEqual(["Dryer SVD", "Weld SVD"]);
  });

  it("says 'Error deleting monitor' when the delete fails and keeps the row", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Weld SVD");
    deleteStatus = 500;
    await ue.click(screen.getByRole("button", { name: T.deleteLabel("Weld SVD") }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this monitor?" });
    await ue.click(within(dialog).getByRole("button", { name: T.deleteConfirm }));
    expect(await screen.findByText(MONITOR_MESSAGES.errorDeleting)).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(shownNames()).toEqual(["Dryer SVD", "Press SVD", "Weld SVD"]);
  });

  it("opens the monitor in EDIT in the 'SVD Monitor Details' drawer; a save refreshes the list and closes it", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Dryer SVD");
    await ue.click(screen.getByRole("button", { name: T.editLabel("Dryer SVD") }));
    const drawer = await screen.findByRole("dialog", { name: "SVD Monitor Details" });
    const form = within(drawer).getByRole("region", { name: "Monitor form" });
    expect(form.dataset).toMatchObject({ type: "svd", mode: "EDIT", monitorId: byId("Dryer SVD") });

    const requestsBefore = listRequests.length;
    await ue.click(within(form).getByRole("button", { name: "Save form" }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: "SVD Monitor Details" })).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(listRequests.length).toBeGreaterThan(requestsBefore));
  });

  it("opens a new monitor in CREATE on the selected line from 'New monitor'", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Dryer SVD");
    await ue.click(screen.getByRole("combobox", { name: T.lineLabel }));
    await ue.click(await screen.findByRole("option", { name: "Paint" }));
    await screen.findByText(T.empty("svd"));

    await ue.click(screen.getByRole("button", { name: T.newMonitor }));
    const drawer = await screen.findByRole("dialog", { name: "SVD Monitor Details" });
    const form = within(drawer).getByRole("region", { name: "Monitor form" });
    expect(form.dataset).toMatchObject({ type: "svd", mode: "CREATE", monitorId: "", lineId: line2.id });

    await ue.click(within(form).getByRole("button", { name: "Cancel form" }));
    await waitFor(() =>
      expect(screen.queryByRole("dialog", { name: "SVD Monitor Details" })).not.toBeInTheDocument(),
    );
  });

  it("MVD page: its own monitors, drawer title and empty text", async () => {
    const ue = userEvent.setup();
    renderPage(MvdMonitorsPage);
    expect(await screen.findByText("Oven MVD")).toBeInTheDocument();
    expect(shownNames()).toEqual(["Oven MVD"]);
    expect(listRequests).toEqual([`${line1.id}?type=mvd`]);
    await ue.click(screen.getByRole("button", { name: T.editLabel("Oven MVD") }));
    const drawer = await screen.findByRole("dialog", { name: "MVD Monitor Details" });
    expect(within(drawer).getByRole("region", { name: "Monitor form" }).dataset.type).toBe("mvd");
    await ue.click(within(drawer).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await ue.click(screen.getByRole("combobox", { name: T.lineLabel }));
    await ue.click(await screen.findByRole("option", { name: "Paint" }));
    expect(await screen.findByText(T.empty("mvd"))).toBeInTheDocument();
  });

  it("shows a loading failure with Retry, which loads the list", async () => {
    const ue = userEvent.setup();
    listStatus = 500;
    renderPage();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(T.errorLoading);
    listStatus = 200;
    await ue.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Dryer SVD")).toBeInTheDocument();
  });
});
