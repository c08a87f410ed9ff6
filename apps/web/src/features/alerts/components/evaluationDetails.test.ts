import type { TAlertEvaluation } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { evaluationToShow } from "./evaluationDetails";

const svd = { trainingMean: 1, trainingSd: 1, evaluationMean: 2, evaluationSd: 1, m: 75, n: 25, w1: 1 };
const ev = (id: string, state: TAlertEvaluation["state"], details: unknown): TAlertEvaluation => ({
  id,
  slot: `2026-11-22T10:0${id}:00Z`,
  evaluatedAt: `2026-11-22T10:0${id}:00Z`,
  state,
  score: null,
  threshold: null,
  details,
});

describe("evaluationToShow", () => {
  it("shows the newest breach with details, not a later OK evaluation", () => {
    const list = [
      ev("1", "BREACH", svd),
      ev("2", "BREACH", svd),
      ev("3", "OK", svd),
      ev("4", "NO_DATA", { code: "X" }),
    ];
    expect(evaluationToShow("svd", list)).toMatchObject({ evaluation: { id: "2" }, isBreach: true });
  });

  it("skips a breach whose details are not of the monitor's type", () => {
    const list = [ev("1", "BREACH", svd), ev("2", "BREACH", { code: "X" }), ev("3", "OK", svd)];
    expect(evaluationToShow("svd", list)).toMatchObject({ evaluation: { id: "1" }, isBreach: true });
  });

  it("falls back to the newest evaluation with details when no breach has them, and to none", () => {
    const list = [ev("1", "OK", svd), ev("2", "OK", svd), ev("3", "NO_DATA", null)];
    expect(evaluationToShow("svd", list)).toMatchObject({ evaluation: { id: "2" }, isBreach: false });
    expect(evaluationToShow("svd", [ev("1", "NO_DATA", null)])).toBeNull();
    expect(evaluationToShow("mvd", list)).toBeNull();
  });
});
