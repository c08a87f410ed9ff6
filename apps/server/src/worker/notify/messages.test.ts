import { NO_DATA_ALERT_TEXTS } from "@linewatch/contracts";
import {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "@linewatch/contracts/fixtures";
import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../modules/notifications/notifications.channels.js";
import {
  type AlertFacts,
  alertCard,
  alertLink,
  etqDocument,
  findings,
  MAX_ATTEMPTS,
  NO_DATA_TYPE,
  retryDelayMs,
  topDrivers,
} from "./messages.js";

describe("retry delays", () => {
  it("doubles from 5 s up to 1 h, and Retry-After wins (capped at 1 h)", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, null))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(MAX_ATTEMPTS + 5, null)).toBe(3_600_000);
    expect(retryDelayMs(1, 7_000)).toBe(7_000);
    expect(retryDelayMs(1, 86_400_000)).toBe(3_600_000);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("alert message parts", () => {
  const sig = (name: string, contribution: number) => ({ id: null, name, contribution });
  const row = (...topSignals: ReturnType<typeof sig>[]) => ({ partId: "P-1", ts: null, t2: 30, topSignals });
  const mvd = {
    kind: "mvd",
    ucl: 14.2,
    k: 4,
    p_value: 0.001,
    alpha: 0.01,
    m: 120,
    n: 30,
    p: 4,
    shrinkage: 0.1,
    signals: [],
    droppedSignals: [],
    leftOut: { training: 0, evaluation: 0 },
  };
  const svd = {
    signal: { id: "s", name: "Torque" },
    w1: 2.5,
    scale: 1,
    scaleSource: "sd",
    k: 2.7,
    nEff: 20,
    m: 75,
    n: 25,
    trainingMean: 10,
    trainingSd: 1,
    evaluationMean: 12.5,
    evaluationSd: 1,
    leftOut: { training: 0, evaluation: 0 },
  };

  it("ranks mvd drivers by summed contribution, at most three", () => {
    const details = {
      ...mvd,
      worstRows: [row(sig("A", 1), sig("B", 3)), row(sig("C", 2.5), sig("A", 2.5), sig("D", 0.1))],
    };
    expect(topDrivers("mvd", details)).toEqual([
      "A (contribution 3.5)",
      "B (contribution 3)",
      "C (contribution 2.5)",
    ]);
  });

  it("names the svd signal with its mean shift (details stored with or without their kind), and copes with no details", () => {
    expect(topDrivers("svd", svd)).toEqual(["Torque (mean 10 → 12.5)"]);
    expect(topDrivers("svd", { kind: "svd", ...svd })).toEqual(["Torque (mean 10 → 12.5)"]);
    expect(topDrivers("svd", null)).toEqual([]);
    expect(topDrivers("svd", { code: "NO_DATA" })).toEqual([]);
    // Details that are not the monitor type's are not read as if they were.
    expect(topDrivers("mvd", svd)).toEqual([]);
  });

  it("links to the alert on its line", () => {
    expect(alertLink("https://lw.example.com/", { lineId: "l1", alertId: "a1" })).toBe(
      "https://lw.example.com/lines/l1?alert=a1",
    );
  });

  const facts = (over: Partial<AlertFacts>): AlertFacts => ({
    alertId: "a1",
    lineId: "l1",
    lineName: "Axle Assembly",
    plantName: "Detroit",
    monitorName: "Torque and angle",
    monitorType: "mvd",
    rule: "Every breach",
    score: 3.1,
    threshold: 2,
    openedAt: new Date("2026-11-22T10:40:00Z"),
    details: mvdDetailsFixture(),
    ...over,
  });
  /** The card's text blocks and facts, as a person reads them. */
  const cardText = (f: AlertFacts) => JSON.stringify(alertCard(f, "https://lw.example.com"));

  it("MVD card: the score as p against α, the part that fired with its p-value, the moved signals", () => {
    const card = alertCard(facts({}), "https://lw.example.com") as {
      body: { facts?: unknown[]; text?: string }[];
    };
    expect(card.body[1]?.facts).toContainEqual({
      title: "Score",
      value:
        "p-value 0.0008 vs α 0.01: means moved 1.8 σ (Mahalanobis), p = 0.0004; parts fit the training pattern worse than usual, p = 0.2",
    });
    const texts = card.body.map((b) => b.text);
    expect(texts).toContain("What the evaluation found");
    expect(texts).toContainEqual(
      expect.stringContaining("- Fired: means moved 1.8 σ (Mahalanobis), p = 0.0004\n"),
    );
    expect(texts).toContainEqual(expect.stringContaining("- moved signals: Torque +1.9 σ, Angle −0.4 σ"));
    expect(topDrivers("mvd", mvdDetailsFixture())).toEqual(["Torque (moved +1.9 σ)", "Angle (moved −0.4 σ)"]);
  });

  it("MVD fired by its structure part: drivers from the worst rows' contributions", () => {
    const details = mvdDetailsFixture({ p_mean: 0.4, p_struct: 0.0001, p_value: 0.0002 });
    expect(findings("mvd", details).slice(0, 2)).toEqual([
      "means moved 1.8 σ (Mahalanobis), p = 0.4",
      "Fired: parts fit the training pattern worse than usual, p = 0.0001",
    ]);
    expect(topDrivers("mvd", details)).toEqual(["Torque (contribution 11.1)", "Angle (contribution 3.1)"]);
  });

  it("SVD card: the threshold widened for autocorrelation with the VIF", () => {
    const text = cardText(
      facts({ monitorType: "svd", score: 0.9, threshold: 0.62, details: svdDetailsFixture() }),
    );
    expect(text).toContain("Distance 0.9 σ vs threshold 0.62 σ (VIF 2.9)");
    expect(text).toContain("threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.9");
  });

  it("CAP card: the control rule with its points, or Ppk with its interval against the target", () => {
    const hit = { rule: 1 as const, partId: "AX-17", ts: "2026-11-22T10:38:00.000Z", value: 31.2 };
    const control = capDetailsFixture({
      isControlBreach: true,
      isCapabilityBreach: false,
      ppkUpperBound: 1.6,
      controlHits: [hit],
      controlHitCount: 1,
    });
    const text = cardText(facts({ monitorType: "cap", score: 1.6, threshold: 1.33, details: control }));
    expect(text).toContain("Ppk 0.8, upper 99 % bound 1.6 vs target 1.33, 1 new point fired a control rule");
    expect(text).toContain(
      "Fired: 1 new point fired a control rule: AX-17 at 2026-11-22 10:38:00 UTC, 31.2 (outside the control limits (rule 1))",
    );
    expect(findings("cap", capDetailsFixture())).toContain(
      "Fired: Ppk 0.8 (95 % interval 0.55–1.05), upper 99 % bound 1.1 below the target 1.33",
    );
  });

  it("cards of evaluations stored by the uncorrected methods read as before", () => {
    const text = cardText(facts({ score: 1.4, threshold: 0.01, details: storedUncorrectedDetails.mvd }));
    expect(text).toContain("p-value 0.002 vs α 0.01, 6 of 25 parts above the UCL (mean T²/p 1.4)");
    expect(text).toContain("6 of 25 parts above the UCL 11.2, p = 0.002");
    expect(findings("cap", storedUncorrectedDetails.cap)).toEqual([
      "Ppk 0.8 vs target 1.33",
      "2 points outside the control limits",
    ]);
    expect(findings("svd", storedUncorrectedDetails.svd)).toEqual([]);
  });
});

describe("a no-data alert's message", () => {
  it("names the line's missing records and the hours, not a monitor's score", () => {
    const facts: AlertFacts = {
      alertId: "a1",
      lineId: "l1",
      lineName: "Axle",
      plantName: "Detroit",
      monitorName: NO_DATA_ALERT_TEXTS.title,
      monitorType: NO_DATA_TYPE,
      rule: "no_data",
      score: 3.4,
      threshold: 2,
      openedAt: new Date("2026-11-22T10:00:00Z"),
      details: null,
    };
    const card = JSON.stringify(alertCard(facts, "https://lw.example"));
    expect(card).toContain("Linewatch alert: No data");
    expect(card).toContain("No records for 3 h (No Data Alert after 2 h)");
    expect(etqDocument(facts, "https://lw.example")).toMatchObject({
      title: "Linewatch alert: No data on Axle",
    });
  });
});
