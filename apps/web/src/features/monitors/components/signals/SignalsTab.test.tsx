import {
  MONITOR_MESSAGES,
  monitorFormErrors,
  newMonitorForm,
  type TFormMode,
  type TFormMonitorType,
  type TMonitorFormValues,
  type TSignalGroup,
  type TStation,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { FormProvider, type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlantLineProvider } from "../../../../app/context/PlantLineContext";
import { installResizeObserver, testCustomer, testLine, testMe, testPlant } from "../../../../test/fixtures";
import { mockApi, refusal } from "../../../../test/mockApi";
import { SECTION_LABELS, SELECTED_ITEM_TEXT } from "../../../signals/signal-tree";
import { buildGroup, buildLargeLine, buildStation, fixtureId } from "../../../signals/signal-tree.fixtures";
import { MonitorFormContext } from "../MonitorFormContext";
import { SignalsTab } from "./SignalsTab";
import { SIGNALS_TAB_TEXT } from "./signals-text";

// jsdom has no layout: give scroll containers a size and a ResizeObserver so the virtual tree draws rows.
installResizeObserver();
Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 432 });
Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 600 });

const id = (n: number) => fixtureId(5, n);
const NOW = Date.parse("2026-11-22T10:00:00Z");
const customer = { ...testCustomer, id: id(1) };
const plant = testPlant({ id: id(2) });
const me = testMe({
  id: id(3),
  email: "planner@acme.test",
  homeCustomer: customer,
  customer,
  selectedPlantId: plant.id,
});
const buildLine = (lineId: string, name: string) => testLine({ id: lineId, plantId: plant.id, name });
const lineA = buildLine(id(10), "Line A");
const lineB = buildLine(id(11), "Line B");
const bigLine = buildLine(id(12), "Big Line");

const S = {
  force: id(101),
  depth: id(102),
  usl: id(103),
  colour: id(104),
  retired: id(105),
  leak: id(201),
  pressure: id(202),
  weld: id(301),
};
const stationsOf: Record<string, TStation[]> = {
  [lineA.id]: [
    buildStation(id(100), "OP010 Press", [
      { id: S.force, name: "press_force", friendlyName: "Press Force" },
      { id: S.depth, name: "press_depth" },
      { id: S.usl, name: "press_force_usl", entityType: "UPPER_LIMIT" },
      { id: S.colour, name: "housing_colour", friendlyName: "Housing Colour", entityType: "PART_ATTRIBUTE" },
      { id: S.retired, name: "press_speed", isSignalActive: false },
    ]),
    buildStation(id(200), "OP020 Leak Test", [
      { id: S.leak, name: "leak_rate", friendlyName: "Leak Rate" },
      { id: S.pressure, name: "test_pressure" },
    ]),
  ],
  [lineB.id]: [buildStation(id(300), "OP100 Weld", [{ id: S.weld, name: "weld_current" }])],
  [bigLine.id]: buildLargeLine(5000, 100),
};
const G = { press: id(401), leak: id(402) };
const groupsOf: Record<string, TSignalGroup[]> = {
  [lineA.id]: [
    buildGroup(G.press, "Press group", [S.force, S.depth]),
    buildGroup(G.leak, "Leak checks", [S.leak]),
  ],
};

const signalRequests: URL[] = [];
let failSignals = false;
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(me)),
  mockApi.get("*/api/plants", () => HttpResponse.json([plant])),
  mockApi.get("*/api/plants/:plantId/lines", () => HttpResponse.json([lineA, lineB, bigLine])),
  mockApi.get("*/api/lines/:lineId/signals", ({ request, params }) => {
    const url = new URL(request.url);
    signalRequests.push(url);
    if (failSignals) return refusal(500, { message: "Database unavailable" });
    const activeOnly = url.searchParams.get("active") === "true";
    const stations = (stationsOf[params.lineId as string] ?? []).map((s) => ({
      ...s,
      signals: s.signals.filter((x) => !activeOnly || x.isSignalActive),
    }));
    return HttpResponse.json(stations);
  }),
  mockApi.post("*/api/signal-groups", async ({ request }) => {
    const body = JSON.parse(await request.text()) as { lineUuid: string };
    return HttpResponse.json(groupsOf[body.lineUuid] ?? []);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  signalRequests.length = 0;
  failSignals = false;
});
afterAll(() => server.close());

type Setup = {
  type?: TFormMonitorType;
  mode?: TFormMode;
  showErrors?: boolean;
  lineId?: string;
  values?: Partial<TMonitorFormValues>;
};

let form: UseFormReturn<TMonitorFormValues>;

/** The monitor form around the tab: react-hook-form values and the form context with live errors. */
function Harness(p: Required<Pick<Setup, "mode" | "showErrors">> & { initial: TMonitorFormValues }) {
  form = useForm<TMonitorFormValues>({ defaultValues: p.initial });
  const values = useWatch({ control: form.control }) as TMonitorFormValues;
  // Subscribe to dirtiness as the form shell does (it asks before a dirty form closes).
  void form.formState.dirtyFields;
  const errors = monitorFormErrors({ ...p.initial, ...values }, { now: NOW });
  return (
    <FormProvider {...form}>
      <MonitorFormContext.Provider
        value={{
          mode: p.mode,
          readOnly: p.mode === "VIEW",
          showErrors: p.showErrors,
          errors,
          customerId: customer.id,
          plant,
          maxRecordCount: 10_000,
          now: () => NOW,
        }}
      >
        <SignalsTab />
      </MonitorFormContext.Provider>
    </FormProvider>
  );
}

function renderTab(s: Setup = {}) {
  const initial = {
    ...newMonitorForm(s.type ?? "mvd", s.lineId ?? lineA.id, { now: NOW, name: "Press MVD Monitor 1" }),
    ...s.values,
  };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <PlantLineProvider>
        <Harness initial={initial} mode={s.mode ?? "CREATE"} showErrors={s.showErrors ?? false} />
      </PlantLineProvider>
    </QueryClientProvider>,
  );
}

const tree = () => screen.findByRole("tree", { name: SIGNALS_TAB_TEXT.treeLabel });
const item = (name: string) => screen.getByRole("treeitem", { name });
const selectedList = () => screen.queryByRole("list", { name: SIGNALS_TAB_TEXT.selectedItems });
const selectedNames = () =>
  within(selectedList() ?? document.createElement("ul"))
    .queryAllByRole("listitem")
    .map((li) => li.querySelector(".MuiListItemText-primary")?.textContent);
const search = () => screen.getByRole("searchbox", { name: SIGNALS_TAB_TEXT.searchLabel });

describe("SignalsTab: the tree", { timeout: 30_000 }, () => {
  it("shows the line's stations with their active measurements and part attributes, and the groups", async () => {
    renderTab();
    await tree();
    expect(signalRequests.map((u) => [u.pathname, u.searchParams.get("active")])).toEqual([
      [`/api/lines/${lineA.id}/signals`, "true"],
    ]);
    for (const name of [SECTION_LABELS.groups, SECTION_LABELS.stations, "OP010 Press", "OP020 Leak Test"])
      expect(item(name)).toBeInTheDocument();
    expect(item("Press Force")).toHaveAttribute("aria-selected", "false");
    expect(item("press_depth")).toBeInTheDocument();
    // Groups start closed.
    expect(item("Press group")).toHaveAttribute("aria-expanded", "false");
    // A part attribute is listed but cannot be chosen; limits and inactive signals are not listed.
    const colour = item("Housing Colour");
    expect(colour).toHaveAccessibleDescription(SIGNALS_TAB_TEXT.attributeHint);
    expect(colour.hasAttribute("aria-selected")).toBe(false);
    expect(screen.queryByRole("treeitem", { name: "press_force_usl" })).not.toBeInTheDocument();
    expect(screen.queryByRole("treeitem", { name: "press_speed" })).not.toBeInTheDocument();
  });

  it("a group opens to show its signals; a station closes", async () => {
    const ue = userEvent.setup();
    renderTab();
    await tree();
    const chevron = item("Press group").querySelector("[aria-hidden]") as HTMLElement;
    await ue.click(chevron);
    expect(item("Press group")).toHaveAttribute("aria-expanded", "true");
    const members = screen.getAllByRole("treeitem", { name: "Press Force" });
    expect(members.map((m) => m.getAttribute("aria-level"))).toEqual(["3", "3"]);
    await ue.click(item("OP010 Press"));
    expect(item("OP010 Press")).toHaveAttribute("aria-expanded", "false");
    // Left: the member of the open group only.
    const left = screen.getAllByRole("treeitem", { name: "press_depth" });
    expect(left).toHaveLength(1);
    expect(left[0]).toHaveAccessibleDescription("OP010 Press");
  });

  it("search finds stations, signals by friendly name and part attributes; nothing found says so", async () => {
    const ue = userEvent.setup();
    renderTab();
    await tree();
    expect(search()).toHaveAttribute("placeholder", SIGNALS_TAB_TEXT.searchPlaceholder);

    await ue.type(search(), "leak rate");
    await waitFor(() =>
      expect(screen.queryByRole("treeitem", { name: "Press Force" })).not.toBeInTheDocument(),
    );
    expect(item("Leak Rate")).toBeInTheDocument();
    expect(screen.queryByRole("treeitem", { name: "test_pressure" })).not.toBeInTheDocument();
    expect(screen.queryByRole("treeitem", { name: SECTION_LABELS.groups })).not.toBeInTheDocument();

    await ue.clear(search());
    await ue.type(search(), "op010");
    await waitFor(() => expect(item("press_depth")).toBeInTheDocument());
    expect(item("Housing Colour")).toBeInTheDocument();

    await ue.clear(search());
    await ue.type(search(), "colour");
    await waitFor(() =>
      expect(screen.queryByRole("treeitem", { name: "Press Force" })).not.toBeInTheDocument(),
    );
    expect(item("Housing Colour")).toBeInTheDocument();

    await ue.clear(search());
    await ue.type(search(), "checks");
    await waitFor(() => expect(item("Leak checks")).toBeInTheDocument());
    expect(screen.queryByRole("treeitem", { name: "Press group" })).not.toBeInTheDocument();

    await ue.clear(search());
    await ue.type(search(), "no such signal");
    expect(await screen.findByText(SIGNALS_TAB_TEXT.noResults)).toBeInTheDocument();
    expect(screen.queryByRole("tree")).not.toBeInTheDocument();
  });

  it("shows a spinner while loading and an error with Retry that loads again", async () => {
    const ue = userEvent.setup();
    failSignals = true;
    renderTab();
    expect(await screen.findByRole("progressbar", { name: "Loading" })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(SIGNALS_TAB_TEXT.loadError);
    expect(alert).toHaveTextContent("Database unavailable");
    failSignals = false;
    await ue.click(within(alert).getByRole("button", { name: "Retry" }));
    await tree();
    expect(item("Press Force")).toBeInTheDocument();
  });

  it("keeps the picker at least 570 px tall", async () => {
    renderTab();
    await tree();
    expect(getComputedStyle(screen.getByTestId("signal-picker")).minHeight).toBe("570px");
  });
});

describe("SignalsTab: choosing signals", { timeout: 30_000 }, () => {
  it("MVD: needs 2 signals or a group; chosen items appear in Selected Items and can be removed", async () => {
    const ue = userEvent.setup();
    renderTab({ type: "mvd", showErrors: true });
    await tree();
    expect(screen.getByRole("alert").textContent).toBe(MONITOR_MESSAGES.mvdSignals);

    await ue.click(item("Press Force"));
    expect(item("Press Force")).toHaveAttribute("aria-selected", "true");
    expect(selectedNames()).toEqual(["Press Force"]);
    expect(screen.getByRole("alert").textContent).toBe(MONITOR_MESSAGES.mvdSignals);

    await ue.click(item("Leak Rate"));
    expect(form.getValues("signal_uuids")).toEqual([S.force, S.leak]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(form.formState.dirtyFields.signal_uuids).toBeTruthy();

    // Unchoosing one brings the message back; a group alone is enough.
    await ue.click(item("Leak Rate"));
    expect(screen.getByRole("alert").textContent).toBe(MONITOR_MESSAGES.mvdSignals);
    await ue.click(item("Press Force"));
    await ue.click(item("Leak checks"));
    expect(item("Leak checks")).toHaveAttribute("aria-selected", "true");
    expect(form.getValues("signal_group_uuids")).toEqual([G.leak]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(selectedNames()).toEqual(["Leak checks"]);

    await ue.click(screen.getByRole("button", { name: "Remove Leak checks" }));
    expect(form.getValues("signal_group_uuids")).toEqual([]);
    expect(item("Leak checks")).toHaveAttribute("aria-selected", "false");
    expect(screen.getByText(SIGNALS_TAB_TEXT.noneSelected)).toBeInTheDocument();
  });

  it("MVD: a part attribute cannot be chosen", async () => {
    const ue = userEvent.setup();
    renderTab({ type: "mvd" });
    await tree();
    await ue.click(item("Housing Colour"));
    expect(form.getValues("signal_uuids")).toEqual([]);
    expect(selectedList()).not.toBeInTheDocument();
  });

  it("SVD: exactly one signal, another replaces it; groups open instead of being chosen", async () => {
    const ue = userEvent.setup();
    renderTab({ type: "svd", showErrors: true });
    await tree();
    expect(screen.getByRole("alert").textContent).toBe(MONITOR_MESSAGES.svdSignalNone);
    expect(screen.getByRole("tree").hasAttribute("aria-multiselectable")).toBe(false);

    await ue.click(item("Press Force"));
    await ue.click(item("test_pressure"));
    expect(form.getValues("signal_uuids")).toEqual([S.pressure]);
    expect(item("Press Force")).toHaveAttribute("aria-selected", "false");
    expect(item("test_pressure")).toHaveAttribute("aria-selected", "true");
    expect(selectedNames()).toEqual(["test_pressure"]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    const group = item("Press group");
    expect(group).toHaveAttribute("aria-disabled", "true");
    expect(group).toHaveAccessibleDescription(new RegExp(`${SIGNALS_TAB_TEXT.groupsMvdOnly}$`));
    await ue.click(group);
    expect(form.getValues("signal_group_uuids")).toEqual([]);
    expect(item("Press group")).toHaveAttribute("aria-expanded", "true");
  });

  it("SVD values with two signals (from elsewhere) show the 'Signal selection is required' message", async () => {
    renderTab({ type: "svd", showErrors: true, values: { signal_uuids: [S.force, S.leak] } });
    await tree();
    expect(screen.getByRole("alert").textContent).toBe(MONITOR_MESSAGES.svdSignalRequired);
  });

  it("lists a chosen signal the line no longer has, so it can be removed", async () => {
    const ue = userEvent.setup();
    renderTab({ values: { signal_uuids: [S.retired, S.force] } });
    await tree();
    expect(selectedNames()).toEqual([S.retired, "Press Force"]);
    expect(screen.getByText(SELECTED_ITEM_TEXT.notOnLine)).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: `Remove ${S.retired}` }));
    expect(form.getValues("signal_uuids")).toEqual([S.force]);
  });

  it("a line change clears signals, groups, part numbers and part attributes and shows the new line", async () => {
    const ue = userEvent.setup();
    renderTab({
      values: {
        signal_uuids: [S.force, S.leak],
        signal_group_uuids: [G.press],
        part_numbers: ["PN-1"],
        part_attributes: [{ attributeUuid: S.colour, selectedAttributeValues: ["red"] }],
      },
    });
    await tree();
    await ue.click(screen.getByRole("combobox", { name: SIGNALS_TAB_TEXT.lineLabel }));
    await ue.click(await screen.findByRole("option", { name: "Line B" }));

    expect(form.getValues("line_uuid")).toBe(lineB.id);
    expect(form.getValues("signal_uuids")).toEqual([]);
    expect(form.getValues("signal_group_uuids")).toEqual([]);
    expect(form.getValues("part_numbers")).toEqual([]);
    expect(form.getValues("part_attributes")).toEqual([]);
    expect(form.formState.dirtyFields.line_uuid).toBe(true);
    expect(await screen.findByRole("treeitem", { name: "weld_current" })).toBeInTheDocument();
    expect(screen.queryByRole("treeitem", { name: "Press Force" })).not.toBeInTheDocument();
    expect(selectedList()).not.toBeInTheDocument();
    expect(signalRequests.at(-1)?.pathname).toBe(`/api/lines/${lineB.id}/signals`);
  });
});

describe("SignalsTab: VIEW and keyboard", { timeout: 30_000 }, () => {
  it("VIEW: browsable but nothing can be chosen or removed, and the line cannot change", async () => {
    const ue = userEvent.setup();
    renderTab({ mode: "VIEW", values: { signal_uuids: [S.force, S.depth] } });
    await tree();
    expect(selectedNames()).toEqual(["Press Force", "press_depth"]);
    expect(screen.queryAllByRole("button", { name: /^Remove / })).toHaveLength(0);
    expect(screen.getByRole("combobox", { name: SIGNALS_TAB_TEXT.lineLabel })).toHaveAttribute(
      "aria-disabled",
      "true",
    );

    await ue.click(item("Leak Rate"));
    await ue.click(item("Press Force"));
    expect(form.getValues("signal_uuids")).toEqual([S.force, S.depth]);
    expect(item("Press Force")).toHaveAttribute("aria-selected", "true");
    expect(item("Press Force")).toHaveAttribute("aria-disabled", "true");
    // Groups open (not chosen) and search still works.
    await ue.click(item("Press group"));
    expect(form.getValues("signal_group_uuids")).toEqual([]);
    expect(item("Press group")).toHaveAttribute("aria-expanded", "true");
    await ue.type(search(), "leak");
    await waitFor(() =>
      expect(screen.queryByRole("treeitem", { name: "Press Force" })).not.toBeInTheDocument(),
    );
  });

  it("search → ArrowDown into the tree; arrows move, Left closes, Space and Enter choose", async () => {
    const ue = userEvent.setup();
    renderTab({ type: "mvd" });
    await tree();
    await ue.click(search());
    await ue.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(item(SECTION_LABELS.groups));
    // Signals Groups, Press group, Leak checks, Stations, OP010 Press, Press Force
    await ue.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}");
    expect(document.activeElement).toBe(item("OP010 Press"));
    await ue.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(item("Press Force"));
    await ue.keyboard(" ");
    await ue.keyboard("{ArrowDown}{Enter}");
    expect(form.getValues("signal_uuids")).toEqual([S.force, S.depth]);
    // Left on a signal goes to its station; Left again closes it.
    await ue.keyboard("{ArrowLeft}");
    expect(document.activeElement).toBe(item("OP010 Press"));
    await ue.keyboard("{ArrowLeft}");
    expect(item("OP010 Press")).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("treeitem", { name: "Press Force" })).not.toBeInTheDocument();
    await ue.keyboard("{ArrowRight}");
    expect(item("OP010 Press")).toHaveAttribute("aria-expanded", "true");

    // Only the active row is in the Tab order: Tab from the search lands on it.
    await ue.click(search());
    await ue.tab();
    expect(document.activeElement).toBe(item("OP010 Press"));
    expect(screen.getAllByRole("treeitem").filter((r) => r.tabIndex === 0)).toHaveLength(1);
  });

  it("5,000 signals: only a window of rows is drawn, and search narrows them", async () => {
    const ue = userEvent.setup();
    renderTab({ lineId: bigLine.id });
    await tree();
    const drawn = screen.getAllByRole("treeitem");
    // 432 px / 36 px rows = 12 in view, plus 8 overscan.
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThanOrEqual(25);
    expect(item("OP010 Station")).toBeInTheDocument();
    expect(screen.queryByRole("treeitem", { name: "OP1000 Station" })).not.toBeInTheDocument();

    await ue.type(search(), "torque_77_");
    await waitFor(() =>
      expect(screen.queryByRole("treeitem", { name: "OP010 Station" })).not.toBeInTheDocument(),
    );
    expect(item("OP770 Station")).toBeInTheDocument();
    expect(item("torque 77.1")).toBeInTheDocument();
    expect(screen.getAllByRole("treeitem").length).toBeLessThanOrEqual(25);
  });
});
