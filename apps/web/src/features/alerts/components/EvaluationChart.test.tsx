import type { TAlertEvaluation } from "@linewatch/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { installResizeObserver } from "../../../test/fixtures";
import { EvaluationChart } from "./EvaluationChart";
import { chartLines } from "./evaluationDetails";

installResizeObserver();
afterEach(() => cleanup());

const evaluation = (i: number, state: "OK" | "BREACH", score: number, pValue: number): TAlertEvaluation => ({
  id: `00000000-0000-4000-8000-0000000001${String(i).padStart(2, "0")}`,
  slot: new Date(Date.UTC(2026, 10, 22, 10, i * 5)).toISOString(),
  evaluatedAt: new Date(Date.UTC(2026, 10, 22, 10, i * 5, 1)).toISOString(),
  state,
  score,
  threshold: 0.01,
  details: { ucl: 30, p: 2, p_value: pValue, alpha: 0.01, k: state === "BREACH" ? 9 : 1, n: 25 },
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
    expect(screen.getByText(/A breach is a p-value below α/)).toBeTruthy();
  });
});
