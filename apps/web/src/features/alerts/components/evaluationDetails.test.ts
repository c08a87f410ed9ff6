import { parseEvaluationDetails, type TAlertEvaluation, type TMonitorType } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "../../../test/fixtures";
import { capDetails, evaluationToShow, mvdDetails, svdDetails } from "./evaluationDetails";

const svd = svdDetailsFixture();
/** An evaluation as the server answers it: its stored details normalised (parseEvaluationDetails). */
const ev = (
  id: string,
  state: TAlertEvaluation["state"],
  details: unknown,
  type: TMonitorType = "svd",
): TAlertEvaluation => ({
  id,
  slot: `2026-11-22T10:0${id}:00Z`,
  evaluatedAt: `2026-11-22T10:0${id}:00Z`,
  state,
  score: null,
  threshold: null,
  details: parseEvaluationDetails(type, details),
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

describe("the detail readers", () => {
  it("read what the worker writes", () => {
    expect(svdDetails(svdDetailsFixture())).toMatchObject({ signalName: "Bore Diameter", m: 75, n: 25 });
    expect(mvdDetails(mvdDetailsFixture({ p_value: 0.002 }))).toMatchObject({
      pValue: 0.002,
      ucl: null,
      exceedances: null,
      parsed: { method: "calibrated", p_mean: 0.0004 },
    });
    expect(capDetails(capDetailsFixture())).toMatchObject({ lsl: 21, usl: 27, ppk: 0.8 });
  });

  it("read what older evaluations stored: the uncorrected methods, with or without their kind", () => {
    const { kind: _svd, ...kindless } = storedUncorrectedDetails.svd;
    expect(svdDetails(kindless)).toMatchObject({
      signalName: "Bore Diameter",
      m: 75,
      parsed: { method: "uncorrected" },
    });
    expect(mvdDetails(storedUncorrectedDetails.mvd)).toMatchObject({
      pValue: 0.002,
      ucl: 11.2,
      exceedances: 6,
    });
    expect(capDetails(storedUncorrectedDetails.cap)).toMatchObject({ ppk: 0.8, parsed: { violations: 2 } });
  });

  it("answer null for details of another kind or a shape the schema refuses", () => {
    expect(svdDetails(mvdDetailsFixture())).toBeNull();
    expect(capDetails({ kind: "no_data", code: "X" })).toBeNull();
    expect(svdDetails({ trainingMean: "46" })).toBeNull();
  });
});
