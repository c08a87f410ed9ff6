import {
  defaultFeatureFlags,
  SPC_LIMITS_MESSAGES as M,
  SETTINGS_KIT_MESSAGES,
  type TSpcSignalLimits,
  type TStation,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { act } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { installResizeObserver, testLine, testMe, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import { SpcLimitsPage } from "./SpcLimitsPage";

installResizeObserver();
const size = { width: 1400, height: 900, top: 0, left: 0, right: 1400, bottom: 900, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const plant = testPlant({ timeZone: "America/Detroit" });
const line1 = testLine({ id: "00000000-0000-4000-8000-000000000011", plantId: plant.id, name: "Assembly" });
const line2 = testLine({ id: "00000000-0000-4000-8000-000000000012", plantId: plant.id, name: "Paint" });
const me = testMe({ selectedPlantId: plant.id, selectedLineId: line1.id });
const TORQUE = "00000000-0000-4000-8000-0000000000a1";
const ANGLE = "00000000-0000-4000-8000-0000000000a2";
const UPPER = "00000000-0000-4000-8000-0000000000a3";

let limits: TSpcSignalLimits[];
let puts: TSpcSignalLimits[][];
let putStatus: number;
let suggests: unknown[];
let flags: ReturnType<typeof defaultFeatureFlags>;

const signal = (id: string, name: string, entityType: "MEASUREMENT" | "UPPER_LIMIT") => ({
  id,
  name,
  friendlyName: null,
  entityType,
  isSignalActive: true,
  qualityCharacteristic: "NONE" as const,
  stationName: "OP10",
  upperLimit: null,
  lowerLimit: null,
  result: null,
  singleSide: null,
  storage: "num" as const,
  hasCapLimits: false,
});
const stations: TStation[] = [
  {
    id: "00000000-0000-4000-8000-0000000000b1",
    name: "OP10",
    final: false,
    isDefault: false,
    signals: [
      signal(TORQUE, "Torque", "MEASUREMENT"),
      signal(ANGLE, "Angle", "MEASUREMENT"),
      signal(UPPER, "Torque Max", "UPPER_LIMIT"),
    ],
  },
];

const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/feature-flags", () => HttpResponse.json({ flags, etqOverride: false })),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([line1, line2])),
  mockApi.get("*/api/lines/:lineId/signals", () => HttpResponse.json(stations)),
  mockApi.get("*/api/lines/:lineId/model-numbers", () =>
    HttpResponse.json([
      { value: "M-1", isChallenge: false },
      { value: "M-2", isChallenge: false },
    ]),
  ),
  mockApi.get("*/api/line-config/spc-signal-limits", () => HttpResponse.json(limits)),
  mockApi.post("*/api/line-config/spc-signal-limits/suggest", async ({ request }) => {
    suggests.push(JSON.parse(await request.text()));
    const pair = (lcl: number, ucl: number, rate: number) => ({ lcl, ucl, expectedFalseAlarmRate: rate });
    return HttpResponse.json([
      {
        model_number: "*",
        n: 40,
        lcl: 3.25,
        ucl: 6.75,
        basis: "overall",
        expectedFalseAlarmRate: 0.0041,
        lag1Autocorrelation: 0.7,
        sigmaRatio: 1.8,
        isAutocorrelated: true,
        movingRange: pair(4, 6, 0.11),
        overall: pair(3.25, 6.75, 0.0041),
      },
      {
        model_number: "M-2",
        n: 12,
        lcl: 3.5,
        ucl: 6.5,
        basis: "moving_range",
        expectedFalseAlarmRate: 0.012,
        lag1Autocorrelation: 0.05,
        sigmaRatio: 1,
        isAutocorrelated: false,
        movingRange: pair(3.5, 6.5, 0.012),
        overall: pair(3.4, 6.6, 0.009),
      },
    ]);
  }),
  mockApi.put("*/api/line-config/spc-signal-limits", async ({ request }) => {
    const body = JSON.parse(await request.text()) as TSpcSignalLimits[];
    puts.push(body);
    if (putStatus !== 200)
      return refusal(putStatus, { message: "UCL of Torque, model *: unexpected '*' (at position 4)" });
    limits = limits.map((s) => body.find((b) => b.signalUUID === s.signalUUID) ?? s);
    return HttpResponse.json(limits);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  flags = defaultFeatureFlags(true);
  puts = [];
  suggests = [];
  putStatus = 200;
  const base = { lineUUID: line1.id, stationName: "OP10", singleSide: null };
  limits = [
    {
      ...base,
      signalUUID: TORQUE,
      signalName: "Torque",
      limits: [
        {
          uuid: null,
          model_number: "M-1",
          lslFormula: "2",
          lclFormula: null,
          uclFormula: null,
          uslFormula: "9",
        },
        {
          uuid: null,
          model_number: "*",
          lslFormula: "1",
          lclFormula: null,
          uclFormula: `{${UPPER}} - 1`,
          uslFormula: "10",
        },
      ],
    },
    { ...base, signalUUID: ANGLE, signalName: "Angle", singleSide: "LOWER", limits: [] },
  ];
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderPage() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // A data router: the page's leave guard blocks navigation while edits are unsaved.
  const router = createMemoryRouter(
    [
      { path: "/settings/limits", element: <SpcLimitsPage /> },
      { path: "/settings/alerts", element: <p>Cap Alerts section</p> },
    ],
    { initialEntries: ["/settings/limits"] },
  );
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <RouterProvider router={router} />
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return router;
}

const cell = (label: string) => screen.getByRole("textbox", { name: label }) as HTMLInputElement;
const expand = async (ue: ReturnType<typeof userEvent.setup>, index = 0) => {
  const buttons = await screen.findAllByRole("button", { name: SETTINGS_KIT_MESSAGES.seeModels });
  await ue.click(buttons[index] as HTMLElement);
};

describe("Settings → Cap Limits", { timeout: 30_000 }, () => {
  it("lists signals by station and signal; 'See models' shows '*' first and formulas by signal name", async () => {
    const ue = userEvent.setup();
    renderPage();
    expect(await screen.findByText("Torque")).toBeInTheDocument();
    const names = screen
      .getAllByRole("row")
      .map((r) => r.querySelector('[data-field="signal"]')?.textContent);
    expect(names.filter(Boolean)).toEqual(["Signal", "Angle", "Torque"]);
    // Collapsed, the signal's row shows its '*' model's limits (read-only), not empty cells.
    const torqueRow = screen.getByText("Torque").closest('[role="row"]') as HTMLElement;
    expect(torqueRow.querySelector('[data-field="lsl"]')?.textContent).toBe("1");
    expect(torqueRow.querySelector('[data-field="ucl"]')?.textContent).toBe("{Torque Max} - 1");
    expect(torqueRow.querySelector('[data-field="lcl"]')?.textContent).toBe("");
    await expand(ue, 1);
    expect(screen.getByRole("button", { name: SETTINGS_KIT_MESSAGES.hideModels })).toBeInTheDocument();
    const models = screen
      .getAllByRole("row")
      .map((r) => r.querySelector('[data-field="model"]')?.textContent);
    expect(models.filter(Boolean)).toEqual(["Model", "*", "M-1"]);
    expect(cell("UCL *")).toHaveValue("{Torque Max} - 1");
  });

  it("'Show only signals with limits' leaves out signals without any", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Angle");
    await ue.click(screen.getByRole("switch", { name: M.showOnlyWithLimits }));
    await waitFor(() => expect(screen.queryByText("Angle")).not.toBeInTheDocument());
    expect(screen.getByText("Torque")).toBeInTheDocument();
  });

  it("an edit marks the row unsaved and locks the line and the switch until Discard Changes", async () => {
    const ue = userEvent.setup();
    const router = renderPage();
    await expand(ue, 1);
    await ue.clear(cell("LSL *"));
    // The first edit reaches the page at once: the line and the switch lock without a pause.
    expect(screen.getByRole("combobox", { name: M.lineLabel })).toHaveAttribute("aria-disabled", "true");
    await ue.type(cell("LSL *"), "1.5");
    // Later keystrokes reach the page once typing pauses (LimitCell COMMIT_IDLE_MS).
    await waitFor(() =>
      expect(screen.getByRole("combobox", { name: M.lineLabel })).toHaveAttribute("aria-disabled", "true"),
    );
    expect(screen.getByRole("switch", { name: M.showOnlyWithLimits })).toBeDisabled();
    expect(document.querySelectorAll(".lw-row-unsaved").length).toBeGreaterThan(0);
    // Leaving the section asks first; Continue Editing keeps the edit.
    await act(() => router.navigate("/settings/alerts"));
    expect(await screen.findByText(SETTINGS_KIT_MESSAGES.discardTitle)).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: SETTINGS_KIT_MESSAGES.discardContinue }));
    expect(router.state.location.pathname).toBe("/settings/limits");
    await waitFor(() =>
      expect(screen.queryByText(SETTINGS_KIT_MESSAGES.discardTitle)).not.toBeInTheDocument(),
    );
    expect(cell("LSL *")).toHaveValue("1.5");
    await ue.click(screen.getByRole("button", { name: M.discard }));
    expect(cell("LSL *")).toHaveValue("1");
    expect(screen.getByRole("combobox", { name: M.lineLabel })).not.toHaveAttribute("aria-disabled");
    expect(document.querySelectorAll(".lw-row-unsaved")).toHaveLength(0);
  });

  it("shows every §5 message and keeps Save Changes off while one stands", async () => {
    const ue = userEvent.setup();
    renderPage();
    await expand(ue, 1);
    await ue.clear(cell("LSL *"));
    await ue.type(cell("LSL *"), "abc");
    // A cell's messages follow once typing pauses (LimitCell COMMIT_IDLE_MS).
    expect(await screen.findByText("LSL must be a number")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: M.saveChanges })).toBeDisabled();
    await ue.clear(cell("LSL *"));
    await ue.type(cell("LSL *"), "20");
    expect(await screen.findByText(M.lslBelowUsl)).toBeInTheDocument();
    expect(screen.getByText(M.uslAboveLsl)).toBeInTheDocument();
    await ue.type(cell("LCL *"), "5");
    await ue.type(cell("UCL M-1"), "1");
    await ue.type(cell("LCL M-1"), "3");
    expect(await screen.findByText(M.lclBelowUcl)).toBeInTheDocument();
    expect(screen.getByText(M.uclAboveLcl)).toBeInTheDocument();
  });

  it("saves a formula typed with a completed signal name as ids, and says so", async () => {
    const ue = userEvent.setup();
    renderPage();
    await expand(ue, 1);
    await ue.clear(cell("UCL M-1"));
    await ue.type(cell("UCL M-1"), "{{Torque M");
    await ue.click(await screen.findByRole("menuitem", { name: "Torque Max" }));
    await ue.type(cell("UCL M-1"), " * 0.9");
    expect(cell("UCL M-1")).toHaveValue("{Torque Max} * 0.9");
    await ue.click(screen.getByRole("button", { name: M.saveChanges }));
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    expect(puts[0]?.map((s) => s.signalUUID)).toEqual([TORQUE]);
    expect(puts[0]?.[0]?.limits.find((l) => l.model_number === "M-1")?.uclFormula).toBe(`{${UPPER}} * 0.9`);
    await waitFor(() => expect(document.querySelectorAll(".lw-row-unsaved")).toHaveLength(0));
  });

  it("shows the server's message when a save is refused, and keeps the edits", async () => {
    putStatus = 400;
    const ue = userEvent.setup();
    renderPage();
    await expand(ue, 1);
    await ue.type(cell("LCL *"), "0");
    await ue.tab(); // leaving the cell hands its text to the page at once
    await ue.click(screen.getByRole("button", { name: M.saveChanges }));
    expect(
      await screen.findByText("UCL of Torque, model *: unexpected '*' (at position 4)"),
    ).toBeInTheDocument();
    expect(cell("LCL *")).toHaveValue("0");
  });

  it("single-sided signals show 'Single Sided' in the locked cells", async () => {
    const ue = userEvent.setup();
    renderPage();
    await expand(ue, 0);
    expect(cell("USL *").value).toBe(M.singleSided);
    expect(cell("UCL *")).toBeDisabled();
    expect(cell("LSL *")).not.toBeDisabled();
  });

  it("adds a row for a model number the line has seen, and removes one", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    await ue.click(screen.getAllByRole("button", { name: M.addModel })[1] as HTMLElement);
    // The dialog's code loads at its first opening.
    await ue.click(await screen.findByRole("combobox", { name: M.modelNumber }));
    expect(screen.queryByRole("option", { name: "M-1" })).not.toBeInTheDocument();
    await ue.click(screen.getByRole("option", { name: "M-2" }));
    await ue.click(screen.getByRole("button", { name: M.add }));
    expect(await screen.findByRole("textbox", { name: "LSL M-2" })).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: `${M.removeModel} M-1` }));
    expect(screen.queryByRole("textbox", { name: "LSL M-1" })).not.toBeInTheDocument();
  });

  it("suggests control limits from a stable period into the grid, unsaved", async () => {
    const ue = userEvent.setup();
    renderPage();
    await screen.findByText("Torque");
    await ue.click(screen.getByRole("button", { name: M.suggest }));
    const dialog = await screen.findByRole("dialog", { name: M.suggest });
    await ue.click(within(dialog).getByRole("combobox", { name: M.suggestSignal }));
    await ue.click(await screen.findByRole("option", { name: "OP10 · Torque" }));
    // The period is the plant's wall clock (America/Detroit, UTC−5 in November), not the browser's.
    expect(within(dialog).getByText(M.suggestTimeZone("America/Detroit"))).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(M.suggestFrom), { target: { value: "2026-11-20T06:00" } });
    fireEvent.change(within(dialog).getByLabelText(M.suggestTo), { target: { value: "2026-11-20T18:30" } });
    await ue.click(within(dialog).getByRole("button", { name: M.suggestApply }));
    // The suggestion is shown first: where σ came from and the expected false-alarm rate (issue 29).
    await within(dialog).findByRole("list", { name: M.suggestResults });
    expect(within(dialog).getByText(M.suggestAutocorrelated(0.7, 0.11))).toBeInTheDocument();
    expect(M.suggestAutocorrelated(0.7, 0.11)).toBe(
      "Neighbouring parts are alike (lag-1 autocorrelation 0.7): limits from the moving range would flag 11 % of points; suggested from the overall σ instead",
    );
    expect(within(dialog).getByText(M.suggestRate(0.0041))).toBeInTheDocument();
    expect(within(dialog).getByText(M.suggestIndependent(0.05))).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: M.suggestUse }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: M.suggest })).not.toBeInTheDocument());
    expect(suggests[0]).toEqual({
      signalUUID: TORQUE,
      from: "2026-11-20T11:00:00.000Z",
      to: "2026-11-20T23:30:00.000Z",
    });
    expect(cell("LCL *")).toHaveValue("3.25");
    expect(cell("UCL *")).toHaveValue("6.75");
    expect(cell("UCL M-2")).toHaveValue("6.5");
    expect(cell("LSL *")).toHaveValue("1");
    expect(document.querySelectorAll(".lw-row-unsaved").length).toBeGreaterThan(0);
    expect(screen.getByRole("button", { name: M.saveChanges })).not.toBeDisabled();
  });
});
