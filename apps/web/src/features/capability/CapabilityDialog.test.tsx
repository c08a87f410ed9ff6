import { CAPABILITY_MESSAGES as M, type TCapabilityView } from "@linewatch/contracts";
import { capDetailsFixture } from "@linewatch/contracts/fixtures";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { installResizeObserver } from "../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../test/mockApi";
import { CapabilityDialog, type CapabilityDialogProps } from "./CapabilityDialog";

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

function renderDialog(over: Partial<CapabilityDialogProps> = {}) {
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
        {...over}
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

  it("opened from a CAP alert: asks for the alert's records and model, and shows its figures and why they differ", async () => {
    answer = () => HttpResponse.json(view);
    const alertEvaluation = capDetailsFixture({
      n: 25,
      ppk: 0.8,
      ppkUpperBound: 1.1,
      capabilityAlpha: 0.005,
      cpkTarget: 1.33,
      period: { from: "2026-11-20T16:35:12.345Z", to: "2026-11-20T16:59:58.765Z" },
      modelNumbers: ["A-1"],
    });
    renderDialog({ alertEvaluation });
    await screen.findByRole("table", { name: M.table });
    // To the millisecond, though the inputs show minutes; and the alert's model only.
    expect(requests[0]?.searchParams.get("from")).toBe("2026-11-20T16:35:12.345Z");
    expect(requests[0]?.searchParams.get("to")).toBe("2026-11-20T16:59:58.765Z");
    expect(requests[0]?.searchParams.get("model")).toBe("A-1");
    expect(screen.getByLabelText(M.from)).toHaveValue("2026-11-20T11:35");
    expect(screen.getByRole("combobox", { name: M.model }).textContent).toBe("A-1");
    const figures = screen.getByText(M.alertTitle).closest("[role=alert]") as HTMLElement;
    expect(figures.textContent).toContain(
      M.alertFigures({ n: 25, ppk: "0.8", bound: "1.1", level: "0.005", target: "1.33" }),
    );
    expect(figures.textContent).toContain(M.alertWhy);
    expect(figures.textContent).not.toContain(M.alertNoPeriod);
    // Every model: the same period, no model asked for.
    fireEvent.mouseDown(screen.getByRole("combobox", { name: M.model }));
    fireEvent.click(await screen.findByRole("option", { name: M.allModels }));
    await screen.findByRole("combobox", { name: M.model });
    await expect.poll(() => requests.at(-1)?.searchParams.has("model")).toBe(false);
    expect(requests.at(-1)?.searchParams.get("from")).toBe("2026-11-20T16:35:12.345Z");
  });

  it("from an alert of mixed models or an older evaluation: every model, the 7 days before it, and says so", async () => {
    answer = () => HttpResponse.json(view);
    renderDialog({ alertEvaluation: capDetailsFixture({ modelNumbers: ["A-1", "B-2"] }) });
    await screen.findByRole("table", { name: M.table });
    expect(requests[0]?.searchParams.get("from")).toBe("2026-11-13T17:00:00.000Z");
    expect(requests[0]?.searchParams.has("model")).toBe(false);
    expect(screen.getByText(M.alertNoPeriod)).toBeInTheDocument();
  });

  it("opened for a chosen period (the line overview's): asks for it", async () => {
    answer = () => HttpResponse.json(view);
    renderDialog({ from: "2026-11-19T17:00:00.000Z" });
    await screen.findByRole("table", { name: M.table });
    expect(requests[0]?.searchParams.get("from")).toBe("2026-11-19T17:00:00.000Z");
    expect(requests[0]?.searchParams.get("to")).toBe("2026-11-20T17:00:00.000Z");
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
