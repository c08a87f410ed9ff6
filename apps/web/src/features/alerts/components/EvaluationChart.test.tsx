import { NO_MONITORED_SIGNALS, parseEvaluationDetails, type TAlertEvaluation } from "@linewatch/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { installResizeObserver, mvdDetailsFixture, storedUncorrectedDetails } from "../../../test/fixtures";
import { EvaluationChart } from "./EvaluationChart";
import { chartLines } from "./evaluationDetails";

installResizeObserver();
afterEach(() => cleanup());

const at = (i: number) => ({
  id: `00000000-0000-4000-8000-0000000001${String(i).padStart(2, "0")}`,
  slot: new Date(Date.UTC(2026, 10, 22, 10, i * 5)).toISOString(),
  evaluatedAt: new Date(Date.UTC(2026, 10, 22, 10, i * 5, 1)).toISOString(),
});
/** As the uncorrected method stored them: mean T²/p as the score, α as the threshold. */
const evaluation = (i: number, state: "OK" | "BREACH", score: number, pValue: number): TAlertEvaluation => ({
  ...at(i),
  state,
  score,
  threshold: 0.01,
  // The server answers them normalised (parseEvaluationDetails), as it answers every evaluation.
  details: parseEvaluationDetails("mvd", {
    ...storedUncorrectedDetails.mvd,
    p_value: pValue,
    k: state === "BREACH" ? 9 : 1,
  }),
});
/** As the calibrated method stores them: −log₁₀ p against −log₁₀ α. */
const calibrated = (i: number, pValue: number): TAlertEvaluation => ({
  ...at(i),
  state: pValue < 0.01 ? "BREACH" : "OK",
  score: -Math.log10(pValue),
  threshold: 2,
  details: mvdDetailsFixture({ p_value: pValue, p_mean: pValue / 2, p_struct: 0.4 }),
});

// An MVD monitor whose breaches had mean T² / p lower than some of its OK evaluations: plotted as
// mean T² they sat below the limit; as p-values against α every breach is below the α line.
const evaluations = [
  evaluation(0, "OK", 15.2, 0.42),
  evaluation(1, "BREACH", 13.788, 0.000153),
  evaluation(2, "OK", 14.1, 0.3),
  evaluation(3, "BREACH", 12.9, 0.0021),
];

describe("EvaluationChart, MVD", () => {
  it("plots the p-value against α, so every breach sits on the breach side of the threshold", () => {
    const lines = chartLines("mvd", evaluations);
    expect(lines.scoreLabel).toBe("p-value");
    expect(lines.barLabel).toBe("α");
    expect(lines.scale).toBe("log");
    evaluations.forEach((e, i) => {
      const score = lines.score[i] as number;
      const bar = lines.bar[i] as number;
      expect(score < bar).toBe(e.state === "BREACH");
    });
  });

  it("plots calibrated evaluations (−log₁₀ p stored) and older ones on one p-value scale against α", () => {
    const mixed = [...evaluations, calibrated(4, 0.3), calibrated(5, 0.0008)];
    const lines = chartLines("mvd", mixed);
    expect(lines.bar).toEqual([0.01, 0.01, 0.01, 0.01, 0.01, 0.01]);
    expect(lines.score.slice(4)).toEqual([0.3, 0.0008]);
    mixed.forEach((e, i) => {
      expect((lines.score[i] as number) < (lines.bar[i] as number)).toBe(e.state === "BREACH");
    });
  });

  it("says a calibrated evaluation by the part that fired, with its p-value", () => {
    const latest = calibrated(1, 0.0008);
    render(
      <EvaluationChart
        type="mvd"
        evaluations={[latest]}
        openedAt={latest.slot}
        resolvedAt={null}
        timeZone="Europe/Berlin"
      />,
    );
    expect(screen.getByTestId("evaluation-summary").textContent).toBe(
      "Latest: p-value 0.0008 vs α 0.01: means moved 1.8 σ (Mahalanobis), p = 0.0004; parts fit the training pattern worse than usual, p = 0.4",
    );
  });

  it("says the latest evaluation in the words of the query preview and the alert list", () => {
    render(
      <EvaluationChart
        type="mvd"
        evaluations={evaluations}
        openedAt={evaluations[1]?.slot ?? ""}
        resolvedAt={null}
        timeZone="Europe/Berlin"
      />,
    );
    expect(screen.getByTestId("evaluation-summary").textContent).toBe(
      "Latest: p-value 0.0021 vs α 0.01, 9 of 25 parts above the UCL (mean T²/p 12.9)",
    );
    expect(screen.getByText(/A breach is a p-value below α/)).toBeInTheDocument();
  });

  it("says when the newest evaluation had no signal left to watch (switched off or converted), not a stale score", () => {
    const noSignals: TAlertEvaluation = {
      ...at(4),
      state: "NO_DATA",
      score: null,
      threshold: null,
      details: { kind: "no_data", code: NO_MONITORED_SIGNALS.code },
    };
    render(
      <EvaluationChart
        type="mvd"
        evaluations={[...evaluations, noSignals]}
        openedAt={evaluations[1]?.slot ?? ""}
        resolvedAt={null}
        timeZone="UTC"
      />,
    );
    expect(screen.getByTestId("evaluation-summary").textContent).toBe(
      `Latest: no data — ${NO_MONITORED_SIGNALS.reason}.`,
    );
    expect(screen.getByText(/1 without a score \(no data or error\)/)).toBeInTheDocument();
  });
});
