import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../modules/notifications/notifications.channels.js";
import { alertLink, MAX_ATTEMPTS, retryDelayMs, topDrivers } from "./messages.js";

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
});
