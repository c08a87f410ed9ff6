import {
  LINE_MESSAGES,
  PLANT_TEXTS,
  PLANT_OVERVIEW_TEXTS as T,
  type TOverviewLine,
  type TPlantOverview,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { MemoryRouter } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type PlantLine, PlantLineContext } from "../../shared/data/plants/plant-line";
import { testLine, testMe, testPlant } from "../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../test/mockApi";
import { HomePage } from "./HomePage";

// The page polls every PLANT_OVERVIEW_POLL_MS (30 s): a short interval here lets a test see the
// second answer arrive.
vi.mock("@linewatch/contracts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@linewatch/contracts")>()),
  PLANT_OVERVIEW_POLL_MS: 200,
}));

const plant = testPlant();
const LINE = "00000000-0000-4000-8000-000000000005";
const SVD = "00000000-0000-4000-8000-000000000020";
const CAP = "00000000-0000-4000-8000-000000000021";
const ALERT = "00000000-0000-4000-8000-000000000041";
const GENERATED = "2026-11-22T12:00:00.000Z";

const overviewLine = (over: Partial<TOverviewLine> = {}): TOverviewLine => ({
  id: LINE,
  name: "Axle",
  friendlyName: "Axle assembly",
  isNewLine: false,
  status: "ALERTING",
  lastIngestedTime: "2026-11-22T07:00:00.000Z",
  ingestionThresholdHours: 4,
  noIngestion: true,
  openAlerts: [{ type: "svd", count: 3, oldestOpenedAt: "2026-11-22T09:30:00.000Z" }],
  monitors: [
    { id: SVD, name: "Torque", type: "svd", active: true, lastState: "BREACH", lastEvaluatedAt: GENERATED },
    { id: CAP, name: "Bore Cpk", type: "cap", active: false, lastState: null, lastEvaluatedAt: null },
  ],
  recordsPerHour: [...new Array(23).fill(10), 0],
  ...over,
});

const overview = (over: Partial<TPlantOverview> = {}): TPlantOverview => ({
  plantId: plant.id,
  timeZone: plant.timeZone,
  generatedAt: GENERATED,
  hoursFrom: "2026-11-21T12:00:00.000Z",
  lines: [overviewLine()],
  newestAlerts: [
    {
      id: ALERT,
      lineId: LINE,
      kind: "monitor",
      state: "OPEN",
      monitor: { id: SVD, name: "Torque", type: "svd" },
      openedAt: "2026-11-22T11:00:00.000Z",
      lastSeenAt: GENERATED,
      count: 2,
    },
  ],
  ...over,
});

let answers: (() => AnswerOf<"get", "*/api/plants/:plantId/overview">)[] = [];
let requests = 0;
const server = setupServer(
  // A plain user: an administrator with no plant gets the first-plant form (FirstPlantForm.test).
  mockApi.get("*/api/auth/me", () => HttpResponse.json(testMe())),
  mockApi.get("*/api/plants/:plantId/overview", () => {
    requests++;
    const next = answers.length > 1 ? answers.shift() : answers[0];
    return next ? next() : refusal(500, { message: "none" });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  requests = 0;
});
afterAll(() => server.close());

function renderHome(ctx: Partial<PlantLine> = {}) {
  const value: PlantLine = {
    plants: [plant],
    plant,
    lines: [testLine({ id: LINE, plantId: plant.id })],
    line: null,
    isLoading: false,
    error: null,
    setPlantId: () => {},
    setLineId: () => {},
    followLine: () => {},
    ...ctx,
  };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <PlantLineContext.Provider value={value}>
        <MemoryRouter>
          <HomePage />
        </MemoryRouter>
      </PlantLineContext.Provider>
    </QueryClientProvider>,
  );
}

describe("HomePage: the plant at a glance", () => {
  it("shows each line with its status, No Ingestion, open alerts by type and age, marks and records", async () => {
    answers = [() => HttpResponse.json(overview())];
    renderHome();
    const card = await screen.findByRole("region", { name: "Axle assembly" });
    const c = within(card);
    expect(c.getByRole("link", { name: "Axle assembly" })).toHaveAttribute("href", `/lines/${LINE}`);
    expect(c.getByText(LINE_MESSAGES.noIngestion)).toBeInTheDocument();
    expect(c.getByText(T.status.ALERTING)).toBeInTheDocument();
    expect(c.getByText("3 SVD · oldest 2 h")).toBeInTheDocument();
    // The marks: worst first as the server ordered them, each a link saying monitor and state.
    const marks = within(c.getByRole("list", { name: T.monitorsLabel("Axle assembly") })).getAllByRole(
      "link",
    );
    expect(marks.map((m) => [m.getAttribute("aria-label"), m.getAttribute("href")])).toEqual([
      ["Torque (SVD): Breach", `/monitors/${SVD}`],
      ["Bore Cpk (CAP): Not evaluated yet, inactive", `/lines/${LINE}`],
    ]);
    const sparkline = c.getByRole("img", { name: T.recordsLabel(230) });
    // Each bar says its hour on the plant's clock (Detroit: 12:00 UTC is 07:00); the last is empty.
    const bars = [...sparkline.querySelectorAll("rect > title")].map((t) => t.textContent);
    expect(bars[0]).toBe(T.hourRecords("07:00", 10));
    expect(bars[23]).toBe(T.hourRecords("06:00", 0));
  });

  it("lists the plant's newest alerts, each linking to the alert itself", async () => {
    answers = [() => HttpResponse.json(overview())];
    renderHome();
    const panel = await screen.findByRole("region", { name: T.newestAlerts });
    const link = within(panel).getByRole("link", { name: "Torque (SVD)" });
    expect(link).toHaveAttribute("href", `/lines/${LINE}?alert=${ALERT}`);
    expect(within(panel).getByText("Open")).toBeInTheDocument();
    expect(within(panel).getByText(`Axle assembly · ${T.ago("1 h")}`)).toBeInTheDocument();
  });

  it("reaches a mark with the keyboard, and shows its tooltip under the pointer", async () => {
    // The tooltip on keyboard focus needs :focus-visible, which jsdom lacks: e2e/home.spec.ts.
    const ue = userEvent.setup();
    answers = [() => HttpResponse.json(overview())];
    renderHome();
    const mark = await screen.findByRole("link", { name: "Torque (SVD): Breach" });
    for (let i = 0; i < 5 && document.activeElement !== mark; i++) await ue.tab();
    expect(document.activeElement).toBe(mark);
    await ue.hover(mark);
    expect((await screen.findByRole("tooltip")).textContent).toBe("Torque (SVD): Breach");
  });

  it("refreshes itself: a later answer replaces the first without a reload", async () => {
    answers = [
      () => HttpResponse.json(overview()),
      () =>
        HttpResponse.json(
          overview({
            lines: [
              overviewLine({
                noIngestion: false,
                status: "ALERTING",
                openAlerts: [{ type: "mvd", count: 1, oldestOpenedAt: "2026-11-22T11:50:00.000Z" }],
              }),
            ],
          }),
        ),
    ];
    renderHome();
    expect(await screen.findByText("3 SVD · oldest 2 h")).toBeInTheDocument();
    expect(await screen.findByText("1 MVD · oldest 10 min")).toBeInTheDocument();
    expect(screen.queryByText("3 SVD · oldest 2 h")).not.toBeInTheDocument();
    expect(screen.queryByText(LINE_MESSAGES.noIngestion)).not.toBeInTheDocument();
    expect(requests).toBeGreaterThanOrEqual(2);
  });

  it("keeps the last overview and says so when a refresh fails", async () => {
    answers = [() => HttpResponse.json(overview()), () => refusal(503, { message: "Service unavailable" })];
    renderHome();
    expect(await screen.findByText("3 SVD · oldest 2 h")).toBeInTheDocument();
    expect(await screen.findByText(/could not be refreshed/)).toBeInTheDocument();
    expect(screen.getByText("3 SVD · oldest 2 h")).toBeInTheDocument();
  });

  it("shows the error with a retry when the first answer fails, and the overview after it", async () => {
    const ue = userEvent.setup();
    answers = [() => refusal(500, { message: "Plant not reachable" }), () => HttpResponse.json(overview())];
    renderHome();
    expect(await screen.findByText("Plant not reachable")).toBeInTheDocument();
    await ue.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("region", { name: "Axle assembly" })).toBeInTheDocument();
  });

  it("says when the customer has no plants, and when the plant has no lines", async () => {
    renderHome({ plants: [], plant: null, lines: [] });
    expect(await screen.findByText(T.noPlants)).toBeInTheDocument();
    expect(await screen.findByText(PLANT_TEXTS.askAdministrator)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: PLANT_TEXTS.create })).not.toBeInTheDocument();
    expect(requests).toBe(0);
    cleanup();
    answers = [() => HttpResponse.json(overview({ lines: [], newestAlerts: [] }))];
    renderHome({ lines: [] });
    expect(await screen.findByText(T.noLines)).toBeInTheDocument();
  });
});
