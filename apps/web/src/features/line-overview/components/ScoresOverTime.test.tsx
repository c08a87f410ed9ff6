import {
  evaluationChartSeries,
  EVALUATION_SERIES_MESSAGES as M,
  type TEvaluationSeries,
  type TLineEvaluationSeries,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { useState } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { installResizeObserver } from "../../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../../test/mockApi";
import { PRESET_MS, type TPreset } from "../../capability/capability.view";
import { useEvaluationSeries } from "../api/queries";
import { ScoresOverTime } from "./ScoresOverTime";

installResizeObserver();
const size = { width: 1000, height: 300, top: 0, left: 0, right: 1000, bottom: 300, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const LINE = "00000000-0000-4000-8000-000000000011";
const FROM = "2026-11-19T17:00:00.000Z";
const TO = "2026-11-20T17:00:00.000Z";
const slot = (h: number) => new Date(Date.parse(FROM) + h * 3_600_000).toISOString();
const svd: TEvaluationSeries = {
  monitor: {
    id: "00000000-0000-4000-8000-0000000000b1",
    name: "Bore drift",
    type: "svd",
    active: true,
    signal: null,
  },
  evaluationCount: 1200,
  isDecimated: true,
  points: [0, 1, 2, 3].map((h) => ({
    slot: slot(h),
    state: h === 2 ? ("BREACH" as const) : ("OK" as const),
    score: h === 2 ? 4.2 : 1,
    threshold: 3,
    plotScore: h === 2 ? 4.2 : 1,
    plotThreshold: 3,
  })),
  alerts: [
    {
      id: "00000000-0000-4000-8000-0000000000c1",
      state: "OPEN",
      openedAt: slot(2),
      lastSeenAt: slot(2),
      resolvedAt: null,
    },
  ],
};
const cap: TEvaluationSeries = {
  monitor: {
    id: "00000000-0000-4000-8000-0000000000b2",
    name: "Press force capability",
    type: "cap",
    active: false,
    signal: { id: "00000000-0000-4000-8000-0000000000a1", name: "Press force" },
  },
  evaluationCount: 0,
  isDecimated: false,
  points: [],
  alerts: [],
};
const view: TLineEvaluationSeries = { from: FROM, to: TO, monitors: [svd, cap] };

let answer: () => AnswerOf<"get", "*/api/lines/:lineId/evaluation-series">;
const requests: URL[] = [];
const server = setupServer(
  mockApi.get("*/api/lines/:lineId/evaluation-series", ({ request }) => {
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

/** The section as the line overview wires it: the page's query, its preset, the capability callback. */
function Harness(p: {
  onOpenCapability: (s: TEvaluationSeries, period: { from: string; to: string }) => void;
}) {
  const [preset, setPreset] = useState<TPreset>("day");
  const q = useEvaluationSeries(LINE, preset);
  return (
    <ScoresOverTime
      preset={preset}
      onPreset={setPreset}
      data={q.data}
      isLoading={q.isLoading}
      isChangingPeriod={q.isPlaceholderData && q.isFetching}
      error={q.error}
      onRetry={() => q.refetch()}
      timeZone="America/Detroit"
      onOpenCapability={p.onOpenCapability}
    />
  );
}

function renderSection(onOpenCapability = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness onOpenCapability={onOpenCapability} />
    </QueryClientProvider>,
  );
  return onOpenCapability;
}

const spanOf = (u: URL | undefined) =>
  Date.parse(u?.searchParams.get("to") ?? "") - Date.parse(u?.searchParams.get("from") ?? "");

describe("ScoresOverTime", () => {
  it("asks for the last 24 hours and draws a chart per monitor: score, threshold and breaches, with the counts", async () => {
    answer = () => HttpResponse.json(view);
    renderSection();
    expect(screen.getByRole("heading", { name: M.title })).toBeInTheDocument();
    const bore = await screen.findByRole("region", { name: /Bore drift/ });
    expect(spanOf(requests[0])).toBe(PRESET_MS.day);
    expect(screen.getByRole("button", { name: M.presets.day })).toHaveAttribute("aria-pressed", "true");
    const figure = await within(bore).findByRole("figure", { name: M.chartLabel("Bore drift") });
    // The chart is its own chunk: wait for it to load (the first import transforms the charts
    // library). jsdom lays out no plot area, so the lines, marks and alert spans are the e2e's to see.
    const svdSeries = evaluationChartSeries("svd");
    expect(
      await within(figure).findByText(svdSeries.scoreLabel, undefined, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(within(figure).getByText(svdSeries.thresholdLabel)).toBeInTheDocument();
    expect(within(figure).getByText(M.breach)).toBeInTheDocument();
    expect(
      within(bore).getByText(`${M.caption(1200, 1, 1, "America/Detroit")} ${M.decimated(4, 1200)}`),
    ).toBeInTheDocument();
    // A monitor without evaluations in the period says so, and an inactive one says that too.
    const press = screen.getByRole("region", { name: /Press force capability/ });
    expect(within(press).getByText(M.empty)).toBeInTheDocument();
    expect(within(press).getByText(/inactive/)).toBeInTheDocument();
    expect(within(press).queryByRole("figure")).toBeNull();
  });

  it("opens a CAP monitor's capability view over the period shown", async () => {
    answer = () => HttpResponse.json(view);
    const onOpen = renderSection();
    fireEvent.click(await screen.findByRole("button", { name: M.capabilityFor("Press force") }));
    expect(onOpen).toHaveBeenCalledWith(cap, { from: FROM, to: TO });
    // SVD and MVD monitors have no capability view.
    const bore = screen.getByRole("region", { name: /Bore drift/ });
    expect(within(bore).queryByRole("button", { name: /capability/i })).toBeNull();
  });

  it("asks for the chosen period", async () => {
    answer = () => HttpResponse.json(view);
    renderSection();
    await screen.findByRole("region", { name: /Bore drift/ });
    fireEvent.click(screen.getByRole("button", { name: M.presets.week }));
    await expect.poll(() => requests.length).toBe(2);
    expect(spanOf(requests[1])).toBe(PRESET_MS.week);
    fireEvent.click(screen.getByRole("button", { name: M.presets.month }));
    await expect.poll(() => requests.length).toBe(3);
    expect(spanOf(requests[2])).toBe(PRESET_MS.month);
  });

  it("says when no monitor has evaluations in the period, and when the line has no monitors", async () => {
    answer = () => HttpResponse.json({ ...view, monitors: [cap] });
    renderSection();
    expect(await screen.findByText(M.empty)).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: /Press force capability/ })).toBeNull();
    cleanup();
    answer = () => HttpResponse.json({ ...view, monitors: [] });
    renderSection();
    expect(await screen.findByText(M.noMonitors)).toBeInTheDocument();
  });

  it("shows the server's message when loading fails, and loads again on Retry", async () => {
    answer = () => refusal(500, { message: "Database unavailable" });
    renderSection();
    expect(await screen.findByText(`${M.loadError}: Database unavailable`)).toBeInTheDocument();
    answer = () => HttpResponse.json(view);
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("region", { name: /Bore drift/ })).toBeInTheDocument();
  });
});
