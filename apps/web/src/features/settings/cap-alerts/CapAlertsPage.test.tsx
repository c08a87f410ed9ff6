import {
  CAPABILITY_MESSAGES,
  CHALLENGE_RANGE_TEXTS,
  CONTROL_RULES_ARL_TEXTS,
  defaultFeatureFlags,
  CAP_ALERTS_MESSAGES as M,
  MONITOR_MESSAGES,
  RULE_TITLES,
  RUN_RULE_TEXTS,
  type TCapMonitorStatus,
  type TMonitor,
  type TMonitorRule,
  type TSignal,
  type TSpcSignalLimits,
  type TStation,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { MemoryRouter } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { installResizeObserver, testLine, testMe, testMonitor, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import { CapAlertsPage } from "./CapAlertsPage";

installResizeObserver();
const size = { width: 1600, height: 900, top: 0, left: 0, right: 1600, bottom: 900, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const plant = testPlant({ timeZone: "UTC" });
const line = testLine({ id: "00000000-0000-4000-8000-000000000011", plantId: plant.id, name: "Assembly" });
const me = testMe({ selectedPlantId: plant.id, selectedLineId: line.id });
const sig = (n: number) => `00000000-0000-4000-8000-0000000000a${n}`;
const MON = "00000000-0000-4000-8000-0000000000c1";
const ALERT = "00000000-0000-4000-8000-0000000000d1";

let limits: TSpcSignalLimits[];
let stations: TStation[];
let monitors: TMonitor[];
let flags: ReturnType<typeof defaultFeatureFlags>;
let calls: { method: string; url: string; body?: unknown }[];
let failPatch: boolean;
let listStatus: number;

const limitOf = (id: string, station: string, signal: string, hasLimits: boolean): TSpcSignalLimits => ({
  lineUUID: line.id,
  stationName: station,
  signalUUID: id,
  signalName: signal,
  singleSide: null,
  limits: hasLimits
    ? [
        {
          uuid: null,
          model_number: "*",
          lslFormula: "1",
          lclFormula: null,
          uclFormula: null,
          uslFormula: "9",
        },
      ]
    : [],
});
const monitorOf = (id: string, signalId: string, active: boolean): TMonitor =>
  testMonitor(
    {
      monitor_uuid: id,
      monitor_name: `Cap ${id.slice(-2)}`,
      monitor_type: "cap",
      active,
      frequency: 15,
      last_state: "BREACH",
    },
    { cust_uuid: me.customer.id, plant_uuid: plant.id, line_uuid: line.id, signal_uuids: [signalId] },
  );
const rules: TMonitorRule[] = [
  { active: true, type: "Consecutive", details: { runs: null, breaches: 3, seconds: null } },
];

const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/feature-flags", () => HttpResponse.json({ flags, etqOverride: false })),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([line])),
  mockApi.get("*/api/line-config/spc-signal-limits", () =>
    listStatus === 200 ? HttpResponse.json(limits) : refusal(listStatus, { message: "down" }),
  ),
  mockApi.get("*/api/lines/:lineId/monitors", () => HttpResponse.json(monitors)),
  mockApi.get("*/api/lines/:lineId/signals", () => HttpResponse.json(stations)),
  mockApi.get("*/api/lines/:lineId/cap-monitors/status", () =>
    HttpResponse.json([
      { monitorId: MON, lastState: "BREACH", ppk: 0.82, latestAlertId: ALERT },
    ] satisfies TCapMonitorStatus[]),
  ),
  mockApi.post("*/api/monitors", async ({ request }) => {
    const body = JSON.parse(await request.text()) as { signalId: string };
    calls.push({ method: "POST", url: "/api/monitors", body });
    monitors = [...monitors, monitorOf("00000000-0000-4000-8000-0000000000c9", body.signalId, false)];
    return HttpResponse.json({ id: "00000000-0000-4000-8000-0000000000c9" }, { status: 201 });
  }),
  mockApi.patch("*/api/monitors/:monitorId", async ({ request, params }) => {
    const body = JSON.parse(await request.text()) as Record<string, boolean>;
    calls.push({ method: "PATCH", url: `/api/monitors/${params.monitorId}`, body });
    if (failPatch) return refusal(500, { message: "No" });
    monitors = monitors.map((m) =>
      m.monitor_uuid === params.monitorId
        ? {
            ...m,
            active: body.active ?? m.active,
            use_excluded_part_ids: body.useExcludedPartIds ?? m.use_excluded_part_ids,
          }
        : m,
    );
    return HttpResponse.json(monitors.find((m) => m.monitor_uuid === params.monitorId));
  }),
  mockApi.put("*/api/tasks", async ({ request }) => {
    const body = JSON.parse(await request.text()) as {
      task_uuid: string;
      task_details: { op_count?: string };
    };
    calls.push({ method: "PUT", url: "/api/tasks", body });
    return HttpResponse.json(monitors.find((m) => m.monitor_uuid === body.task_uuid));
  }),
  mockApi.get("*/api/notifications/monitor-rules/:id", () => HttpResponse.json(rules)),
  mockApi.get("*/api/lines/:lineId/signals/:signalId/capability", ({ params }) => {
    calls.push({ method: "GET", url: `capability/${params.signalId}`, body: null });
    return refusal(404, { message: "Signal not found" });
  }),
  mockApi.patch("*/api/notifications/monitor-rules/:id", async ({ request, params }) => {
    const body = JSON.parse(await request.text());
    calls.push({ method: "PATCH", url: `/api/notifications/monitor-rules/${params.id}`, body });
    return HttpResponse.json(body);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  flags = { ...defaultFeatureFlags(true), capExcludedParts: false };
  calls = [];
  failPatch = false;
  listStatus = 200;
  limits = [
    limitOf(sig(1), "OP20", "Torque", true),
    limitOf(sig(2), "OP10", "Force", true),
    limitOf(sig(3), "OP10", "Angle", false),
    limitOf(sig(4), "OP10", "Depth", false),
  ];
  monitors = [monitorOf(MON, sig(1), true), monitorOf("00000000-0000-4000-8000-0000000000c2", sig(4), true)];
  stations = [];
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderPage() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MemoryRouter>
      <QueryClientProvider client={qc}>
        <SnackbarProvider>
          <PlantLineProvider>
            <CapAlertsPage />
          </PlantLineProvider>
        </SnackbarProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}
const box = (label: string) => screen.getByRole("checkbox", { name: label }) as HTMLInputElement;
const shownSignals = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((r) => r.querySelector('[data-field="signal"]')?.textContent);

describe("Settings → Cap Alerts", { timeout: 30_000 }, () => {
  it("says a monitored signal without SPC limits is judged against its record limits, not that it cannot evaluate", async () => {
    const signalOf = (id: string, name: string, upperLimit: string | null): TSignal => ({
      id,
      name,
      friendlyName: null,
      entityType: "MEASUREMENT",
      isSignalActive: true,
      qualityCharacteristic: "NONE",
      stationName: "OP10",
      upperLimit,
      lowerLimit: null,
      result: null,
      singleSide: null,
      storage: "num",
      hasCapLimits: false,
    });
    stations = [
      {
        id: "00000000-0000-4000-8000-0000000000e1",
        name: "OP10",
        final: false,
        isDefault: false,
        signals: [signalOf(sig(4), "Depth", sig(5)), signalOf(sig(5), "Depth Upper Limit", null)],
      },
    ];
    renderPage();
    expect(await screen.findByRole("img", { name: M.recordLimits })).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: M.noLimits })).not.toBeInTheDocument();
    expect(shownSignals()).toEqual(["Depth", "Force", "Torque"]);
  });

  it("shows signals with limits (and monitored ones without, with the warning) by station then signal", async () => {
    renderPage();
    expect(await screen.findByText("Torque")).toBeInTheDocument();
    expect(screen.getByText(M.note)).toBeInTheDocument();
    expect(shownSignals()).toEqual(["Depth", "Force", "Torque"]);
    expect(screen.getAllByRole("img", { name: M.noLimits })).toHaveLength(1);
    expect(box(M.monitorLabel("Torque"))).toBeChecked();
    expect(box(M.monitorLabel("Force"))).not.toBeChecked();
    // Alert Rules' Edit is off while the monitor is inactive
    expect(screen.getByRole("button", { name: M.editRulesLabel("Force") })).toBeDisabled();
    expect(screen.getByText("Ppk 0.82")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: M.openAlert })).toHaveAttribute(
      "href",
      `/lines/${line.id}?alert=${ALERT}`,
    );
    const row = screen.getAllByRole("row")[1] as HTMLElement;
    expect(row.style.getPropertyValue("--height")).toBe("65px");
    expect(screen.queryByText(M.columns.excludeChallengeParts)).not.toBeInTheDocument();
  });

  it("creates an active monitor for a signal without one, and flips an existing one", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Force");
    await ue.click(box(M.monitorLabel("Force")));
    await waitFor(() => expect(box(M.monitorLabel("Force"))).toBeChecked());
    expect(calls.slice(0, 2)).toEqual([
      { method: "POST", url: "/api/monitors", body: { signalId: sig(2) } },
      { method: "PATCH", url: "/api/monitors/00000000-0000-4000-8000-0000000000c9", body: { active: true } },
    ]);
    await ue.click(box(M.monitorLabel("Torque")));
    await waitFor(() => expect(box(M.monitorLabel("Torque"))).not.toBeChecked());
    expect(calls.at(-1)).toEqual({ method: "PATCH", url: `/api/monitors/${MON}`, body: { active: false } });
  });

  it("says 'Error saving configuration…' when a change fails", async () => {
    failPatch = true;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    await ue.click(box(M.monitorLabel("Torque")));
    expect(await screen.findByText(M.saveError)).toBeInTheDocument();
  });

  it("edits the rules in the 'Cap Alert Rules' modal, 850 by 450", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    await ue.click(screen.getByRole("button", { name: M.editRulesLabel("Torque") }));
    const dialog = await screen.findByRole("dialog", { name: M.rulesTitle });
    const paper = (dialog.closest(".MuiDialog-paper") ??
      dialog.querySelector(".MuiDialog-paper")) as HTMLElement;
    expect(getComputedStyle(paper).width).toBe("850px");
    expect(getComputedStyle(paper).height).toBe("450px");
    // The dialog's code loads on first open and then the monitor's rules: wait for the editor.
    expect(await within(dialog).findByText(RULE_TITLES.Consecutive)).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: M.save }));
    expect(await screen.findByText(MONITOR_MESSAGES.rulesSaved)).toBeInTheDocument();
    expect(calls.at(-1)?.url).toBe(`/api/notifications/monitor-rules/${MON}`);
    expect(
      ((calls.at(-1)?.body ?? []) as TMonitorRule[]).find((r) => r.type === "Consecutive"),
    ).toMatchObject({
      active: true,
      details: { breaches: 3 },
    });
  });

  it("with the excluded-parts flag, offers the Exclude checkboxes on active rows only", async () => {
    flags.capExcludedParts = true;
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    expect(screen.getByText(M.columns.excludeChallengeParts)).toBeInTheDocument();
    expect(screen.queryByRole("checkbox", { name: M.excludePartsLabel("Force") })).not.toBeInTheDocument();
    await ue.click(box(M.excludePartsLabel("Torque")));
    await waitFor(() =>
      expect(calls.at(-1)).toEqual({
        method: "PATCH",
        url: `/api/monitors/${MON}`,
        body: { useExcludedPartIds: true },
      }),
    );
    expect(box(M.excludeModelsLabel("Torque"))).not.toBeChecked();
  });

  it("sets the operation count (ALL, FIRST, LAST) of an active monitor", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    expect(screen.queryByRole("combobox", { name: M.opCountLabel("Force") })).not.toBeInTheDocument();
    await ue.click(screen.getByRole("combobox", { name: M.opCountLabel("Torque") }));
    await ue.click(await screen.findByRole("option", { name: "FIRST" }));
    await waitFor(() => expect(calls.at(-1)?.method).toBe("PUT"));
    expect(calls.at(-1)?.body).toMatchObject({
      task_uuid: MON,
      task_type: "cap",
      task_details: { op_count: "FIRST", signal_uuids: [sig(1)] },
    });
  });

  it("turns on Western Electric rules 2–4 for an active monitor (rule 1 always applies)", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    expect(screen.queryByRole("combobox", { name: M.runRulesLabel("Force") })).not.toBeInTheDocument();
    // Issue 29: the chosen rules' ARL₀ under the select, and in its menu with what the monitor holds.
    expect(screen.getAllByText(CONTROL_RULES_ARL_TEXTS.short([])).length).toBeGreaterThan(0);
    expect(CONTROL_RULES_ARL_TEXTS.short([])).toBe("ARL₀ 370");
    await ue.click(screen.getByRole("combobox", { name: M.runRulesLabel("Torque") }));
    expect(
      await screen.findByText(`${CONTROL_RULES_ARL_TEXTS.perPoint([])}. ${CONTROL_RULES_ARL_TEXTS.held}`),
    ).toBeInTheDocument();
    await ue.click(await screen.findByRole("option", { name: RUN_RULE_TEXTS[2] }));
    await waitFor(() => expect(calls.at(-1)?.method).toBe("PUT"));
    expect(calls.at(-1)?.body).toMatchObject({ task_uuid: MON, task_details: { run_rules: [2] } });
  });

  it("edits an active monitor's challenge ranges: time based on the plant's clock, part based with its flag", async () => {
    const ue = userEvent.setup();
    flags = { ...flags, capChallengePartRange: false };
    renderPage();
    await screen.findByText("Torque");
    expect(
      screen.queryByRole("button", { name: CHALLENGE_RANGE_TEXTS.editLabel("Force", 0) }),
    ).not.toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: CHALLENGE_RANGE_TEXTS.editLabel("Torque", 0) }));
    const dialog = await screen.findByRole("dialog", { name: CHALLENGE_RANGE_TEXTS.title("Torque") });
    expect(within(dialog).getByText(CHALLENGE_RANGE_TEXTS.spec)).toBeInTheDocument();
    expect(within(dialog).getByText(CHALLENGE_RANGE_TEXTS.none)).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: CHALLENGE_RANGE_TEXTS.add }));
    await ue.click(within(dialog).getByRole("combobox", { name: CHALLENGE_RANGE_TEXTS.mode }));
    expect(screen.queryByRole("option", { name: CHALLENGE_RANGE_TEXTS.PART })).not.toBeInTheDocument();
    await ue.keyboard("{Escape}");
    fireEvent.change(within(dialog).getByLabelText(CHALLENGE_RANGE_TEXTS.from), {
      target: { value: "2026-11-20T09:00" },
    });
    fireEvent.change(within(dialog).getByLabelText(CHALLENGE_RANGE_TEXTS.to), {
      target: { value: "2026-11-20T08:00" },
    });
    expect(within(dialog).getByText(CHALLENGE_RANGE_TEXTS.timeOrder)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(CHALLENGE_RANGE_TEXTS.to), {
      target: { value: "2026-11-20T10:30" },
    });
    await ue.click(within(dialog).getByRole("button", { name: CHALLENGE_RANGE_TEXTS.save }));
    await waitFor(() => expect(calls.at(-1)?.method).toBe("PUT"));
    // the plant is on UTC in this test
    expect(calls.at(-1)?.body).toMatchObject({
      task_uuid: MON,
      task_details: {
        challenge_ranges: [
          { mode: "TIME", from: "2026-11-20T09:00:00.000Z", to: "2026-11-20T10:30:00.000Z" },
        ],
      },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("offers part-based challenge ranges with their flag on", async () => {
    const ue = userEvent.setup();
    flags = { ...flags, capChallengePartRange: true };
    renderPage();
    await screen.findByText("Torque");
    await ue.click(screen.getByRole("button", { name: CHALLENGE_RANGE_TEXTS.editLabel("Torque", 0) }));
    const dialog = await screen.findByRole("dialog", { name: CHALLENGE_RANGE_TEXTS.title("Torque") });
    await ue.click(within(dialog).getByRole("button", { name: CHALLENGE_RANGE_TEXTS.add }));
    await ue.click(within(dialog).getByRole("combobox", { name: CHALLENGE_RANGE_TEXTS.mode }));
    await ue.click(await screen.findByRole("option", { name: CHALLENGE_RANGE_TEXTS.PART }));
    await ue.type(within(dialog).getByRole("textbox", { name: CHALLENGE_RANGE_TEXTS.fromPart }), "P-100");
    expect(within(dialog).getByText(CHALLENGE_RANGE_TEXTS.partRequired)).toBeInTheDocument();
    await ue.type(within(dialog).getByRole("textbox", { name: CHALLENGE_RANGE_TEXTS.toPart }), "P-120");
    await ue.click(within(dialog).getByRole("button", { name: CHALLENGE_RANGE_TEXTS.save }));
    await waitFor(() => expect(calls.at(-1)?.method).toBe("PUT"));
    expect(calls.at(-1)?.body).toMatchObject({
      task_details: { challenge_ranges: [{ mode: "PART", from_part_id: "P-100", to_part_id: "P-120" }] },
    });
  });

  it("opens a signal's capability view from its row", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    await ue.click(screen.getByRole("button", { name: CAPABILITY_MESSAGES.openFor("Torque") }));
    const dialog = await screen.findByRole("dialog", { name: CAPABILITY_MESSAGES.title("Torque") });
    expect(
      await within(dialog).findByText(CAPABILITY_MESSAGES.loadError("Signal not found")),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.url === `capability/${sig(1)}`)).toBe(true);
    await ue.click(within(dialog).getByRole("button", { name: CAPABILITY_MESSAGES.close }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("shows the empty texts and the load failure overlay", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    await ue.type(screen.getByRole("searchbox", { name: M.search }), "zzz");
    expect(await screen.findByText(M.emptyFiltered)).toBeInTheDocument();
    cleanup();
    limits = [];
    monitors = [];
    renderPage();
    expect(await screen.findByText(M.empty)).toBeInTheDocument();
    cleanup();
    listStatus = 500;
    renderPage();
    expect(await screen.findByText("Error Loading Data")).toBeInTheDocument();
  });
});
