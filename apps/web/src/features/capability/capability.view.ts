import type { TCapabilityPoint } from "@linewatch/contracts";

/** A number as the view shows it: 4 significant digits, '–' for none. */
export const fmt = (v: number | null | undefined) => (v == null ? "–" : Number(v.toPrecision(4)).toString());

export type LimitKey = "lsl" | "lcl" | "ucl" | "usl";
export const LIMITS = [
  { key: "usl", label: "USL", isSpec: true },
  { key: "ucl", label: "UCL", isSpec: false },
  { key: "lcl", label: "LCL", isSpec: false },
  { key: "lsl", label: "LSL", isSpec: true },
] as const;

/**
 * How a limit is drawn: one value for every point that has it (a reference line), or per point (a
 * step line, for limits that differ by model number or by formula); null when no point has it.
 */
export function limitLine(points: readonly TCapabilityPoint[], key: LimitKey) {
  const values = points.map((p) => p[key]);
  let first: number | null = null;
  let isConstant = true;
  for (const v of values) {
    if (v == null) continue;
    if (first === null) first = v;
    else if (v !== first) isConstant = false;
  }
  if (first === null) return null;
  return isConstant ? { constant: first, values } : { constant: null, values };
}

/** A y range holding every value and every limit, padded 6 %, so no line is off the chart. */
export function yRange(points: readonly TCapabilityPoint[]) {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    for (const v of [p.value, p.lsl, p.lcl, p.ucl, p.usl]) {
      if (v == null) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!Number.isFinite(lo)) return { min: 0, max: 1 };
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.06;
  return { min: lo - pad, max: hi + pad };
}

/** "Rule 1: 3, Rule 2: 0, …" of the counts over every record. */
export const ruleCountText = (counts: Record<"1" | "2" | "3" | "4", number>) =>
  (["1", "2", "3", "4"] as const).map((r) => `Rule ${r}: ${counts[r]}`).join(", ");

export const PRESET_MS = { day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;
export type TPreset = keyof typeof PRESET_MS;
