import { ZCapDetails, ZMvdDetails, ZSvdDetails } from "@linewatch/contracts";
// Pure monitor evaluation (worker/evaluate/evaluate.ts) on generated data: in control → OK,
// shifted → BREACH, too few → NO_DATA, nothing new → NO_DATA, exceptions → ERROR.
import { describe, expect, it } from "vitest";
import {
  type EvaluationSettings,
  evaluateMonitor,
  evaluationSetSize,
  splitWindow,
  type Window,
  type WindowRecord,
} from "../../src/modules/evaluation/evaluate.js";

function rng(seed: number) {
  let s = seed >>> 0;
  const u = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u() || 1e-12)) * Math.cos(2 * Math.PI * u());
}

const T0 = Date.UTC(2026, 10, 22);
const signal = (i: number) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  name: `S${i}`,
  stationId: "st",
  singleSide: null,
});

/** `count` records; the newest `shiftLast` get `shift` added to every signal. */
function window(opts: {
  p: number;
  count: number;
  shift?: number;
  shiftLast?: number;
  seed?: number;
  correlated?: boolean;
}): Window {
  const z = rng(opts.seed ?? 1);
  const records: WindowRecord[] = [];
  for (let i = 0; i < opts.count; i++) {
    const shifted = i >= opts.count - (opts.shiftLast ?? 0);
    const common = z();
    const values = Array.from({ length: opts.p }, () => {
      const v = 10 + (opts.correlated ? 0.8 * common + 0.6 * z() : z());
      return shifted ? v + (opts.shift ?? 0) : v;
    });
    records.push({ ts: new Date(T0 + i * 1000), partId: `P-${i}`, modelNumber: "M-100", values });
  }
  return { signals: Array.from({ length: opts.p }, (_, i) => signal(i)), references: [], records };
}

const settings = (type: EvaluationSettings["type"], extra: Partial<EvaluationSettings> = {}) => ({
  type,
  alertThreshold: "medium" as const,
  sampleSize: 400,
  evaluationRatio: 0.25,
  ...extra,
});

describe("window split", () => {
  it("evaluation = newest round(sample_size × ratio), at least 25; training = the rest", () => {
    expect(evaluationSetSize(400, 0.25)).toBe(100);
    expect(evaluationSetSize(50, 0.1)).toBe(25);
    const { training, evaluation } = splitWindow([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 40, 0.25);
    expect(evaluation).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(training).toEqual([]);
    const s = splitWindow(
      Array.from({ length: 400 }, (_, i) => i),
      400,
      0.25,
    );
    expect(s.training.length).toBe(300);
    expect(s.evaluation[0]).toBe(300);
  });
});

describe("svd", () => {
  it("in control → OK with means, sds, n, m and W1 in details", () => {
    const r = evaluateMonitor(settings("svd"), window({ p: 1, count: 400 }));
    expect(r.state).toBe("OK");
    expect(r.trainingSize).toBe(300);
    expect(r.evaluationSize).toBe(100);
    expect(r.score).toBeLessThan(r.threshold as number);
    expect(r.details).toMatchObject({ kind: "svd", m: 300, n: 100 });
    // What the worker stores is what the drawer and the Teams card parse.
    const d = ZSvdDetails.parse(r.details);
    for (const v of [d.w1, d.trainingMean, d.trainingSd, d.evaluationMean, d.evaluationSd])
      expect(Number.isFinite(v)).toBe(true);
    expect(r.lastRecordTs?.getTime()).toBe(T0 + 399_000);
  });
  it("a 1 σ shift of the evaluation set → BREACH", () => {
    const r = evaluateMonitor(settings("svd"), window({ p: 1, count: 400, shift: 1, shiftLast: 100 }));
    expect(r.state).toBe("BREACH");
    expect(r.score).toBeGreaterThan(0.7);
  });
  it("too few records → NO_DATA with a reason", () => {
    const r = evaluateMonitor(settings("svd"), window({ p: 1, count: 20 }));
    expect(r.state).toBe("NO_DATA");
    expect(r.reason).toMatch(/needs 100/);
    const r2 = evaluateMonitor(settings("svd"), window({ p: 1, count: 105 }));
    expect(r2.state).toBe("NO_DATA");
    expect(r2.reason).toMatch(/training/);
  });
  it("nothing new since the previous evaluation → NO_DATA", () => {
    const w = window({ p: 1, count: 400 });
    const r = evaluateMonitor(settings("svd", { previousLastRecordTs: new Date(T0 + 399_000) }), w);
    expect(r.state).toBe("NO_DATA");
    expect(r.reason).toMatch(/nothing new/);
    expect(r.lastRecordTs?.getTime()).toBe(T0 + 399_000);
    const r2 = evaluateMonitor(settings("svd", { previousLastRecordTs: new Date(T0 + 398_000) }), w);
    expect(r2.state).toBe("OK");
  });
  it("no records, sample_size 0 → NO_DATA; two signals → ERROR", () => {
    expect(evaluateMonitor(settings("svd"), window({ p: 1, count: 0 })).reason).toBe("no matching records");
    expect(evaluateMonitor(settings("svd", { sampleSize: 0 }), window({ p: 1, count: 10 })).state).toBe(
      "NO_DATA",
    );
    const r = evaluateMonitor(settings("svd"), window({ p: 2, count: 400 }));
    expect(r.state).toBe("ERROR");
    expect(r.reason).toMatch(/exactly one signal/);
  });
});

describe("mvd", () => {
  it("in control → OK with UCL, k, p_value and top 3 signals", () => {
    const r = evaluateMonitor(settings("mvd"), window({ p: 4, count: 400, correlated: true, seed: 3 }));
    expect(r.state).toBe("OK");
    const d = ZMvdDetails.parse(r.details);
    expect(d.ucl).toBeGreaterThan(0);
    expect(typeof d.k).toBe("number");
    expect(d.p_value).toBeGreaterThanOrEqual(0.01);
    const worst = d.worstRows;
    expect(worst).toHaveLength(3);
    expect(worst[0]?.topSignals).toHaveLength(3);
    expect(worst[0]?.topSignals[0]?.name).toMatch(/^S\d$/);
  });
  it("a 1.5 σ shift → BREACH", () => {
    const r = evaluateMonitor(
      settings("mvd"),
      window({ p: 4, count: 400, correlated: true, seed: 3, shift: 1.5, shiftLast: 100 }),
    );
    expect(r.state).toBe("BREACH");
    expect((r.details as { p_value: number }).p_value).toBeLessThan(0.01);
  });
  it("too few training rows → NO_DATA", () => {
    const r = evaluateMonitor(
      settings("mvd", { sampleSize: 30, evaluationRatio: 0.9 }),
      window({ p: 4, count: 30 }),
    );
    expect(r.state).toBe("NO_DATA");
  });
});

describe("cap", () => {
  const withLimits = (w: Window, usl: string, lsl: string, ucl = "13.5", lcl = "6.5"): Window => ({
    ...w,
    limits: { "*": { lsl, lcl, ucl, usl } },
  });
  it("capable and in control → OK with Cp/Cpk/Pp/Ppk, violations and limits", () => {
    const r = evaluateMonitor(settings("cap"), withLimits(window({ p: 1, count: 400 }), "16", "4"));
    expect(r.state).toBe("OK");
    expect(r.details).toMatchObject({ kind: "cap", violations: 0, limits: { lsl: 4, usl: 16 } });
    expect(ZCapDetails.parse(r.details).ppk).toBeGreaterThan(1.33);
    expect(typeof (r.details as { cpk: number }).cpk).toBe("number");
  });
  it("Ppk below target → BREACH; a control violation → BREACH", () => {
    const r = evaluateMonitor(
      settings("cap"),
      withLimits(window({ p: 1, count: 400 }), "13", "7", "100", "-100"),
    );
    expect(r.state).toBe("BREACH");
    expect((r.details as { ppkBelowTarget: boolean }).ppkBelowTarget).toBe(true);
    const r2 = evaluateMonitor(
      settings("cap"),
      withLimits(window({ p: 1, count: 400, shift: 5, shiftLast: 3 }), "30", "-10"),
    );
    expect(r2.state).toBe("BREACH");
    expect((r2.details as { violations: number }).violations).toBeGreaterThan(0);
  });
  it("limits from formulas referencing other signals of the record", () => {
    const w = window({ p: 1, count: 400 });
    const ref = {
      id: "aaaaaaaa-0000-4000-8000-000000000001",
      name: "Upper",
      stationId: "st",
      singleSide: null,
    };
    const records = w.records.map((r) => ({ ...r, values: [...r.values, 15] }));
    const r = evaluateMonitor(settings("cap"), {
      ...w,
      records,
      references: [ref],
      limits: { "*": { lsl: "4", lcl: null, ucl: null, usl: `{${ref.id}} + 1` } },
    });
    expect(r.state).toBe("OK");
    expect((r.details as { limits: { usl: number } }).limits.usl).toBe(16);
  });
  it("no limits → ERROR; a bad formula → ERROR with its reason", () => {
    expect(evaluateMonitor(settings("cap"), window({ p: 1, count: 400 })).state).toBe("ERROR");
    const r = evaluateMonitor(settings("cap"), withLimits(window({ p: 1, count: 400 }), "1 +* 2", "4"));
    expect(r.state).toBe("ERROR");
    expect(r.reason).toMatch(/USL formula/);
  });
});
