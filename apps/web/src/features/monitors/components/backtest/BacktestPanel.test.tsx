import {
  BACKTEST_MESSAGES,
  BACKTEST_STREAM_TYPE,
  BACKTEST_TEXTS,
  MONITOR_FORM_TEXTS,
  newMonitorForm,
  type TBacktest,
  type TBacktestBody,
  type TBacktestStreamLine,
  type TFormMode,
  type TMonitorFormValues,
  type TPlant,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { FormProvider, useForm } from "react-hook-form";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installResizeObserver, testBacktest } from "../../../../test/fixtures";
import { mockApi, refusal } from "../../../../test/mockApi";
import { MonitorFormContext, type MonitorFormCtx } from "../MonitorFormContext";
import { BacktestPanel } from "./BacktestPanel";

// The Backtest panel against a streamed answer (issue #27): progress lines, then the result or an
// error line; Cancel drops the request (the server stops) and Run again asks again.

installResizeObserver();

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const TZ = "Europe/Berlin";
const plant: TPlant = {
  id: "00000000-0000-4000-8000-000000000002",
  name: "Stuttgart",
  timeZone: TZ,
  active: true,
};
const CUSTOMER = "00000000-0000-4000-8000-000000000001";
const LINE = "00000000-0000-4000-8000-000000000010";
const S1 = "00000000-0000-4000-8000-000000000101";
const S2 = "00000000-0000-4000-8000-000000000102";
const SAVED = "00000000-0000-4000-8000-000000000401";

/** One request to the backtest route, and its answer's stream, which the test writes line by line. */
type Call = {
  body: TBacktestBody;
  accept: string | null;
  /** The request's signal fired: the page dropped the request. */
  aborted: boolean;
  send: (line: TBacktestStreamLine) => void;
  end: () => void;
  response: () => Response;
};

function streamedCall(body: TBacktestBody, request: Request): Call {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  const call: Call = {
    body,
    accept: request.headers.get("accept"),
    aborted: request.signal.aborted,
    send: (line) => controller?.enqueue(encoder.encode(`${JSON.stringify(line)}\n`)),
    end: () => controller?.close(),
    response: () => new HttpResponse(stream, { headers: { "content-type": BACKTEST_STREAM_TYPE } }),
  };
  request.signal.addEventListener("abort", () => {
    call.aborted = true;
  });
  return call;
}

let calls: Call[];
/** How the route answers a call; by default the call's stream, which the test writes. */
let reply: (call: Call) => Response;

const server = setupServer(
  // The route's answer here is its NDJSON stream (lines typed by Call.send), not one JSON body:
  // msw's plain handler, which takes any Response.
  http.post("*/api/monitors/backtest", async ({ request }) => {
    const call = streamedCall(JSON.parse(await request.text()) as TBacktestBody, request);
    calls.push(call);
    return reply(call);
  }),
  mockApi.get("*/api/lines/:lineId/alerts", () => HttpResponse.json([])),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  calls = [];
  reply = (call) => call.response();
});
afterEach(() => {
  // Unmounting drops a request still streaming; then nothing more is written to it.
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function Shell(p: { mode: TFormMode; initial: TMonitorFormValues }) {
  const form = useForm<TMonitorFormValues>({ defaultValues: p.initial });
  const ctx: MonitorFormCtx = {
    mode: p.mode,
    readOnly: p.mode === "VIEW",
    showErrors: true,
    errors: [],
    customerId: CUSTOMER,
    plant,
    maxRecordCount: 10_000,
    now: () => NOW,
  };
  return (
    <FormProvider {...form}>
      <MonitorFormContext.Provider value={ctx}>
        <BacktestPanel />
      </MonitorFormContext.Provider>
    </FormProvider>
  );
}

function renderPanel(mode: TFormMode = "CREATE") {
  const initial: TMonitorFormValues = {
    ...newMonitorForm("mvd", LINE, { now: NOW, maxRecordCount: 10_000 }),
    signal_uuids: [S1, S2],
    ...(mode === "CREATE" ? {} : { monitor_uuid: SAVED }),
  };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <Shell mode={mode} initial={initial} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const panel = () => screen.getByRole("region", { name: BACKTEST_TEXTS.title });
const progressBar = () => screen.getByRole("progressbar", { name: BACKTEST_TEXTS.progressLabel });
const summaryOf = (b: TBacktest) =>
  BACKTEST_MESSAGES.summary(b.summary.alerts_opened, 7, b.summary.breaches, b.summary.evaluations);
/** The call made `n`-th (from 1), once the panel has made it. */
async function callNo(n: number): Promise<Call> {
  await waitFor(() => expect(calls).toHaveLength(n));
  return calls[n - 1] as Call;
}

describe("BacktestPanel: a streamed backtest", () => {
  it("reads, then shows the plant-local day the replay has reached on a determinate bar, then the summary", async () => {
    renderPanel();
    const call = await callNo(1);
    expect(call.accept).toBe(BACKTEST_STREAM_TYPE);
    expect(call.body.task?.task_details.signal_uuids).toEqual([S1, S2]);

    // Before the first progress line: the records are being read, the bar has no value yet.
    expect(await screen.findByText(BACKTEST_TEXTS.reading)).toBeInTheDocument();
    expect(progressBar()).not.toHaveAttribute("aria-valuenow");
    expect(panel()).toHaveAttribute("aria-busy", "true");

    // 23:30 UTC on the 22nd is already the 23rd in Berlin.
    call.send({ type: "progress", done: 1, total: 4, at: "2026-11-22T23:30:00.000Z" });
    expect(await screen.findByText(BACKTEST_TEXTS.progress("2026-11-23", 1, 4))).toBeInTheDocument();
    expect(progressBar()).toHaveAttribute("aria-valuenow", "25");
    call.send({ type: "progress", done: 3, total: 4, at: "2026-11-24T08:00:00.000Z" });
    expect(await screen.findByText(BACKTEST_TEXTS.progress("2026-11-24", 3, 4))).toBeInTheDocument();
    expect(progressBar()).toHaveAttribute("aria-valuenow", "75");

    const answer = testBacktest({ now: NOW, alerts: 0 });
    call.send({ type: "progress", done: 4, total: 4, at: answer.to });
    call.send({ type: "result", backtest: answer });
    call.end();
    expect(await screen.findByText(summaryOf(answer))).toBeInTheDocument();
    expect(screen.queryByRole("progressbar", { name: BACKTEST_TEXTS.progressLabel })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: BACKTEST_TEXTS.cancel })).not.toBeInTheDocument();
    expect(panel()).toHaveAttribute("aria-busy", "false");
  });

  it("keeps the previous result under the progress of the next; other settings drop a running request", async () => {
    const ue = renderPanel("EDIT");
    const first = await callNo(1);
    const week = testBacktest({ now: NOW, alerts: 1 });
    first.send({ type: "result", backtest: week });
    first.end();
    expect(await screen.findByText(summaryOf(week))).toBeInTheDocument();

    await ue.click(screen.getByRole("button", { name: BACKTEST_TEXTS.days(14) }));
    const second = await callNo(2);
    expect(second.body.period).toEqual({ days: 14 });
    second.send({ type: "progress", done: 10, total: 40, at: "2026-11-10T12:00:00.000Z" });
    expect(await screen.findByText(BACKTEST_TEXTS.progress("2026-11-10", 10, 40))).toBeInTheDocument();
    expect(screen.getByText(summaryOf(week))).toBeInTheDocument();
    expect(panel()).toHaveAttribute("aria-busy", "true");

    // Other settings while it runs: that request is dropped (the server stops it), the new one runs.
    await ue.click(screen.getByRole("button", { name: BACKTEST_TEXTS.days(30) }));
    const third = await callNo(3);
    await waitFor(() => expect(second.aborted).toBe(true));
    expect(third.body.period).toEqual({ days: 30 });
    expect(await screen.findByText(BACKTEST_TEXTS.reading)).toBeInTheDocument();
    expect(screen.getByText(summaryOf(week))).toBeInTheDocument();

    third.send({ type: "result", backtest: testBacktest({ now: NOW, alerts: 0, days: 30 }) });
    third.end();
    expect(await screen.findByText(BACKTEST_MESSAGES.summary(0, 30, 2, 4))).toBeInTheDocument();
    expect(screen.queryByText(summaryOf(week))).not.toBeInTheDocument();
    expect(calls).toHaveLength(3);
  });

  it("Cancel drops the request and says so; Run again asks again, with the keyboard focus kept", async () => {
    const ue = renderPanel();
    const first = await callNo(1);
    first.send({ type: "progress", done: 2, total: 8, at: "2026-11-20T12:00:00.000Z" });
    expect(await screen.findByText(BACKTEST_TEXTS.progress("2026-11-20", 2, 8))).toBeInTheDocument();

    await ue.click(screen.getByRole("button", { name: BACKTEST_TEXTS.cancel }));
    expect(await screen.findByText(BACKTEST_TEXTS.cancelled)).toBeInTheDocument();
    await waitFor(() => expect(first.aborted).toBe(true));
    expect(screen.queryByRole("progressbar", { name: BACKTEST_TEXTS.progressLabel })).not.toBeInTheDocument();
    expect(panel()).toHaveAttribute("aria-busy", "false");
    const runAgain = screen.getByRole("button", { name: BACKTEST_TEXTS.runAgain });
    expect(document.activeElement).toBe(runAgain);

    // From the keyboard: the focused Run again with Enter.
    await ue.keyboard("{Enter}");
    const second = await callNo(2);
    expect(second.body).toEqual(first.body);
    expect(await screen.findByText(BACKTEST_TEXTS.reading)).toBeInTheDocument();
    expect(screen.queryByText(BACKTEST_TEXTS.cancelled)).not.toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: BACKTEST_TEXTS.cancel }));

    const answer = testBacktest({ now: NOW });
    second.send({ type: "result", backtest: answer });
    second.end();
    expect(await screen.findByText(summaryOf(answer))).toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });

  it("shows an error line's message, and a refusal's on Retry", async () => {
    const ue = renderPanel();
    const first = await callNo(1);
    first.send({ type: "progress", done: 1, total: 4, at: "2026-11-20T12:00:00.000Z" });
    first.send({ type: "error", status: 422, message: BACKTEST_MESSAGES.tooLong(60) });
    first.end();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(BACKTEST_TEXTS.loadError(BACKTEST_MESSAGES.tooLong(60)));
    expect(screen.queryByRole("progressbar", { name: BACKTEST_TEXTS.progressLabel })).not.toBeInTheDocument();

    // Refused before the replay: an HTTP status with a JSON message, as without streaming.
    reply = () => refusal(400, { message: BACKTEST_MESSAGES.tooManyRecords(1_000_000) });
    await ue.click(within(alert).getByRole("button", { name: MONITOR_FORM_TEXTS.retry }));
    expect(
      await screen.findByText(BACKTEST_TEXTS.loadError(BACKTEST_MESSAGES.tooManyRecords(1_000_000))),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });
});
