import {
  defaultFeatureFlags,
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  type TAssociatedResultClassifications,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TFeatureFlagsResponse,
  type TSpcSignalLimits,
  type TStation,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../app/context/PlantLineContext";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { installResizeObserver, testLine, testMe, testPlant } from "../../../test/fixtures";
import { mockApi, refusal } from "../../../test/mockApi";
import { buildStation, fixtureId } from "../../signals/signal-tree.fixtures";
import { SignalManagementPage } from "./SignalManagementPage";
import { SESSION_KEYS } from "./signal-management.tree";

// jsdom has no layout: a size for the virtual tree, and a ResizeObserver.
installResizeObserver();
Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 800 });
Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 600 });

const plant = testPlant();
const line = testLine({ id: fixtureId(7, 1), plantId: plant.id, name: "Axle" });
const line2 = testLine({ id: fixtureId(7, 2), plantId: plant.id, name: "Gearbox" });
const me = testMe({ selectedPlantId: plant.id, selectedLineId: line.id });
const id = (n: number) => fixtureId(9, n);
const stations = (): TStation[] => [
  buildStation(id(100), "OP10", [
    { id: id(1), name: "Torque", upperLimit: id(2), lowerLimit: id(3), result: id(4) },
    { id: id(5), name: "Angle", friendlyName: "Spindle angle" },
    { id: id(2), name: "Torque USL", entityType: "UPPER_LIMIT" },
    { id: id(3), name: "Torque LSL", entityType: "LOWER_LIMIT" },
    { id: id(4), name: "Result", entityType: "RESULT" },
    { id: id(6), name: "Shift", entityType: "PART_ATTRIBUTE" },
  ]),
  { ...buildStation(id(101), "OP20", [{ id: id(7), name: "Leak" }]), final: false },
  buildStation(id(102), "OP30", [{ id: id(8), name: "Leak Result", entityType: "RESULT" }]),
  { ...buildStation(id(103), "Default", []), isDefault: true },
];
const classifications: TAssociatedResultClassifications = {
  [id(4)]: {
    associatedResultClassifications: {
      pass: [{ value: "OK", failureMode: null }],
      fail: [{ value: "NOK", failureMode: "Torque low" }],
      other: [],
    },
  },
  [id(8)]: {
    associatedResultClassifications: { pass: [{ value: "OK", failureMode: null }], fail: [], other: [] },
  },
};

/** The line's cap limits: none, unless a test gives Leak a USL formula using Torque USL. */
let spcLimits: TSpcSignalLimits[] = [];
const patches: { url: string; body: unknown }[] = [];
let flags: TFeatureFlagsResponse;
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/feature-flags", () => HttpResponse.json(flags)),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([line, line2])),
  mockApi.get("*/api/lines/:lineId/signals", ({ params }) =>
    HttpResponse.json(params.lineId === line.id ? stations() : []),
  ),
  mockApi.get("*/api/line-config/spc-signal-limits", () => HttpResponse.json(spcLimits)),
  mockApi.post("*/api/signal/associated-result-classifications", async ({ request }) => {
    const ids = JSON.parse(await request.text()) as string[];
    // A signal without classifications is left out (as JSON left out its undefined before).
    return HttpResponse.json(
      Object.fromEntries(ids.flatMap((i) => (classifications[i] ? [[i, classifications[i]] as const] : []))),
    );
  }),
  // Every PATCH the page sends (four 204 routes), recorded by path: msw's plain handler.
  http.patch("*/api/*", async ({ request }) => {
    patches.push({ url: new URL(request.url).pathname, body: JSON.parse(await request.text()) });
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  patches.length = 0;
  spcLimits = [];
  sessionStorage.clear();
  flags = { flags: defaultFeatureFlags(true), etqOverride: false };
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function renderPage() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SnackbarProvider>
        <PlantLineProvider>
          <SignalManagementPage />
        </PlantLineProvider>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}
const row = (name: string) => screen.findByRole("treeitem", { name });
const click = async (name: string, opts: { ctrlKey?: boolean; shiftKey?: boolean } = {}) =>
  fireEvent.click(await row(name), opts);

describe("Signal Management: tree and forms", { timeout: 30_000 }, () => {
  it("starts with the hint; Configure Station opens the station form and its Final Station switch", async () => {
    renderPage();
    expect(await screen.findByText(TEXT.configuringHint)).toBeInTheDocument();
    expect(await row("OP10")).toBeInTheDocument();
    // The line's default station (signals that arrive without one) is not configured here.
    expect(await row("Default")).toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: `${TEXT.configureStation} Default` }),
    ).not.toBeInTheDocument();
    // OP20 has no result signal: its switch is disabled; OP10 has one.
    fireEvent.click(screen.getByRole("button", { name: `${TEXT.configureStation} OP20` }));
    const op20 = await screen
      .findByRole("region", { name: "OP20" })
      .catch(() => screen.getByLabelText("OP20"));
    expect(within(op20).getByRole("switch", { name: TEXT.finalStation }) as HTMLInputElement).toHaveProperty(
      "disabled",
      true,
    );
    expect(screen.getByText(MSG.finalStationNeedsResult)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: `${TEXT.configureStation} OP10` }));
    fireEvent.click(await screen.findByRole("switch", { name: TEXT.finalStation }));
    await waitFor(() =>
      expect(patches).toEqual([{ url: `/api/stations/${id(100)}`, body: { final: true } }]),
    );
  });

  it("plain click replaces, ctrl toggles, shift adds a range; the summary counts them", async () => {
    renderPage();
    await click("Torque");
    expect(await screen.findByRole("button", { name: TEXT.selectionSummary(1) })).toBeInTheDocument();
    await click("Spindle angle", { ctrlKey: true });
    fireEvent.click(await screen.findByRole("button", { name: TEXT.selectionSummary(2) }));
    const summary = await screen.findByRole("dialog");
    expect(within(summary).getByText("Spindle angle")).toBeInTheDocument();
    fireEvent.click(within(summary).getByRole("switch", { name: TEXT.useFriendlyNames }));
    expect(within(summary).getByText("Angle")).toBeInTheDocument();
    fireEvent.click(within(summary).getByRole("button", { name: TEXT.close }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await click("Leak");
    expect(await screen.findByRole("button", { name: TEXT.selectionSummary(1) })).toBeInTheDocument();
    await click("Result", { shiftKey: true });
    // Result, Shift (OP10) and Leak (OP20): the range runs across stations in tree order.
    fireEvent.click(await screen.findByRole("button", { name: TEXT.selectionSummary(3) }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Shift")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.close }));
    fireEvent.click(await screen.findByRole("button", { name: TEXT.clearSelection }));
    expect(await screen.findByText(TEXT.configuringHint)).toBeInTheDocument();
  });

  it("without the multiselect flag ctrl-click replaces", async () => {
    flags = { flags: { ...defaultFeatureFlags(true), multiselectTree: false }, etqOverride: false };
    renderPage();
    await click("Torque");
    await click("Leak", { ctrlKey: true });
    expect(await screen.findByRole("button", { name: TEXT.selectionSummary(1) })).toBeInTheDocument();
  });

  it("preselects the remembered line and signal from session storage", async () => {
    sessionStorage.setItem(SESSION_KEYS.line, line.id);
    sessionStorage.setItem(SESSION_KEYS.signal, id(7));
    renderPage();
    expect(await screen.findByRole("button", { name: TEXT.selectionSummary(1) })).toBeInTheDocument();
    expect(screen.getByLabelText(TEXT.name)).toHaveValue("Leak");
  });

  it("edits a friendly name: leading spaces refused, Save sends it", async () => {
    const ue = userEvent.setup();
    renderPage();
    await click("Leak");
    await ue.click(await screen.findByRole("button", { name: TEXT.configure }));
    const input = screen.getByRole("textbox", { name: TEXT.friendlyName });
    await ue.type(input, " Leak rate");
    expect(screen.getByText(MSG.noLeadingSpaces)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.save })).toBeDisabled();
    await ue.clear(input);
    await ue.type(input, "Leak rate");
    await ue.click(screen.getByRole("button", { name: TEXT.save }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]?.body).toMatchObject({
      signalRequest: { line_uuid: line.id, plant_uuid: plant.id },
      signals: [{ signal_uuid: id(7), signal_attributes: { signal_friendly_name: "Leak rate" } }],
    });
    // back to its default state
    expect(await screen.findByRole("button", { name: TEXT.configure })).toBeInTheDocument();
  });

  it("an entity type change shows what converts and what is dissociated, then saves", async () => {
    const ue = userEvent.setup();
    renderPage();
    await click("Torque");
    await ue.click(await screen.findByRole("combobox", { name: TEXT.entityType }));
    await ue.click(await screen.findByRole("option", { name: "Unknown" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Torque — Upper Limit: Torque USL")).toBeInTheDocument();
    expect(within(dialog).getByText("Torque — Result: Result")).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: TEXT.changeEntityType }));
    expect(await screen.findByText(MSG.entitySaved)).toBeInTheDocument();
    expect(patches[0]?.body).toMatchObject({
      signals: [{ signal_uuid: id(1), signal_attributes: { signal_entity_type: "UNKNOWN" } }],
    });
  });

  it("an entity type change names the cap limit formulas that use a converted signal before it is confirmed", async () => {
    spcLimits = [
      {
        lineUUID: line.id,
        stationName: "OP20",
        signalUUID: id(7),
        signalName: "Leak",
        singleSide: null,
        limits: [
          {
            uuid: id(300),
            model_number: "*",
            lslFormula: null,
            lclFormula: null,
            uclFormula: null,
            uslFormula: `{${id(2)}} + 0.5`,
          },
        ],
      },
    ];
    const ue = userEvent.setup();
    renderPage();
    await click("Torque USL");
    await ue.click(await screen.findByRole("combobox", { name: TEXT.entityType }));
    await ue.click(await screen.findByRole("option", { name: "Unknown" }));
    const dialog = await screen.findByRole("dialog");
    const formulas = await within(dialog).findByRole("list", { name: TEXT.capFormulas });
    expect(within(formulas).getByText(TEXT.capFormulaLine("Leak", "USL", "*"))).toBeInTheDocument();
    expect(within(formulas).getByText(TEXT.capFormulaUses("Torque USL"))).toBeInTheDocument();
    expect(within(dialog).getByText("Torque — Upper Limit: Torque USL")).toBeInTheDocument();
    await ue.click(within(dialog).getByRole("button", { name: TEXT.changeEntityType }));
    expect(await screen.findByText(MSG.entitySaved)).toBeInTheDocument();
    // The formulas are not part of the change: they are kept and go on reading the signal.
    expect(patches).toHaveLength(1);
    expect(patches[0]?.body).toMatchObject({
      signals: [{ signal_uuid: id(2), signal_attributes: { signal_entity_type: "UNKNOWN" } }],
    });
  });

  it("the association view shows a measurement's associations; a mixed selection says so", async () => {
    renderPage();
    await click("Torque");
    const section = await screen.findByRole("region", { name: TEXT.associations });
    expect(within(section).getByText("Torque USL")).toBeInTheDocument();
    await click("Spindle angle", { ctrlKey: true });
    expect(await screen.findByText(TEXT.mixedAssociations)).toBeInTheDocument();
    await click("Result", { ctrlKey: true });
    expect(await screen.findByText(MSG.associationsMultipleTypes)).toBeInTheDocument();
  });
});

describe("Signal Management: states and rules of the form", { timeout: 30_000 }, () => {
  it("says 'No Lines' when the plant has none", async () => {
    server.use(mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([])));
    renderPage();
    expect(await screen.findByText(TEXT.noLines)).toBeInTheDocument();
    expect(screen.getByText(TEXT.noLinesText)).toBeInTheDocument();
  });

  it("a line change clears the selection and the search", async () => {
    const ue = userEvent.setup();
    renderPage();
    await click("Torque");
    await ue.type(screen.getByRole("textbox", { name: TEXT.searchLabel }), "tor");
    const lineSelect = screen.getAllByRole("combobox", { name: TEXT.lineLabel }).at(-1) as HTMLElement;
    await ue.click(lineSelect);
    await ue.click(await screen.findByRole("option", { name: "Gearbox" }));
    expect(await screen.findByText(TEXT.configuringHint)).toBeInTheDocument();
    expect((screen.getByRole("textbox", { name: TEXT.searchLabel }) as HTMLInputElement).value).toBe("");
    expect(await screen.findByText(TEXT.noStations)).toBeInTheDocument();
  });

  it("says 'Failed to update Station' when the save is refused", async () => {
    server.use(mockApi.patch("*/api/stations/:id", () => refusal(500, { message: "nope" })));
    renderPage();
    fireEvent.click(await screen.findByRole("button", { name: `${TEXT.configureStation} OP10` }));
    fireEvent.click(await screen.findByRole("switch", { name: TEXT.finalStation }));
    expect(await screen.findByText(MSG.stationSaveFailed)).toBeInTheDocument();
  });

  it("a signal switched off dims and disables the fields below its status; switching it on saves", async () => {
    server.use(
      mockApi.get("*/api/lines/:lineId/signals", () =>
        HttpResponse.json(
          stations().map((st) => ({
            ...st,
            signals: st.signals.map((x) => (x.id === id(7) ? { ...x, isSignalActive: false } : x)),
          })),
        ),
      ),
    );
    renderPage();
    await click("Leak");
    expect(await screen.findByRole("combobox", { name: TEXT.entityType })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    expect(screen.getByRole("button", { name: TEXT.configure })).toBeDisabled();
    fireEvent.click(screen.getByRole("switch", { name: TEXT.signalStatus }));
    await waitFor(() =>
      expect(patches[0]?.body).toMatchObject({
        signals: [{ signal_uuid: id(7), signal_attributes: { signal_active: true } }],
      }),
    );
  });

  it("mixed quality characteristics show 'Mixed', which cannot be chosen", async () => {
    const ue = userEvent.setup();
    server.use(
      mockApi.get("*/api/lines/:lineId/signals", () =>
        HttpResponse.json(
          stations().map((st) => ({
            ...st,
            signals: st.signals.map((x) =>
              x.id === id(1) ? { ...x, qualityCharacteristic: "CRITICAL" } : x,
            ),
          })),
        ),
      ),
    );
    renderPage();
    await click("Torque");
    await click("Spindle angle", { ctrlKey: true });
    const quality = await screen.findByRole("combobox", { name: TEXT.qualityCharacteristic });
    expect(quality.textContent).toBe(TEXT.mixed);
    await ue.click(quality);
    expect(await screen.findByRole("option", { name: TEXT.mixed })).toHaveAttribute("aria-disabled", "true");
    await ue.click(screen.getByRole("option", { name: "Significant" }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]?.body).toMatchObject({
      signals: [
        { signal_uuid: id(1), signal_attributes: { quality_characteristic: "SIGNIFICANT" } },
        { signal_uuid: id(5), signal_attributes: { quality_characteristic: "SIGNIFICANT" } },
      ],
    });
  });

  it("Distribution: measurements only, behind the single-sided flag; saves the boundary", async () => {
    renderPage();
    await click("Torque");
    const single = await screen.findByRole("switch", { name: TEXT.singleSided });
    fireEvent.click(single);
    expect(await screen.findByText(MSG.distributionSaved)).toBeInTheDocument();
    expect(patches[0]).toEqual({ url: "/api/signals", body: [{ id: id(1), singleSide: "LOWER" }] });
    await click("Result", { ctrlKey: true });
    await waitFor(() =>
      expect(screen.queryByRole("switch", { name: TEXT.singleSided })).not.toBeInTheDocument(),
    );
    cleanup();
    flags = { flags: { ...defaultFeatureFlags(true), capSingleSided: false }, etqOverride: false };
    renderPage();
    await click("Torque");
    await screen.findByRole("switch", { name: TEXT.signalStatus });
    expect(screen.queryByRole("switch", { name: TEXT.singleSided })).not.toBeInTheDocument();
  });
});

describe("Signal Management: associations", { timeout: 30_000 }, () => {
  it("edits in four containers with their rules, then confirms in two steps", async () => {
    renderPage();
    await click("Torque");
    fireEvent.click(await screen.findByRole("button", { name: TEXT.editAssociations }));
    const result = await screen.findByRole("group", { name: TEXT.containers.result });
    expect(within(result).getByText("Result", { selector: ".MuiChip-label" })).toBeInTheDocument();
    // Part attributes cannot be associated.
    expect(await row("Shift")).toHaveAttribute("title", TEXT.onlyAssociable);
    // A second result breaks the rule; Confirm waits.
    await click("Leak Result", { ctrlKey: true });
    expect(await screen.findByText(MSG.noMoreThanOne("result"))).toBeInTheDocument();
    const confirm = screen.getByRole("button", { name: TEXT.confirm }) as HTMLButtonElement;
    expect(confirm).toBeDisabled();
    await click("Result", { ctrlKey: true });
    await waitFor(() => expect(confirm).not.toBeDisabled());
    fireEvent.click(confirm);
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(TEXT.noEntityChanges)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.next }));
    expect(within(dialog).getByText("Torque — Result: Result")).toBeInTheDocument();
    expect(within(dialog).getByText("Torque — Result: Leak Result")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.back }));
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.next }));
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.saveConfiguration }));
    expect(await screen.findByText(MSG.associationSaved)).toBeInTheDocument();
    expect(patches[0]?.body).toMatchObject({
      signals: [{ signal_uuid: id(1), signal_attributes: { result: id(8) } }],
    });
  });

  it("without a measurement Confirm is disabled with the spec's message", async () => {
    renderPage();
    await click("Torque");
    fireEvent.click(await screen.findByRole("button", { name: TEXT.editAssociations }));
    await click("Torque", { ctrlKey: true });
    expect(await screen.findByText(MSG.atLeastOneMeasurement)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.confirm })).toBeDisabled();
  });

  it("says 'Error Saving Associations' when the save fails", async () => {
    server.use(mockApi.patch("*/api/signal-attribute-update", () => refusal(500, { message: "nope" })));
    renderPage();
    await click("Torque");
    fireEvent.click(await screen.findByRole("button", { name: TEXT.editAssociations }));
    await click("Torque USL", { ctrlKey: true });
    fireEvent.click(await screen.findByRole("button", { name: TEXT.confirm }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.next }));
    fireEvent.click(within(dialog).getByRole("button", { name: TEXT.saveConfiguration }));
    expect(await screen.findByText(MSG.associationFailed)).toBeInTheDocument();
  });
});

describe("Signal Management: result classifications", { timeout: 30_000 }, () => {
  it("one signal: its table; Add Classification validates; Save sends the lists", async () => {
    const ue = userEvent.setup();
    renderPage();
    await click("Result");
    await ue.click(await screen.findByRole("button", { name: TEXT.editResultClassifications }));
    const panel = await screen.findByRole("region", { name: TEXT.editResultClassifications });
    expect(await within(panel).findByText(TEXT.classificationsFor("Result"))).toBeInTheDocument();
    const save = within(panel).getByRole("button", { name: TEXT.saveChanges }) as HTMLButtonElement;
    expect(save).toBeDisabled();
    await ue.click(within(panel).getByRole("button", { name: TEXT.addClassification }));
    expect(within(panel).getByText(MSG.classificationEmpty)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await ue.type(within(panel).getByRole("textbox", { name: TEXT.value }), "OK");
    expect(within(panel).getByText(MSG.classificationExists)).toBeInTheDocument();
    await ue.type(within(panel).getByRole("textbox", { name: TEXT.value }), "2");
    await waitFor(() => expect(save).not.toBeDisabled());
    // The selection is locked while the panel is open, and the tree stays in reach (the panel is
    // not modal), so hovering a signal shows why.
    expect(screen.getByRole("treeitem", { name: "Leak" })).toHaveAttribute(
      "title",
      TEXT.lockedWhileClassifications,
    );
    await ue.click(save);
    expect(await screen.findByText(TEXT.classificationsSaved)).toBeInTheDocument();
    expect(patches[0]).toEqual({
      url: "/api/signal/result-classifications",
      body: {
        [id(4)]: {
          resultClassifications: {
            pass: [{ value: "OK", failureMode: null }],
            fail: [{ value: "NOK", failureMode: "Torque low" }],
            other: [{ value: "OK2", failureMode: null }],
          },
        },
      },
    });
  });

  it("two signals: common and unique rows, Make Common, and Discard Changes on cancel", async () => {
    const ue = userEvent.setup();
    renderPage();
    await click("Result");
    await click("Leak Result", { ctrlKey: true });
    await ue.click(await screen.findByRole("button", { name: TEXT.editResultClassifications }));
    const panel = await screen.findByRole("region", { name: TEXT.editResultClassifications });
    const common = await within(panel).findByRole("table", { name: TEXT.commonClassifications });
    expect(within(common).getByText("OK")).toBeInTheDocument();
    const unique = within(panel).getByRole("table", { name: `${TEXT.uniqueClassifications} Result` });
    expect(within(unique).getByText("NOK")).toBeInTheDocument();
    expect(
      within(within(panel).getByRole("list", { name: TEXT.withoutUnique })).getByText("Leak Result"),
    ).toBeInTheDocument();
    await ue.click(within(unique).getByRole("button", { name: TEXT.makeCommon }));
    expect(
      within(within(panel).getByRole("table", { name: TEXT.commonClassifications })).getByText("NOK"),
    ).toBeInTheDocument();
    await ue.click(within(panel).getByRole("button", { name: TEXT.cancel }));
    const ask = await screen.findByRole("dialog", { name: TEXT.discardTitle });
    await ue.click(within(ask).getByRole("button", { name: TEXT.continueEditing }));
    await ue.click(await within(panel).findByRole("button", { name: TEXT.cancel }));
    await ue.click(
      within(await screen.findByRole("dialog", { name: TEXT.discardTitle })).getByRole("button", {
        name: TEXT.discardChanges,
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole("region", { name: TEXT.editResultClassifications })).not.toBeInTheDocument(),
    );
    expect(patches).toHaveLength(0);

    // Opened again it starts afresh, takes the focus, and Escape without changes closes it.
    await ue.click(screen.getByRole("button", { name: TEXT.editResultClassifications }));
    const again = await screen.findByRole("region", { name: TEXT.editResultClassifications });
    const commonAgain = await within(again).findByRole("table", { name: TEXT.commonClassifications });
    expect(within(commonAgain).getByText("OK")).toBeInTheDocument();
    expect(within(commonAgain).queryByText("NOK")).toBeNull();
    expect(screen.getByRole("dialog", { name: TEXT.editResultClassifications })).toHaveFocus();
    await ue.keyboard("{Escape}");
    await waitFor(() =>
      expect(screen.queryByRole("region", { name: TEXT.editResultClassifications })).not.toBeInTheDocument(),
    );
  });

  it("refuses to open for results classified differently", async () => {
    classifications[id(8)] = {
      associatedResultClassifications: { pass: [], fail: [{ value: "OK", failureMode: null }], other: [] },
    };
    try {
      renderPage();
      await click("Result");
      await click("Leak Result", { ctrlKey: true });
      expect(await screen.findByText(MSG.sameConfiguration)).toBeInTheDocument();
      expect(screen.getByRole("button", { name: TEXT.editResultClassifications })).toBeDisabled();
    } finally {
      classifications[id(8)] = {
        associatedResultClassifications: { pass: [{ value: "OK", failureMode: null }], fail: [], other: [] },
      };
    }
  });
});
