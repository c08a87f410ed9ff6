import {
  parseEvaluationDetails,
  type TAlertEvaluation,
  type TCapEvaluationValues,
  type TEvaluationValues,
  type TMonitorType,
  type TSvdEvaluationValues,
} from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type DefaultBodyType, HttpResponse, http, type PathParams } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "../../../test/fixtures";
import { refusal } from "../../../test/mockApi";
import { EvaluationDetailsPanel } from "./EvaluationDetailsPanel";

// jsdom has no layout: give the charts a size and a ResizeObserver.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
const size = { width: 700, height: 300, top: 0, left: 0, right: 700, bottom: 300, x: 0, y: 0 };
Element.prototype.getBoundingClientRect = () => ({ ...size, toJSON: () => size }) as DOMRect;

const alertId = "00000000-0000-4000-8000-000000000001";
const evaluationId = "00000000-0000-4000-8000-000000000002";
const signal = { id: "00000000-0000-4000-8000-000000000003", name: "Wheel Nut Torque", unit: "Nm" };
const head = {
  evaluationId,
  signal,
  lastRecordTs: "2026-11-22T10:39:00.000Z",
  windowSize: 100,
  trainingFrom: "2026-11-22T10:00:00.000Z",
  evaluationFrom: "2026-11-22T10:30:00.000Z",
  isMonitorChanged: false,
  isSameAsEvaluated: true,
};
/** A breach as the server answers it: its stored details normalised (parseEvaluationDetails). */
const breach = (type: TMonitorType, details: unknown): TAlertEvaluation => ({
  id: evaluationId,
  slot: "2026-11-22T10:40:00.000Z",
  evaluatedAt: "2026-11-22T10:40:01.000Z",
  state: "BREACH",
  score: 1,
  threshold: 0.6,
  details: parseEvaluationDetails(type, details),
});
const svdDetails = svdDetailsFixture({
  trainingMean: 46,
  trainingSd: 0.6,
  evaluationMean: 45.5,
  evaluationSd: 0.5,
  w1: 0.5,
});
const svdValues: TSvdEvaluationValues = {
  type: "svd",
  ...head,
  training: Array.from({ length: 75 }, (_, i) => 45 + (i % 10) / 5),
  evaluation: Array.from({ length: 25 }, (_, i) => 44.8 + (i % 5) / 5),
};
const capDetails = capDetailsFixture();
const capValues: TCapEvaluationValues = {
  type: "cap",
  ...head,
  isMonitorChanged: true,
  signal: { ...signal, name: "Press Force", unit: "kN" },
  records: Array.from({ length: 25 }, (_, i) => ({
    ts: new Date(Date.UTC(2026, 10, 22, 10, 30, i * 2)).toISOString(),
    partId: `P-${i}`,
    modelNumber: "AX-100",
    value: i === 3 ? 28 : 24 + (i % 4) / 2,
    lsl: 21,
    lcl: null,
    ucl: null,
    usl: 27,
  })),
  limits: { lsl: 21, usl: 27, lcl: [], ucl: [] },
  indices: { cp: 1, cpk: 0.9, pp: 0.9, ppk: 0.8, cpkTarget: 1.33 },
};

const valuesUrl = `/api/alerts/${alertId}/evaluations/${evaluationId}/values`;
let answers: (() => HttpResponse<TEvaluationValues>)[] = [];
const server = setupServer(
  // This evaluation's values only (another URL is unhandled): msw's handler typed with the answer.
  http.get<PathParams, DefaultBodyType, TEvaluationValues>(valuesUrl, () => {
    const next = answers.shift();
    return next ? next() : refusal(500, { message: "no answer queued" });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  answers = [];
});
afterAll(() => server.close());

function renderPanel(type: "svd" | "cap" | "mvd", details: unknown) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <EvaluationDetailsPanel
        alertId={alertId}
        type={type}
        evaluations={[breach(type, details)]}
        timeZone="America/Detroit"
      />
    </QueryClientProvider>,
  );
}

describe("EvaluationDetailsPanel", () => {
  it("SVD: loads the values, then draws the training and evaluation histogram with its caption", async () => {
    answers.push(() => HttpResponse.json(svdValues));
    renderPanel("svd", svdDetails);
    expect(screen.getByRole("progressbar", { name: "Loading" })).toBeInTheDocument();
    const figure = await screen.findByRole("figure", {
      name: /^Training and evaluation values of Wheel Nut Torque \(Nm\)/,
    });
    expect(figure).toHaveTextContent("Training: 75 values from 2026-11-22 05:00:00 EST");
    expect(
      screen.getByText(/Newest breach of the alert: the evaluation of 2026-11-22 05:40:00 EST/),
    ).toBeInTheDocument();
  });

  it("shows the error with a retry that reads the values again", async () => {
    // A failure a retry can mend (a 404 offers no Retry: it cannot succeed).
    answers.push(() => refusal(503, { message: "Service unavailable" }));
    answers.push(() => HttpResponse.json(svdValues));
    renderPanel("svd", svdDetails);
    const error = await screen.findByRole("alert");
    expect(error).toHaveTextContent("The evaluation's values could not be read: Service unavailable");
    await userEvent.click(within(error).getByRole("button", { name: "Retry" }));
    expect(
      await screen.findByRole("figure", { name: /^Training and evaluation values/ }),
    ).toBeInTheDocument();
  });

  it("CAP: values against the limits with Cpk and Ppk beside, and a note when the monitor changed since", async () => {
    answers.push(() => HttpResponse.json(capValues));
    renderPanel("cap", capDetails);
    const figure = await screen.findByRole("figure", {
      name: /^Values of Press Force \(kN\) against the control limits/,
    });
    const table = within(figure).getByRole("table", { name: "Limits and indices" });
    expect(within(table).getByRole("row", { name: "Ppk 0.8" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: "Cpk 0.9" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: "USL 27" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: "Outside LSL/USL 1" })).toBeInTheDocument();
    expect(
      within(figure).getByText(/The monitor's settings changed after this evaluation/),
    ).toBeInTheDocument();
  });

  it("SVD: says the threshold was widened for autocorrelation, with the VIF, and its shape adjustment", async () => {
    answers.push(() => HttpResponse.json(svdValues));
    renderPanel("svd", svdDetails);
    const found = screen.getByRole("list", { name: "What the evaluation found" });
    expect(
      within(found).getByText("threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.9"),
    ).toBeInTheDocument();
    expect(
      within(found).getByText("threshold × 1.05 for the shape of the values (skew, tails)"),
    ).toBeInTheDocument();
    await screen.findByRole("figure", { name: /^Training and evaluation values/ });
  });

  it("MVD: names the part that fired with its p-value, the other part, and the moved signals", async () => {
    renderPanel("mvd", mvdDetailsFixture());
    const items = within(screen.getByRole("list", { name: "What the evaluation found" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items.slice(0, 3)).toEqual([
      "Fired: means moved 1.8 σ (Mahalanobis), p = 0.0004",
      "parts fit the training pattern worse than usual, p = 0.2",
      "moved signals: Torque +1.9 σ, Angle −0.4 σ",
    ]);
    expect(items).toContain(
      "threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.1: Angle 2.1",
    );
    expect(screen.getByRole("figure")).toHaveTextContent("p-value 0.0008 against α 0.01.");
  });

  it("SVD stored by the uncorrected method still displays: the histogram with its W1 and sd", async () => {
    answers.push(() => HttpResponse.json(svdValues));
    renderPanel("svd", storedUncorrectedDetails.svd);
    const figure = await screen.findByRole("figure", {
      name: /^Training and evaluation values of Wheel Nut Torque \(Nm\)/,
    });
    expect(figure).toHaveTextContent("W1 0.0031 Nm, training sd 0.003 Nm.");
    // No widened-threshold or shape lines: the uncorrected method made no such adjustment.
    expect(screen.queryByText(/threshold widened/)).not.toBeInTheDocument();
  });

  it("MVD stored by the uncorrected method: its UCL count, as before", async () => {
    renderPanel("mvd", storedUncorrectedDetails.mvd);
    expect(screen.getByText("6 of 25 parts above the UCL 11.2, p = 0.002")).toBeInTheDocument();
    expect(screen.getByRole("figure")).toHaveTextContent("Per-row UCL 11.2; 6 of 25 rows above it");
  });

  it("CAP: the control rule with its points in the plant's time, and Ppk's bound against the target", async () => {
    answers.push(() => HttpResponse.json(capValues));
    renderPanel(
      "cap",
      capDetailsFixture({
        isControlBreach: true,
        controlHitCount: 1,
        controlHits: [{ rule: 1, partId: "P-3", ts: "2026-11-22T10:30:06.000Z", value: 28 }],
      }),
    );
    const found = screen.getByRole("list", { name: "What the evaluation found" });
    expect(
      within(found).getByText(
        "Fired: 1 new point fired a control rule: P-3 at 2026-11-22 05:30:06 EST, 28 (outside the control limits (rule 1))",
      ),
    ).toBeInTheDocument();
    expect(
      within(found).getByText(
        "Fired: Ppk 0.8 (95 % interval 0.55–1.05), upper 99 % bound 1.1 below the target 1.33",
      ),
    ).toBeInTheDocument();
    await screen.findByRole("figure", { name: /^Values of Press Force/ });
  });

  it("CAP held per evaluation (issue 29): hits expected by chance, p_control, p_capability and the judged points", async () => {
    answers.push(() => HttpResponse.json(capValues));
    renderPanel(
      "cap",
      capDetailsFixture({
        isControlBreach: false,
        isCapabilityBreach: false,
        ppkUpperBound: 1.5,
        judgedCount: 600,
        controlHitCount: 3,
        controlHits: [28, 29, 30].map((value, i) => ({
          rule: 1 as const,
          partId: `P-${i}`,
          ts: null,
          value,
        })),
        p_value: 1,
        p_control: 0.69,
        p_capability: 0.8,
        testCount: 2,
        capabilityAlpha: 0.005,
        controlTestedCount: 600,
        controlExtreme: { rule: 1, tail: 0.0019 },
        isControlOneSided: false,
      }),
    );
    const found = screen.getByRole("list", { name: "What the evaluation found" });
    const items = within(found)
      .getAllByRole("listitem")
      .map((li) => li.textContent ?? "");
    expect(items[0]).toBe(
      "p-value 1 vs α 0.01 (twice the smaller of the control and capability parts' p-values)",
    );
    expect(items[1]).toMatch(
      /^3 points outside the control limits in 600 judged: expected by chance at this level \(p = 0.69\): P-0, 28/,
    );
    expect(items[2]).toBe(
      "Ppk 0.8 (95 % interval 0.55–1.05), upper 99.5 % bound 1.5 not below the target 1.33, p = 0.8",
    );
    const figure = await screen.findByRole("figure", { name: /^Values of Press Force/ });
    const table = within(figure).getByRole("table", { name: "Limits and indices" });
    expect(within(table).getByRole("row", { name: "Judged points 600" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: "p control 0.69" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: "p capability 0.8" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: "p vs α 0.01 1" })).toBeInTheDocument();
  });

  it("CAP stored by the uncorrected method still displays", async () => {
    answers.push(() => HttpResponse.json(capValues));
    renderPanel("cap", storedUncorrectedDetails.cap);
    expect(screen.getByText("2 points outside the control limits")).toBeInTheDocument();
    await screen.findByRole("figure", { name: /^Values of Press Force/ });
  });
});
