import {
  DEFAULT_MONITOR_RULES,
  MONITOR_MESSAGES,
  type TMonitor,
  type TMonitorFormValues,
  type TMonitorRule,
  type TTaskCreateBody,
  type TTaskUpdateBody,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { useFormContext } from "react-hook-form";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { testCustomer, testLine, testMe, testMonitor, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import { UNMONITORED_TEXT } from "../../signals/monitored";
import { buildStation, fixtureId } from "../../signals/signal-tree.fixtures";
import { MonitorForm } from "./MonitorForm";

// The tabs have their own tests; here each is a small stand-in that can pick signals, so the
// shell's modes, validation, save flow and dialogs are tested on their own.
vi.mock("./signals/SignalsTab", () => ({
  SignalsTab: () => {
    const { setValue } = useFormContext<TMonitorFormValues>();
    return (
      <button type="button" onClick={() => setValue("signal_uuids", [S1, S2])}>
        Pick two signals
      </button>
    );
  },
}));
vi.mock("./filters/DataFiltersTab", () => ({ DataFiltersTab: () => <p>Data filters content</p> }));
vi.mock("./rules/AlertRulesTab", () => ({ AlertRulesTab: () => <p>Alert rules content</p> }));

const NOW = Date.parse("2026-11-22T12:00:00Z");
const plant = testPlant();
const LINE = "00000000-0000-4000-8000-000000000005";
const S1 = "00000000-0000-4000-8000-000000000011";
const S2 = "00000000-0000-4000-8000-000000000012";
const MID = "00000000-0000-4000-8000-000000000020";
const OTHER = "00000000-0000-4000-8000-000000000021";
const S3 = "00000000-0000-4000-8000-000000000013";
const GROUP = "00000000-0000-4000-8000-000000000030";
const customer = testCustomer;
const me = testMe({ selectedPlantId: plant.id, selectedLineId: LINE });
const line = testLine({ id: LINE, plantId: plant.id });

const monitor = (id: string, name: string): TMonitor =>
  testMonitor(
    { monitor_uuid: id, monitor_name: name, frequency: 10, notes: "Watch the press" },
    {
      cust_uuid: customer.id,
      plant_uuid: plant.id,
      line_uuid: LINE,
      signal_uuids: [S1, S2],
      signal_group_uuids: groupIds,
    },
  );

/** The line's active signals: S1 and S2, unless a test switches S2 off (Signal Management). */
let s2Active = true;
/** The monitor's signal groups: none, unless a test gives it GROUP (S1 and S3, S3 not active). */
let groupIds: string[] = [];
const activeStations = () => [
  buildStation(fixtureId(1, 1), "OP10", [
    { id: S1, name: "Torque" },
    ...(s2Active ? [{ id: S2, name: "Angle" }] : []),
  ]),
];

let created: TTaskCreateBody[] = [];
let rulesSaved: TMonitorRule[][] = [];
let rulesStatus = 200;
let createStatus = 201;
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([line])),
  // A save refreshes the line too (its activeMonitorsCount).
  mockApi.get("*/api/lines/:lineId", () => HttpResponse.json(line)),
  mockApi.patch("*/api/auth/me/selection", () => new HttpResponse(null, { status: 204 })),
  mockApi.get("*/api/lines/:lineId/signals", () => HttpResponse.json(activeStations())),
  mockApi.post("*/api/signal-groups", () =>
    HttpResponse.json([{ signalGroupUuid: GROUP, signalGroupName: "Press Fit", signalUuids: [S1, S3] }]),
  ),
  mockApi.get("*/api/monitors/form-bounds", () => HttpResponse.json({ maxRecordCount: 10_000 })),
  mockApi.get("*/api/lines/:lineId/monitors/next-name", () =>
    HttpResponse.json({ name: "Axle MVD Monitor 3" }),
  ),
  mockApi.post("*/api/tasks/get-by-id", async ({ request }) => {
    const { taskId } = JSON.parse(await request.text()) as { taskId: string };
    return HttpResponse.json(taskId === MID ? monitor(MID, "Press watch") : monitor(OTHER, "Existing watch"));
  }),
  mockApi.get("*/api/notifications/monitor-rules/:id", () => HttpResponse.json(DEFAULT_MONITOR_RULES)),
  mockApi.patch("*/api/notifications/monitor-rules/:id", async ({ request }) => {
    rulesSaved.push(JSON.parse(await request.text()) as TMonitorRule[]);
    return rulesStatus === 200
      ? HttpResponse.json(DEFAULT_MONITOR_RULES)
      : refusal(rulesStatus, { message: "boom" });
  }),
  mockApi.post("*/api/tasks", async ({ request }) => {
    const body = JSON.parse(await request.text()) as TTaskCreateBody;
    if (createStatus === 409) return refusal(409, { message: "duplicate", task_uuid: OTHER });
    if (createStatus === 4090) return refusal(409, { message: "duplicate" });
    created.push(body);
    return HttpResponse.json(monitor(MID, body.task_name), { status: 201 });
  }),
  // The route answers the saved monitor (ZMonitor), which the form does not read.
  mockApi.put("*/api/tasks", async ({ request }) => {
    const body = JSON.parse(await request.text()) as TTaskUpdateBody;
    return HttpResponse.json(monitor(body.task_uuid, body.task_name));
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  created = [];
  rulesSaved = [];
  rulesStatus = 200;
  createStatus = 201;
});
afterAll(() => server.close());

function renderForm(props: Partial<Parameters<typeof MonitorForm>[0]> = {}) {
  const onClose = vi.fn();
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <MonitorForm type="mvd" mode="CREATE" lineId={LINE} onClose={onClose} now={() => NOW} {...props} />
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { onClose };
}

const nameField = () => screen.getByRole("textbox", { name: "Monitor name" }) as HTMLInputElement;

describe("MonitorForm", { timeout: 30_000 }, () => {
  it("opens in CREATE with a free name, Data Filters selected and Deploy on create on", async () => {
    renderForm();
    expect(screen.getByText("...loading")).toBeInTheDocument();
    await waitFor(() => expect(nameField()).toHaveValue("Axle MVD Monitor 3"));
    expect(screen.getByRole("tab", { name: "Data Filters", selected: true })).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Deploy on create" })).toBeChecked();
  });

  it("validates at save in CREATE; the tab with the error opens, leaving it shows the summary", async () => {
    const ue = userEvent.setup();
    renderForm();
    await waitFor(() => expect(nameField().value).not.toBe(""));
    // Before the first save, moving between tabs is free and no error shows.
    await ue.click(screen.getByRole("tab", { name: "Alert Rules" }));
    expect(screen.getByText("Alert rules content")).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: "Save" }));
    const summary = await screen.findByRole("dialog");
    expect(within(summary).getByText(MONITOR_MESSAGES.mvdSignals)).toBeInTheDocument();
    await ue.click(within(summary).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // The Signals tab holds the error: it is always reachable.
    await ue.click(screen.getByRole("tab", { name: "Signals" }));
    expect(screen.getByRole("button", { name: "Pick two signals" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    // Leaving it for a tab without errors is blocked while the error stands (requirements.md monitor-forms §4).
    await ue.click(screen.getByRole("tab", { name: "Data Filters" }));
    const again = await screen.findByRole("dialog");
    await ue.click(within(again).getByRole("button", { name: "OK" }));
    expect(screen.queryByText("Data filters content")).not.toBeInTheDocument();
    expect(created).toHaveLength(0);
  });

  it("offers the way to the error: the summary's Go to Signals opens the Signals tab", async () => {
    const ue = userEvent.setup();
    renderForm();
    await waitFor(() => expect(nameField().value).not.toBe(""));
    await ue.click(screen.getByRole("button", { name: "Save" }));
    const summary = await screen.findByRole("dialog");
    await ue.click(within(summary).getByRole("button", { name: "Go to Signals" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByRole("tab", { name: "Signals", selected: true })).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: "Pick two signals" }));
    await ue.click(screen.getByRole("tab", { name: "Alert Rules" }));
    expect(await screen.findByText("Alert rules content")).toBeInTheDocument();
  });

  it("creates the monitor, then its rules, and closes with one snackbar", async () => {
    const ue = userEvent.setup();
    const { onClose } = renderForm();
    await waitFor(() => expect(nameField().value).not.toBe(""));
    await ue.click(screen.getByRole("tab", { name: "Signals" }));
    await ue.click(screen.getByRole("button", { name: "Pick two signals" }));
    await ue.click(screen.getByRole("switch", { name: "Deploy on create" }));
    await ue.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Monitor created , Alert rules saved")).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    expect(created[0]).toMatchObject({
      task_name: "Axle MVD Monitor 3",
      task_type: "mvd",
      active: false,
      frequency: 5,
      task_details: {
        signal_uuids: [S1, S2],
        sample_size: 150,
        evaluation_ratio: 0.2,
        alert_threshold: "MEDIUM",
      },
    });
    expect(rulesSaved).toHaveLength(1);
  });

  it("answers a duplicate with the existing monitor's name and opens it in EDIT", async () => {
    createStatus = 409;
    const ue = userEvent.setup();
    renderForm();
    await waitFor(() => expect(nameField().value).not.toBe(""));
    await ue.click(screen.getByRole("tab", { name: "Signals" }));
    await ue.click(screen.getByRole("button", { name: "Pick two signals" }));
    await ue.click(screen.getByRole("button", { name: "Save" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(MONITOR_MESSAGES.duplicate)).toBeInTheDocument();
    expect(
      within(dialog).getByText(MONITOR_MESSAGES.duplicateQuestion("Existing watch")),
    ).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Edit existing monitor" }));
    await waitFor(() => expect(nameField()).toHaveValue("Existing watch"));
    expect(screen.getByText(/Max length: 1000 characters/)).toBeInTheDocument();
    expect(screen.queryByRole("switch", { name: "Deploy on create" })).not.toBeInTheDocument();
  });

  it("shows VIEW read-only, lets it switch tabs to see what the monitor watches, and Edit moves to EDIT", async () => {
    const ue = userEvent.setup();
    renderForm({ mode: "VIEW", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    expect(nameField().readOnly).toBe(true);
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
    await ue.click(screen.getByRole("tab", { name: "Alert Rules" }));
    expect(screen.getByRole("tab", { name: "Alert Rules", selected: true })).toBeInTheDocument();
    expect(screen.getByText("Alert rules content")).toBeInTheDocument();
    await ue.click(screen.getByRole("tab", { name: "Signals" }));
    expect(screen.getByRole("button", { name: "Pick two signals" })).toBeInTheDocument();
    expect(nameField().readOnly).toBe(true);
    await ue.click(screen.getByRole("button", { name: "Edit" }));
    expect(nameField().readOnly).toBe(false);
    expect(screen.getByRole("tab", { name: "Data Filters" }).hasAttribute("disabled")).toBe(false);
  });

  it("says when some of its signals were switched off in Signal Management (it runs on the others)", async () => {
    s2Active = false;
    try {
      renderForm({ mode: "VIEW", monitorId: MID });
      expect(await screen.findByText(UNMONITORED_TEXT.warning(1))).toBeInTheDocument();
    } finally {
      s2Active = true;
    }
    cleanup();
    renderForm({ mode: "VIEW", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    expect(screen.queryByText(UNMONITORED_TEXT.warning(1))).not.toBeInTheDocument();
  });

  it("also says when a signal it reaches through its signal groups was switched off or converted", async () => {
    groupIds = [GROUP];
    try {
      renderForm({ mode: "VIEW", monitorId: MID });
      expect(await screen.findByText(UNMONITORED_TEXT.groupWarning(1))).toBeInTheDocument();
      expect(screen.queryByText(UNMONITORED_TEXT.warning(1))).not.toBeInTheDocument();
      expect(screen.queryByText(UNMONITORED_TEXT.noneLeft)).not.toBeInTheDocument();
    } finally {
      groupIds = [];
    }
  });

  it("keeps the form open and lists each result when the rules fail on an edit", async () => {
    rulesStatus = 500;
    const ue = userEvent.setup();
    const { onClose } = renderForm({ mode: "EDIT", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    await ue.click(screen.getByRole("button", { name: "Save" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(MONITOR_MESSAGES.errorSavingBoth)).toBeInTheDocument();
    expect(within(dialog).getByText(MONITOR_MESSAGES.saved)).toBeInTheDocument();
    expect(within(dialog).getByText(MONITOR_MESSAGES.errorSavingRules)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows the name error as the field's label in EDIT, 500 ms after typing stops", async () => {
    renderForm({ mode: "EDIT", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    vi.useFakeTimers();
    try {
      fireEvent.change(nameField(), { target: { value: "" } });
      act(() => vi.advanceTimersByTime(499));
      expect(screen.queryByText(MONITOR_MESSAGES.nameRequired)).not.toBeInTheDocument();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getAllByText(MONITOR_MESSAGES.nameRequired).length).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("clamps the frequency 900 ms after typing stops, and at once on blur", async () => {
    renderForm({ mode: "EDIT", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    vi.useFakeTimers();
    try {
      const freq = screen.getByRole("textbox", { name: "Frequency (minutes)" }) as HTMLInputElement;
      fireEvent.change(freq, { target: { value: "2" } });
      expect(freq).toHaveValue("2");
      act(() => vi.advanceTimersByTime(899));
      expect(freq).toHaveValue("2");
      act(() => vi.advanceTimersByTime(1));
      expect(freq).toHaveValue("5");
      fireEvent.change(freq, { target: { value: "9999" } });
      fireEvent.blur(freq);
      expect(freq).toHaveValue("1440");
      fireEvent.change(freq, { target: { value: "abc" } });
      fireEvent.blur(freq);
      expect(freq).toHaveValue("5");
    } finally {
      vi.useRealTimers();
    }
  });

  it("fills the next available name with Default", async () => {
    const ue = userEvent.setup();
    renderForm({ mode: "EDIT", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    await ue.click(screen.getByRole("button", { name: "Default" }));
    await waitFor(() => expect(nameField()).toHaveValue("Axle MVD Monitor 3"));
  });

  it("asks before discarding unsaved changes on Cancel", async () => {
    const ue = userEvent.setup();
    const { onClose } = renderForm({ mode: "EDIT", monitorId: MID });
    await waitFor(() => expect(nameField()).toHaveValue("Press watch"));
    await ue.type(nameField(), " 2");
    await ue.click(screen.getByRole("button", { name: "Cancel" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Discard your changes?")).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: "Keep editing" }));
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(nameField()).toHaveValue("Press watch 2");
    await ue.click(screen.getByRole("button", { name: "Cancel" }));
    await ue.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Discard" }));
    expect(onClose).toHaveBeenCalled();
  });

  it("says the duplicate could not be loaded when the 409 names no monitor", async () => {
    createStatus = 4090;
    const ue = userEvent.setup();
    renderForm();
    await waitFor(() => expect(nameField().value).not.toBe(""));
    await ue.click(screen.getByRole("tab", { name: "Signals" }));
    await ue.click(screen.getByRole("button", { name: "Pick two signals" }));
    await ue.click(screen.getByRole("button", { name: "Save" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(MONITOR_MESSAGES.errorLoading)).toBeInTheDocument();
    expect(created).toHaveLength(0);
  });
});
