import { CAPABILITY_MESSAGES as M, type TCapabilityView } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { installResizeObserver } from "../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../test/mockApi";
import { CapabilityDialog } from "./CapabilityDialog";

installResizeObserver();
const size = { width: 1000, height: 300, top: 0, left: 0, right: 1000, bottom: 300, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const LINE = "00000000-0000-4000-8000-000000000011";
const SIGNAL = "00000000-0000-4000-8000-0000000000a1";
const point = (i: number, value: number, rules: (1 | 2 | 3 | 4)[] = []) => ({
  ts: new Date(Date.UTC(2026, 10, 20, 12, i)).toISOString(),
  partId: `P-${i}`,
  modelNumber: "A-1",
  value,
  mr: i === 0 ? null : 0.1,
  lsl: 9,
  lcl: 9.5,
  ucl: 10.5,
  usl: 11,
  rules,
});
const view: TCapabilityView = {
  signal: { id: SIGNAL, name: "Bore" },
  from: "2026-11-13T17:00:00.000Z",
  to: "2026-11-20T17:00:00.000Z",
  recordCount: 3,
  isTruncated: false,
  isDecimated: false,
  points: [point(0, 10), point(1, 10.1), point(2, 10.9, [1])],
  mean: 10.33,
  mrBar: 0.1,
  mrUcl: 0.3267,
  histogram: { edges: [9, 9.5, 10, 10.5, 11, 11.5], counts: [0, 0, 2, 0, 1] },
  ruleCounts: { 1: 1, 2: 0, 3: 0, 4: 0 },
  models: [
    {
      modelNumber: "*",
      n: 3,
      mean: 10.33,
      sigmaWithin: 0.4,
      sigmaOverall: 0.47,
      lsl: 9,
      usl: 11,
      cp: 0.8333,
      cpk: 0.5583,
      pp: 0.7092,
      ppk: 0.4752,
      intervals: { cp: [0.3, 1.4], cpk: [0.1, 1.0], pp: [0.25, 1.2], ppk: [0.05, 0.9] },
      note: null,
    },
    {
      modelNumber: "A-1",
      n: 1,
      mean: 10.9,
      sigmaWithin: null,
      sigmaOverall: null,
      lsl: 9,
      usl: 11,
      cp: null,
      cpk: null,
      pp: null,
      ppk: null,
      intervals: null,
      note: M.tooFew,
    },
  ],
};

let answer: () => AnswerOf<"get", "*/api/lines/:lineId/signals/:signalId/capability">;
const requests: URL[] = [];
const server = setupServer(
  mockApi.get("*/api/lines/:lineId/signals/:signalId/capability", ({ request }) => {
    requests.push(new URL(request.url));
    return answer();
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  requests.length = 0;
});
afterAll(() => server.close());

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CapabilityDialog
        lineId={LINE}
        signalId={SIGNAL}
        signalName="Bore"
        timeZone="America/Detroit"
        until="2026-11-20T17:00:00.000Z"
        onClose={() => {}}
      />
    </QueryClientProvider>,
  );
}

describe("CapabilityDialog", () => {
  it("asks for the 7 days before `until` on the plant's wall clock, and shows the charts and the table", async () => {
    answer = () => HttpResponse.json(view);
    renderDialog();
    expect(screen.getByRole("progressbar", { name: M.loading })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: M.table });
    expect(requests[0]?.searchParams.get("from")).toBe("2026-11-13T17:00:00.000Z");
    expect(requests[0]?.searchParams.get("to")).toBe("2026-11-20T17:00:00.000Z");
    expect(screen.getByLabelText(M.to)).toHaveValue("2026-11-20T12:00");
    expect(screen.getByText(M.timeZone("America/Detroit"))).toBeInTheDocument();
    const rows = within(table).getAllByRole("row");
    expect(within(rows[1] as HTMLElement).getByRole("rowheader").textContent).toBe(M.allModels);
    expect(rows[1]?.textContent).toContain("0.5583 [0.1, 1]");
    expect(rows[2]?.textContent).toContain(M.tooFew);
    expect(screen.getByRole("region", { name: M.individuals })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: M.movingRange })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: M.histogram })).toBeInTheDocument();
    expect(screen.getByText(M.ruleCounts("Rule 1: 1, Rule 2: 0, Rule 3: 0, Rule 4: 0"))).toBeInTheDocument();
    expect(screen.getAllByTestId("rule-label").map((l) => l.textContent)).toEqual(["1"]);
  });

  it("says when the period has no records", async () => {
    answer = () => HttpResponse.json({ ...view, recordCount: 0, points: [], models: [], histogram: null });
    renderDialog();
    expect(await screen.findByText(M.empty)).toBeInTheDocument();
  });

  it("shows the server's message when loading fails, and a period that ends before it starts", async () => {
    answer = () => refusal(404, { message: "Line not found" });
    renderDialog();
    expect(await screen.findByText(M.loadError("Line not found"))).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(M.from), { target: { value: "2026-11-21T00:00" } });
    expect(screen.getByText(M.order)).toBeInTheDocument();
  });
});
