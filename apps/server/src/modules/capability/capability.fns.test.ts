import { CAPABILITY_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import type { Window } from "../evaluation/evaluate.js";
import { capabilityView, decimate } from "./capability.fns.js";

const SIGNAL = { id: "00000000-0000-4000-8000-000000000001", name: "Bore", stationId: "s", singleSide: null };
const windowOf = (
  values: number[],
  limits: Window["limits"] = { "*": { lsl: "0", lcl: "4", ucl: "6", usl: "10" } },
): Window => ({
  signals: [SIGNAL],
  references: [],
  records: values.map((v, i) => ({
    ts: new Date(i * 1000),
    partId: `P-${i}`,
    modelNumber: null,
    values: [v],
  })),
  limits,
});
const period = { from: new Date(0), to: new Date(1e9), isTruncated: false };

describe("decimate", () => {
  it("keeps every point up to the maximum", () => {
    expect(decimate([3, 1, 2], 3, new Set())).toEqual([0, 1, 2]);
  });
  it("keeps each stretch's lowest and highest point and every point asked for, in order", () => {
    // 2 stretches of 4: [5, 1, 9, 5] → rows 1 and 2; [5, 0, 5, 7] → rows 5 and 7; row 4 kept
    expect(decimate([5, 1, 9, 5, 5, 0, 5, 7], 4, new Set([4]))).toEqual([1, 2, 4, 5, 7]);
  });
});

describe("capabilityView", () => {
  it("computes the statistics on every record while the chart gets at most the maximum", () => {
    const values = Array.from({ length: 10_000 }, (_, i) => 5 + Math.sin(i) * 0.3);
    values[5000] = 7; // above the UCL: rule 1, always drawn
    const v = capabilityView(windowOf(values), period, 1000);
    expect(v.recordCount).toBe(10_000);
    expect(v.isDecimated).toBe(true);
    expect(v.points.length).toBeLessThanOrEqual(1001);
    expect(v.points.some((p) => p.partId === "P-5000" && p.rules.includes(1))).toBe(true);
    expect(v.models[0]).toMatchObject({ modelNumber: "*", n: 10_000, lsl: 0, usl: 10 });
    expect(v.histogram?.counts.reduce((s, c) => s + c, 0)).toBe(10_000);
  });
  it("says why a model has no indices", () => {
    expect(capabilityView(windowOf([5, 5, 5]), period).models[0]?.note).toBe(CAPABILITY_MESSAGES.constant);
    const noSpec = { "*": { lsl: null, lcl: "4", ucl: "6", usl: null } };
    expect(capabilityView(windowOf([5, 6, 4], noSpec), period).models[0]?.note).toBe(
      CAPABILITY_MESSAGES.noSpecLimits,
    );
    expect(capabilityView(windowOf([5]), period).models[0]?.note).toBe(CAPABILITY_MESSAGES.tooFew);
  });
  it("keeps only a single-sided signal's own limits", () => {
    const w = { ...windowOf([5, 6, 4]), signals: [{ ...SIGNAL, singleSide: "UPPER" as const }] };
    expect(capabilityView(w, period).points[0]).toMatchObject({ lsl: null, lcl: null, ucl: 6, usl: 10 });
  });
  it("is empty without records", () => {
    expect(capabilityView(windowOf([]), period)).toMatchObject({ recordCount: 0, points: [], models: [] });
  });
});
