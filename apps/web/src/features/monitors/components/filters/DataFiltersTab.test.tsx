import {
  BACKTEST_DEBOUNCE_MS,
  BACKTEST_MESSAGES,
  BACKTEST_TEXTS,
  MONITOR_FORM_LAYOUT,
  MONITOR_FORM_TIMINGS,
  MONITOR_MESSAGES,
  monitorFormErrors,
  newMonitorForm,
  previewPeriodOf,
  QUERY_BOUNDS,
  QUERY_MESSAGES,
  type TAssociatedResultClassifications,
  type TBacktest,
  type TBacktestBody,
  type TFormMode,
  type TModelNumber,
  type TMonitorFormValues,
  type TMonitorPreview,
  type TMonitorPreviewBody,
  type TPartAttribute,
  type TPlant,
  ZSettingsSection,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { FormProvider, type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { MemoryRouter } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { formatDateTime } from "../../../../shared/format";
import { installMatchMedia, mvdDetailsFixture, testBacktest } from "../../../../test/fixtures";
import { type AnswerOf, mockApi, refusal } from "../../../../test/mockApi";
import { SESSION_KEYS } from "../../../signals/remembered";
import { MonitorFormContext, type MonitorFormCtx } from "../MonitorFormContext";
import { DataFiltersTab } from "./DataFiltersTab";
import { PREVIEW_DEBOUNCE_MS, resultAssociationWarningText } from "./filters.logic";

// ── Environment ──────────────────────────────────────────────────────────────────────────────

// Desktop pickers (typed sections) are chosen by '(pointer: fine)'.
installMatchMedia((query) => query.includes("pointer: fine"));

// Testing Library's waitFor / findBy advance fake timers only when they see a `jest` global;
// give it vitest's clock so data loading (query notifications run on timers) still settles.
(globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) };

// ── Data ─────────────────────────────────────────────────────────────────────────────────────

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const HOUR = 3_600_000;
const MAX_RECORDS = 10_000;
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
const SHIFT = "00000000-0000-4000-8000-000000000201";
const GONE = "00000000-0000-4000-8000-000000000299";
const GROUP = "00000000-0000-4000-8000-000000000301";
const SAVED = "00000000-0000-4000-8000-000000000401";

const modelNumbers: TModelNumber[] = [
  { value: "M-100", isChallenge: false },
  { value: "M-900", isChallenge: true },
];
const shift: TPartAttribute = {
  attributeUuid: SHIFT,
  attributeName: "Shift",
  stationName: "OP10",
  isSignalActive: true,
  attributeValues: ["A", "B"],
};
const passFail = {
  pass: [{ value: "PASS", failureMode: null }],
  fail: [{ value: "FAIL", failureMode: "Torque low" }],
  other: [],
};
const noResult = { pass: [], fail: [], other: [] };

const previewAnswer = (over: Partial<TMonitorPreview["evaluation"]> = {}): TMonitorPreview => ({
  window_size: 150,
  training_size: 120,
  evaluation_size: 30,
  from: "2026-11-22T08:00:00.000Z",
  to: "2026-11-22T09:59:00.000Z",
  training_from: "2026-11-22T08:00:00.000Z",
  evaluation_from: "2026-11-22T09:40:00.000Z",
  evaluation: {
    state: "BREACH",
    reason: null,
    // As the server answers: the calibrated MVD's −log₁₀ p against −log₁₀ α.
    score: 3.92,
    threshold: 2,
    training_size: 120,
    evaluation_size: 30,
    details: mvdDetailsFixture({ p_value: 0.00012, p_mean: 0.00006, p_struct: 0.3, m: 120, n: 30 }),
    ...over,
  },
});

/** The 4-slot backtest of testBacktest, ending at NOW: 2 breaches, `alerts` would-be alerts. */
const backtestAnswer = (alerts = 1, days = 7): TBacktest => testBacktest({ now: NOW, alerts, days });

let backtestBodies: TBacktestBody[];
let backtestReply: () => AnswerOf<"post", "*/api/monitors/backtest">;
let partAttributes: TPartAttribute[];
let classifications: Record<string, typeof passFail>;
let previewBodies: TMonitorPreviewBody[];
let previewReply: () => AnswerOf<"post", "*/api/monitors/preview">;

const server = setupServer(
  mockApi.get("*/api/lines/:lineId/model-numbers", () => HttpResponse.json(modelNumbers)),
  mockApi.get("*/api/lines/:lineId/part-attributes", () => HttpResponse.json(partAttributes)),
  mockApi.post("*/api/signal-groups", () =>
    HttpResponse.json([{ signalGroupUuid: GROUP, signalGroupName: "Torque", signalUuids: [S1, S2] }]),
  ),
  mockApi.post("*/api/signal/associated-result-classifications", async ({ request }) => {
    const ids = JSON.parse(await request.text()) as string[];
    const answer: TAssociatedResultClassifications = {};
    for (const id of ids) answer[id] = { associatedResultClassifications: classifications[id] ?? noResult };
    return HttpResponse.json(answer);
  }),
  mockApi.post("*/api/monitors/preview", async ({ request }) => {
    previewBodies.push(JSON.parse(await request.text()) as TMonitorPreviewBody);
    return previewReply();
  }),
  mockApi.get("*/api/lines/:lineId/alerts", () =>
    HttpResponse.json([
      {
        id: "00000000-0000-4000-8000-000000000901",
        lineId: LINE,
        kind: "monitor",
        state: "RESOLVED",
        monitor: { id: SAVED, name: "Saved", type: "mvd" },
        openedAt: new Date(NOW - 15 * 60_000).toISOString(),
        lastSeenAt: new Date(NOW - 10 * 60_000).toISOString(),
        count: 2,
        rule: "breach",
        score: 3,
        threshold: 2,
        summary: null,
        resolvedAt: new Date(NOW - 5 * 60_000).toISOString(),
        cause: null,
      },
    ]),
  ),
  mockApi.post("*/api/monitors/backtest", async ({ request }) => {
    backtestBodies.push(JSON.parse(await request.text()) as TBacktestBody);
    return backtestReply();
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  partAttributes = [shift];
  classifications = { [S1]: passFail, [S2]: passFail };
  previewBodies = [];
  previewReply = () => HttpResponse.json(previewAnswer());
  backtestBodies = [];
  backtestReply = () => HttpResponse.json(backtestAnswer());
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

// ── Rendering ────────────────────────────────────────────────────────────────────────────────

let form: UseFormReturn<TMonitorFormValues>;

/** What the form shell provides: the values, and the context with every current error shown. */
function Shell(p: { initial: TMonitorFormValues; mode: TFormMode }) {
  const f = useForm<TMonitorFormValues>({ defaultValues: p.initial });
  form = f;
  const values = useWatch({ control: f.control }) as TMonitorFormValues;
  const ctx: MonitorFormCtx = {
    mode: p.mode,
    readOnly: p.mode === "VIEW",
    showErrors: true,
    errors: monitorFormErrors(values, { now: NOW, maxRecordCount: MAX_RECORDS }),
    customerId: CUSTOMER,
    plant,
    maxRecordCount: MAX_RECORDS,
    now: () => NOW,
  };
  return (
    <FormProvider {...f}>
      <MonitorFormContext.Provider value={ctx}>
        <DataFiltersTab />
      </MonitorFormContext.Provider>
    </FormProvider>
  );
}

function values(over: Partial<TMonitorFormValues> = {}, type: "mvd" | "svd" = "mvd"): TMonitorFormValues {
  const v = newMonitorForm(type, LINE, { now: NOW, maxRecordCount: MAX_RECORDS });
  return { ...v, signal_uuids: type === "mvd" ? [S1, S2] : [S1], ...over };
}

function renderTab(initial = values(), mode: TFormMode = "CREATE") {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <Shell initial={initial} mode={mode} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const combobox = (name: string) => screen.getByRole("combobox", { name });
const textbox = (name: string) => screen.getByRole("textbox", { name }) as HTMLInputElement;
/** The value a Time picker holds, as its hidden input reads (the field shows it in sections). */
function pickerText(label: string) {
  const input = screen.getByRole("group", { name: label }).parentElement?.querySelector("input");
  if (!input) throw new Error(`no picker labelled ${label}`);
  return input.value;
}

async function choose(ue: ReturnType<typeof userEvent.setup>, select: string, option: string) {
  await ue.click(combobox(select));
  await ue.click(await screen.findByRole("option", { name: option }));
}

// ── Tests ────────────────────────────────────────────────────────────────────────────────────

// An upper bound, not a duration: 9 s on a quiet machine, 37 s measured at load 16 on 2 cores.
describe("DataFiltersTab: Period", { timeout: 90_000 }, () => {
  it("gives a changed mode its default and limits the other side to Time; shows the plant time zone", async () => {
    const ue = renderTab();
    expect(screen.getByText(`Time zone: ${TZ}`)).toBeInTheDocument();
    expect(textbox("Start records")).toHaveValue("150");
    expect(screen.getByText(QUERY_MESSAGES.compatible)).toBeInTheDocument();
    // 10:00 UTC is 11:00 in Berlin.
    expect(pickerText("End time")).toBe("2026-11-22 11:00:00");

    // End to Duration while Start counts records: Start falls back to Time.
    await choose(ue, "End", "Duration");
    expect(combobox("Start").textContent).toBe("Time");
    expect(textbox("End duration (minutes)")).toHaveValue("60");
    expect(form.getValues("query")).toMatchObject({
      start_mode: "Time",
      end_mode: "Duration",
      start_records: null,
      end_duration: QUERY_BOUNDS.defaultDurationMs,
      start_time: NOW - HOUR,
      end_time: NOW,
    });
    expect(pickerText("Start time")).toBe("2026-11-22 10:00:00");
    expect(screen.getByText(QUERY_MESSAGES.incompatible)).toBeInTheDocument();
    expect(screen.queryByText(QUERY_MESSAGES.compatible)).not.toBeInTheDocument();
    expect(screen.getByText(QUERY_MESSAGES.incompatibleSave)).toBeInTheDocument();

    // Start back to Records: its default count, End limited to Time (now).
    await choose(ue, "Start", "Records");
    expect(combobox("End").textContent).toBe("Time");
    expect(form.getValues("query")).toMatchObject({
      start_mode: "Records",
      end_mode: "Time",
      start_records: QUERY_BOUNDS.defaultRecords,
      end_duration: null,
      end_time: NOW,
    });
    expect(screen.getByText(QUERY_MESSAGES.compatible)).toBeInTheDocument();
    expect(screen.queryByText(QUERY_MESSAGES.incompatibleSave)).not.toBeInTheDocument();
  });

  it("commits Records 700 ms after typing stops, ignores a minus sign and shows the clamped count", async () => {
    const ue = renderTab();
    const records = textbox("Start records");
    await ue.clear(records);
    await ue.type(records, "300");
    await wait(MONITOR_FORM_TIMINGS.periodInputMs - 1);
    expect(form.getValues("query.start_records")).toBe(150);
    await wait(1);
    expect(form.getValues("query.start_records")).toBe(300);

    await ue.clear(records);
    await ue.type(records, "-40");
    expect(records).toHaveValue("40");
    await wait(MONITOR_FORM_TIMINGS.periodInputMs);
    // The records range starts at 25 / 0.5 = 50.
    expect(form.getValues("query.start_records")).toBe(50);
    expect(records).toHaveValue("50");
  });

  it("takes Duration in minutes after 700 ms, stores milliseconds and shows the derived start", async () => {
    const ue = renderTab();
    await choose(ue, "Start", "Duration");
    const minutes = textbox("Start duration (minutes)");
    expect(minutes).toHaveValue("60");
    await ue.clear(minutes);
    await ue.type(minutes, "90");
    await wait(MONITOR_FORM_TIMINGS.periodInputMs - 1);
    expect(form.getValues("query.start_duration")).toBe(HOUR);
    await wait(1);
    expect(form.getValues("query")).toMatchObject({
      start_duration: 90 * 60_000,
      start_time: NOW - 90 * 60_000,
    });
    expect(screen.getByText(`From ${formatDateTime(new Date(NOW - 90 * 60_000), TZ)}`)).toBeInTheDocument();
  });

  it("labels an invalid Time entry 'Error', reports it, and keeps times out of the future", async () => {
    const ue = renderTab(
      values({ query: { ...values().query, start_mode: "Time", start_time: NOW - HOUR } }),
    );
    const start = screen.getByRole("group", { name: "Start time" });
    await ue.click(within(start).getByRole("spinbutton", { name: "Year" }));
    await ue.keyboard("2");
    expect(screen.getByRole("group", { name: "Error" })).toBeInTheDocument();
    expect(screen.getByText(QUERY_MESSAGES.invalidStart)).toBeInTheDocument();

    await ue.keyboard("025");
    expect(screen.queryByRole("group", { name: "Error" })).not.toBeInTheDocument();
    expect(form.getValues("query.start_time")).toBe(NOW - HOUR - 365 * 24 * HOUR);
    expect(screen.queryByText(QUERY_MESSAGES.invalidStart)).not.toBeInTheDocument();

    // A date after now becomes now.
    const end = screen.getByRole("group", { name: "End time" });
    await ue.click(within(end).getByRole("spinbutton", { name: "Day" }));
    await ue.keyboard("23");
    expect(form.getValues("query.end_time")).toBe(NOW);
    expect(pickerText("End time")).toBe("2026-11-22 11:00:00");
  });

  it("shows 'Start time must be less than end time' under the start", () => {
    renderTab(
      values({
        query: { ...values().query, start_mode: "Time", start_time: NOW - HOUR, end_time: NOW - 2 * HOUR },
      }),
    );
    expect(screen.getByText(QUERY_MESSAGES.startAfterEnd)).toBeInTheDocument();
  });

  it("shows no MVD compatibility message in the SVD form", () => {
    renderTab(values({}, "svd"));
    expect(screen.queryByText(QUERY_MESSAGES.compatible)).not.toBeInTheDocument();
    expect(screen.queryByText(QUERY_MESSAGES.incompatible)).not.toBeInTheDocument();
  });
});

describe("DataFiltersTab: Training Split", { timeout: 30_000 }, () => {
  it("shows the percentages and the Min / Max of the record count; the slider commits after 400 ms", async () => {
    const ue = renderTab();
    expect(screen.getByText("Sample 80%")).toBeInTheDocument();
    expect(screen.getByText("Evaluation 20%")).toBeInTheDocument();
    // 25 / 150 records = 16.67 %; the upper bound is 50 %.
    expect(screen.getByText("Min 16.67%")).toBeInTheDocument();
    expect(screen.getByText("Max 50%")).toBeInTheDocument();

    const slider = screen.getByRole("slider", { name: "Evaluation percentage" });
    act(() => slider.focus());
    await ue.keyboard("{ArrowRight}{ArrowRight}");
    expect(screen.getByText("Evaluation 30%")).toBeInTheDocument();
    await wait(MONITOR_FORM_TIMINGS.trainingSplitSliderMs - 1);
    expect(form.getValues("evaluation_ratio")).toBe(0.2);
    await wait(1);
    expect(form.getValues("evaluation_ratio")).toBe(0.3);

    // Beyond Max is clamped.
    fireEvent.change(slider, { target: { value: 80 } });
    await wait(MONITOR_FORM_TIMINGS.trainingSplitSliderMs);
    expect(form.getValues("evaluation_ratio")).toBe(0.5);
    expect(screen.getByText("Sample 50%")).toBeInTheDocument();
  });

  it("commits typed percentages after 900 ms, clamped; text that is no number shows the alert icon only", async () => {
    const ue = renderTab();
    const input = textbox("Evaluation %");
    await ue.clear(input);
    await ue.type(input, "abc");
    expect(screen.getByRole("img", { name: /as a number/ })).toBeInTheDocument();
    await wait(MONITOR_FORM_TIMINGS.trainingSplitInputMs * 2);
    expect(form.getValues("evaluation_ratio")).toBe(0.2);

    await ue.clear(input);
    await ue.type(input, "35");
    expect(screen.queryByRole("img", { name: /as a number/ })).not.toBeInTheDocument();
    await wait(MONITOR_FORM_TIMINGS.trainingSplitInputMs - 1);
    expect(form.getValues("evaluation_ratio")).toBe(0.2);
    await wait(1);
    expect(form.getValues("evaluation_ratio")).toBe(0.35);

    await ue.clear(input);
    await ue.type(input, "5");
    await wait(MONITOR_FORM_TIMINGS.trainingSplitInputMs);
    expect(form.getValues("evaluation_ratio")).toBe(0.1667);
    expect(input).toHaveValue("16.67");
    expect(screen.getByText("Sample 83.33%")).toBeInTheDocument();

    await ue.click(screen.getByRole("button", { name: "Default" }));
    expect(form.getValues("evaluation_ratio")).toBe(QUERY_BOUNDS.defaultTrainingSplit);
    expect(input).toHaveValue("20");
  });

  it("follows the record count: 50 records raise Min to 50% and the split with it", async () => {
    const ue = renderTab();
    const records = textbox("Start records");
    await ue.clear(records);
    await ue.type(records, "50");
    await wait(MONITOR_FORM_TIMINGS.periodInputMs);
    expect(screen.getByText("Min 50%")).toBeInTheDocument();
    expect(form.getValues("evaluation_ratio")).toBe(0.5);
    // Back at 150 records the chosen 20 % returns: the clamp held it only while the bounds required.
    await ue.clear(records);
    await ue.type(records, "150");
    await wait(MONITOR_FORM_TIMINGS.periodInputMs);
    expect(screen.getByText("Min 16.67%")).toBeInTheDocument();
    expect(form.getValues("evaluation_ratio")).toBe(0.2);
    expect(screen.getByText("Evaluation 20%")).toBeInTheDocument();
  });
});

describe("DataFiltersTab: Model Numbers and Result", { timeout: 30_000 }, () => {
  it("offers the line's model numbers with challenge parts marked", async () => {
    const ue = renderTab();
    await ue.click(combobox("Model Numbers"));
    const challenge = await screen.findByRole("option", { name: /M-900/ });
    expect(within(challenge).getByText("Challenge")).toBeInTheDocument();
    expect(
      within(screen.getByRole("option", { name: /M-100/ })).queryByText("Challenge"),
    ).not.toBeInTheDocument();
    await ue.click(challenge);
    expect(form.getValues("part_numbers")).toEqual(["M-900"]);
    expect(screen.getByRole("button", { name: "M-900 (challenge)" })).toBeInTheDocument();
  });

  it("reads 'Not Configured' and is disabled when the selected signals have no result classifications", async () => {
    classifications = {};
    renderTab();
    const result = await screen.findByRole("combobox", { name: "Result" });
    await screen.findByText("Not Configured");
    expect(result).toHaveAttribute("aria-disabled", "true");
  });

  it("warns when a selected signal lacks a result association and links to signal management", async () => {
    classifications = { [S1]: passFail };
    renderTab();
    await screen.findByRole("link", { name: "Configure now" });
    const warning = screen.getByRole("alert");
    expect(warning.textContent).toBe(resultAssociationWarningText());
    const link = within(warning).getByRole("link", { name: "Configure now" });
    const href = new URL(link.getAttribute("href") ?? "", "http://localhost");
    expect(href.pathname).toBe("/settings");
    // The form SettingsPage reads its section in.
    expect(ZSettingsSection.parse(href.searchParams.get("section"))).toBe("SIGNAL_MANAGEMENT");
    // S1 has classifications: the select applies.
    expect(combobox("Result")).not.toHaveAttribute("aria-disabled");
    // Signal Management opens on the line and the signal that lacks its result.
    sessionStorage.clear();
    fireEvent.click(link);
    expect(sessionStorage.getItem(SESSION_KEYS.signal)).toBe(S2);
    expect(sessionStorage.getItem(SESSION_KEYS.line)).toBe(LINE);
  });

  it("looks at the members of a selected signal group", async () => {
    classifications = { [S1]: passFail };
    renderTab(values({ signal_uuids: [], signal_group_uuids: [GROUP] }));
    expect(await screen.findByRole("link", { name: "Configure now" })).toBeInTheDocument();
    expect(await screen.findByText("Breach")).toBeInTheDocument();
    expect(previewBodies[0]?.filter.signal_group_uuids).toEqual([GROUP]);
  });

  it("selects pass or fail from a menu at most 177 × 250 px; no warning when every signal is associated", async () => {
    const ue = renderTab();
    await screen.findByText("All results");
    expect(screen.queryByRole("link", { name: "Configure now" })).not.toBeInTheDocument();
    // The select is as wide as its column (685 px at 1280 × 720); its menu must not follow it.
    const clientWidth = vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(685);
    try {
      await ue.click(combobox("Result"));
    } finally {
      clientWidth.mockRestore();
    }
    const listbox = await screen.findByRole("listbox");
    const paper = listbox.closest(".MuiPaper-root") as HTMLElement;
    expect(paper.style.maxHeight).toBe(`${MONITOR_FORM_LAYOUT.resultMenuMaxHeight}px`);
    expect(paper.style.width).toBe(`${MONITOR_FORM_LAYOUT.resultMenuWidth}px`);
    expect(paper.style.maxWidth).toBe(`${MONITOR_FORM_LAYOUT.resultMenuWidth}px`);
    expect(Number.parseFloat(paper.style.minWidth || "0")).toBeLessThanOrEqual(
      MONITOR_FORM_LAYOUT.resultMenuWidth,
    );
    await ue.click(within(listbox).getByRole("option", { name: "Fail" }));
    expect(form.getValues("pass_fail_filter")).toEqual(["fail"]);
  });
});

describe("DataFiltersTab: Part attributes", { timeout: 30_000 }, () => {
  it("flags attributes missing from the line's collection and empty rows", async () => {
    const ue = renderTab(
      values({ part_attributes: [{ attributeUuid: GONE, selectedAttributeValues: ["x"] }] }),
    );
    expect(await screen.findByText(MONITOR_MESSAGES.partAttributesNotFound)).toBeInTheDocument();

    await ue.click(screen.getByRole("button", { name: "Add part attribute" }));
    expect(screen.getByText(MONITOR_MESSAGES.partAttributeRequired)).toBeInTheDocument();
    await choose(ue, "Attribute 2", "Shift (OP10)");
    await ue.click(combobox("Values of attribute 2"));
    await ue.click(await screen.findByRole("option", { name: "B" }));
    expect(form.getValues("part_attributes.1")).toEqual({
      attributeUuid: SHIFT,
      selectedAttributeValues: ["B"],
    });
    expect(screen.queryByText(MONITOR_MESSAGES.partAttributeRequired)).not.toBeInTheDocument();

    await ue.click(screen.getByRole("button", { name: "Remove part attribute 1" }));
    expect(form.getValues("part_attributes")).toEqual([
      { attributeUuid: SHIFT, selectedAttributeValues: ["B"] },
    ]);
    expect(screen.queryByText(MONITOR_MESSAGES.partAttributesNotFound)).not.toBeInTheDocument();
  });

  it("is not shown when the line has no part attributes", async () => {
    partAttributes = [];
    renderTab();
    await screen.findByText("Training records");
    expect(screen.queryByText("Part Attributes")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add part attribute" })).not.toBeInTheDocument();
  });
});

describe("DataFiltersTab: query preview", { timeout: 30_000 }, () => {
  it("shows the counts, their time span and the state; asks again 500 ms after a filter changes", async () => {
    const ue = renderTab();
    expect(await screen.findByText("120")).toBeInTheDocument();
    expect(screen.getByText("30")).toBeInTheDocument();
    expect(screen.getByText("Breach")).toBeInTheDocument();
    expect(
      screen.getByText(
        "p-value 0.00012 vs α 0.01: means moved 1.8 σ (Mahalanobis), p = 6e-5; parts fit the training pattern worse than usual, p = 0.3",
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(formatDateTime("2026-11-22T09:40:00.000Z", TZ))).toBeInTheDocument();
    expect(previewBodies).toHaveLength(1);
    const first = previewBodies[0] as TMonitorPreviewBody;
    expect(first).toMatchObject({ type: "mvd", line_id: LINE, period: previewPeriodOf(values().query) });
    expect(first.filter).toMatchObject({ signal_uuids: [S1, S2], sample_size: 150, evaluation_ratio: 0.2 });

    previewReply = () => HttpResponse.json(previewAnswer({ state: "OK", score: 0.9, reason: null }));
    await choose(ue, "Result", "Pass");
    await wait(PREVIEW_DEBOUNCE_MS - 1);
    expect(previewBodies).toHaveLength(1);
    // The previous answer stays while the next one loads.
    expect(screen.getByText("Breach")).toBeInTheDocument();
    await wait(1);
    expect(await screen.findByText("OK")).toBeInTheDocument();
    expect(previewBodies).toHaveLength(2);
    expect(previewBodies[1]?.filter.pass_fail_filter).toEqual(["pass"]);
  });

  it("shows the reason of a state and an error state with Retry", async () => {
    previewReply = () =>
      HttpResponse.json(previewAnswer({ state: "NO_DATA", reason: "fewer than 25 records" }));
    renderTab();
    expect(await screen.findByText("No data")).toBeInTheDocument();
    expect(screen.getByText("fewer than 25 records")).toBeInTheDocument();
    cleanup();

    previewReply = () => refusal(404, { message: "Line not found" });
    const ue = renderTab();
    expect(await screen.findByText(/Preview could not be loaded: Line not found/)).toBeInTheDocument();
    previewReply = () => HttpResponse.json(previewAnswer());
    await ue.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Breach")).toBeInTheDocument();
  });

  it("shows what the threshold allows for: the chosen signals' VIF", async () => {
    renderTab();
    const adjustments = await screen.findByRole("region", { name: "Threshold adjustments" });
    expect(adjustments).toHaveTextContent(
      "threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.1: Angle 2.1",
    );
    cleanup();
    // Signals without autocorrelation say so rather than show nothing.
    const independent = mvdDetailsFixture({
      meanSignals: mvdDetailsFixture().meanSignals.map((s) => ({ ...s, vif: 1 })),
    });
    previewReply = () => HttpResponse.json(previewAnswer({ state: "OK", score: 0.4, details: independent }));
    renderTab();
    expect(await screen.findByRole("region", { name: "Threshold adjustments" })).toHaveTextContent(
      "no autocorrelation found in the training values (VIF 1 for every signal)",
    );
  });

  it("warns when the window cannot hold the threshold for the autocorrelation the preview measured", async () => {
    previewReply = () =>
      HttpResponse.json({
        ...previewAnswer({ state: "OK", score: 0.4 }),
        level_support: {
          holds: false,
          measured_records: 150,
          training_records: 120,
          // The server's own count, not ESS × VIF (6.2 × 19 rounds to 118).
          effective_sample_size: 6.2,
          minimum_sample_size: 264,
          vif: 19,
          ar_order: 1,
        },
      });
    renderTab();
    const section = await screen.findByRole("region", { name: "Autocorrelation and window size" });
    expect(section).toHaveTextContent(
      "measured on 150 records: neighbouring parts are alike (VIF 19); the 120 training records are worth about 6.2 independent ones",
    );
    // The medium threshold's 1 in 100, the form's 150 records and the window that would hold.
    expect(within(section).getByRole("alert").textContent).toBe(
      "with these signals' autocorrelation, 150 records cannot hold 1 false alarm in 100 evaluations; use at least 264",
    );
    cleanup();
    // A window that holds: what was measured, no warning.
    previewReply = () =>
      HttpResponse.json({
        ...previewAnswer({ state: "OK", score: 0.4 }),
        level_support: {
          holds: true,
          measured_records: 150,
          training_records: 120,
          effective_sample_size: 120,
          minimum_sample_size: 150,
          vif: 1,
          ar_order: 0,
        },
      });
    renderTab();
    const holds = await screen.findByRole("region", { name: "Autocorrelation and window size" });
    expect(holds.textContent).toBe("measured on 150 records: no autocorrelation found");
    expect(within(holds).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("names a cycle the preview found and the window that spans two of its periods", async () => {
    previewReply = () =>
      HttpResponse.json({
        ...previewAnswer({ state: "OK", score: 0.4 }),
        level_support: {
          holds: false,
          measured_records: 1500,
          training_records: 120,
          effective_sample_size: 180,
          minimum_sample_size: 1002,
          vif: 0.67,
          ar_order: 0,
          limited_by: "cycle",
          cycle: { period: 100.3, share: 0.33 },
        },
      });
    renderTab();
    const section = await screen.findByRole("region", { name: "Autocorrelation and window size" });
    // Not "no autocorrelation found" beside the cycle's own line.
    expect(section).toHaveTextContent("measured on 1500 records: no autocorrelation found besides the cycle");
    expect(section).toHaveTextContent(
      "a cycle of about 100 records in the previewed records (33 % of their variance): whole periods average out of the means",
    );
    expect(within(section).getByRole("alert").textContent).toBe(
      "with these signals' cycle of about 100 records, 150 records cannot hold 1 false alarm in 100 evaluations; use at least 1002",
    );
  });

  it("says, as information rather than a warning, that a threshold sits at its 0.1 σ floor", async () => {
    previewReply = () =>
      HttpResponse.json({
        ...previewAnswer({ state: "OK", score: 0.04 }),
        level_support: {
          holds: false,
          measured_records: 1500,
          training_records: 120,
          effective_sample_size: 120,
          minimum_sample_size: null,
          vif: 1,
          ar_order: 0,
          limited_by: "floor",
        },
      });
    renderTab();
    const section = await screen.findByRole("region", { name: "Autocorrelation and window size" });
    const note = within(section).getByRole("alert");
    expect(note.textContent).toBe(
      "with 150 records the threshold sits at its floor of 0.1 standard deviations (a smaller move is not worth an alert): fewer than 1 false alarm in 100 evaluations",
    );
    expect(note).toHaveClass("MuiAlert-colorInfo");
  });

  it("asks for signals first when the selection does not suit the type", async () => {
    renderTab(values({ signal_uuids: [S1] }));
    expect(screen.getByText("Select signals to preview")).toBeInTheDocument();
    await wait(PREVIEW_DEBOUNCE_MS * 2);
    expect(previewBodies).toHaveLength(0);
  });
});

describe("DataFiltersTab: VIEW", { timeout: 30_000 }, () => {
  it("is read-only", async () => {
    const ue = renderTab(
      values({ part_attributes: [{ attributeUuid: SHIFT, selectedAttributeValues: ["A"] }] }),
      "VIEW",
    );
    await screen.findByText("Training records");
    await ue.click(combobox("Start"));
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    const records = textbox("Start records");
    expect(records.readOnly).toBe(true);
    await ue.type(records, "9");
    await wait(MONITOR_FORM_TIMINGS.periodInputMs);
    expect(form.getValues("query.start_records")).toBe(150);
    expect(textbox("Evaluation %").readOnly).toBe(true);
    expect(screen.getByRole("slider", { name: "Evaluation percentage" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Default" })).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Add part attribute" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Remove part attribute/ })).not.toBeInTheDocument();
    await ue.click(combobox("Model Numbers"));
    expect(screen.queryByRole("option", { name: /M-100/ })).not.toBeInTheDocument();
    expect(form.formState.isDirty).toBe(false);
  });
});

describe("DataFiltersTab: Backtest", { timeout: 30_000 }, () => {
  it("says how many alerts the monitor would have opened in the last 7 days; asks again after a filter changes", async () => {
    const ue = renderTab();
    expect(await screen.findByText(BACKTEST_MESSAGES.summary(1, 7, 2, 4))).toBeInTheDocument();
    expect(
      screen.getByText("would have opened 1 alert in the last 7 days (2 breaching evaluations of 4)"),
    ).toBeInTheDocument();
    expect(backtestBodies).toHaveLength(1);
    expect(backtestBodies[0]).toMatchObject({
      task: {
        task_type: "mvd",
        task_details: { cust_uuid: CUSTOMER, plant_uuid: plant.id, line_uuid: LINE },
      },
      rules: expect.any(Array),
    });
    expect(backtestBodies[0]?.task?.task_details.signal_uuids).toEqual([S1, S2]);

    backtestReply = () => HttpResponse.json(backtestAnswer(0));
    await choose(ue, "Result", "Pass");
    await wait(BACKTEST_DEBOUNCE_MS);
    expect(await screen.findByText(BACKTEST_MESSAGES.summary(0, 7, 2, 4))).toBeInTheDocument();
    expect(backtestBodies.at(-1)?.task?.task_details.pass_fail_filter).toEqual(["pass"]);
  });

  it("lists the would-be alerts with their times in the plant's time zone, the first five and how many more", async () => {
    const opened = (i: number) => new Date(NOW - (7 - i) * HOUR).toISOString();
    const answer = backtestAnswer(7);
    answer.alerts = answer.alerts.map((a, i) => ({
      ...a,
      opened_at: opened(i),
      resolved_at: i === 6 ? null : new Date(Date.parse(opened(i)) + 10 * 60_000).toISOString(),
    }));
    backtestReply = () => HttpResponse.json(answer);
    renderTab();
    const list = await screen.findByRole("list", { name: BACKTEST_TEXTS.alertsHeading });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual(
      [0, 1, 2, 3, 4].map((i) =>
        BACKTEST_TEXTS.alertSpan(
          formatDateTime(opened(i), TZ),
          formatDateTime(new Date(Date.parse(opened(i)) + 10 * 60_000), TZ),
        ),
      ),
    );
    expect(screen.getByText(BACKTEST_TEXTS.moreAlerts(2))).toBeInTheDocument();
    // One alert still open at the end says so.
    answer.alerts = answer.alerts.slice(6);
    answer.summary.alerts_opened = 1;
    backtestReply = () => HttpResponse.json(answer);
    cleanup();
    renderTab();
    const one = await screen.findByRole("list", { name: BACKTEST_TEXTS.alertsHeading });
    expect(within(one).getByRole("listitem").textContent).toBe(
      BACKTEST_TEXTS.alertSpan(formatDateTime(opened(6), TZ), null),
    );
  });

  it("shows an error state with Retry, and asks for signals first", async () => {
    backtestReply = () => refusal(404, { message: "Line not found" });
    const ue = renderTab();
    expect(await screen.findByText(/Backtest could not be run: Line not found/)).toBeInTheDocument();
    backtestReply = () => HttpResponse.json(backtestAnswer());
    const retries = screen.getAllByRole("button", { name: "Retry" });
    await ue.click(retries.at(-1) as HTMLElement);
    expect(await screen.findByText(BACKTEST_MESSAGES.summary(1, 7, 2, 4))).toBeInTheDocument();
    cleanup();

    renderTab(values({ signal_uuids: [S1] }));
    expect(await screen.findByText("Select signals to backtest")).toBeInTheDocument();
  });

  it("a saved monitor offers 14 and 30 days and outlines the alerts it raised", async () => {
    const ue = renderTab(values({ monitor_uuid: SAVED }), "EDIT");
    expect(await screen.findByText(BACKTEST_MESSAGES.summary(1, 7, 2, 4))).toBeInTheDocument();
    expect(await screen.findByText(BACKTEST_TEXTS.overlay)).toBeInTheDocument();
    expect(backtestBodies[0]?.period).toBeUndefined();
    backtestReply = () => HttpResponse.json(backtestAnswer(1, 14));
    await ue.click(screen.getByRole("button", { name: "14 days" }));
    await wait(BACKTEST_DEBOUNCE_MS);
    expect(await screen.findByText(BACKTEST_MESSAGES.summary(1, 14, 2, 4))).toBeInTheDocument();
    expect(backtestBodies.at(-1)?.period).toEqual({ days: 14 });
  });
});
