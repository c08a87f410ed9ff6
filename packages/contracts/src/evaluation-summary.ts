// How an evaluation reads to a quality engineer, per monitor type (docs/monitoring.md): each
// type's score and threshold mean different things, so "score vs threshold" alone misleads (an
// MVD breach is decided by its p-value against α, not by a mean T²). The alert list, the alert
// drawer, the query preview and the Teams card word evaluations with these functions only.

import type {
  TCapCalibratedDetails,
  TCapDetails,
  TControlHit,
  TEvaluationDetails,
  TLevelSupportLimit,
  TMvdCalibratedDetails,
  TSvdCalibratedDetails,
} from "./evaluation-details.js";

export type TEvaluationFigures = {
  score: number | null;
  threshold: number | null;
  details?: Record<string, unknown> | null;
};

/** Three significant digits: scores span orders of magnitude. */
export const formatFigure = (x: number) =>
  Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : String(x);

/** A p-value as people read it: two significant digits, "< 1e-16" below the doubles' reach. */
export const formatPValue = (p: number) =>
  p < 1e-16
    ? "< 1e-16"
    : p < 1e-4
      ? Number(p.toPrecision(2)).toExponential()
      : Number(p.toPrecision(2)).toString();

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${formatFigure(Math.abs(x))}`;
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
/** (1 − α) as a percentage: "99 %". */
const confidence = (alpha: number) => `${Number(((1 - alpha) * 100).toPrecision(4))} %`;

/** A VIF worth naming: autocorrelation found in the training values. */
const isVifShown = (vif: number) => vif >= 1.05;

// ── Shared sentences (docs/monitoring.md "Sensitivity", "MVD" step 5) ──

/** "threshold widened for autocorrelation: neighbouring parts are alike, VIF 2.9". */
export const vifText = (vif: number, what = "threshold") =>
  `${what} widened for autocorrelation: neighbouring parts are alike, VIF ${formatFigure(vif)}`;

/**
 * Why a window cannot hold its level (issue 29): "with this signal's autocorrelation, 50 records
 * cannot hold 1 false alarm in 100 evaluations; use at least 79" (or "heavy or skewed tails" for a
 * CAP monitor's control rules, "heavy tails" for an SVD monitor's). An SVD threshold at its floor
 * says that the monitor alarms less often instead. The monitor form's preview and the evaluation's
 * details say it alike.
 */
export const levelSupportText = (o: {
  records: number;
  alpha: number;
  minimumSampleSize: number | null;
  signals?: number;
  /** "tails": training records too few for the signal's heavy tails (or, at low, an SVD monitor's tails). */
  limitedBy?: TLevelSupportLimit | null;
  /** "cycle": the cycle's period in records. */
  cyclePeriod?: number | null;
  /** The monitor's method: an SVD monitor's tails are heavy ones (no fourth moment), a CAP monitor's heavy or skewed. */
  method?: "svd" | "mvd" | "cap";
}) => {
  const signals = o.signals ?? 1;
  const whose = signals > 1 ? "these signals'" : "this signal's";
  const evaluations = Math.round(1 / o.alpha);
  if (o.limitedBy === "floor")
    return `with ${o.records} records the threshold sits at its floor of 0.1 standard deviations (a smaller move is not worth an alert): fewer than 1 false alarm in ${evaluations} evaluations`;
  if (o.limitedBy === "coarse")
    return `with ${o.records} records the control rules and the capability bound are judged on coarse levels: false alarms can be a quarter more or fewer than 1 in ${evaluations} evaluations${o.minimumSampleSize != null ? `; use at least ${o.minimumSampleSize}` : ""}`;
  // MVD's covariance: rows too few for the signals' count once their autocorrelation is counted.
  const subject =
    o.limitedBy === "tails"
      ? `${whose} ${o.method === "svd" ? "heavy" : "heavy or skewed"} tails`
      : o.limitedBy === "cycle"
        ? `${whose} cycle${o.cyclePeriod == null ? "" : ` of about ${formatFigure(o.cyclePeriod)} records`}`
        : o.limitedBy === "covariance"
          ? `${signals} signals and their autocorrelation`
          : `${whose} autocorrelation`;
  const advice =
    o.minimumSampleSize != null
      ? `use at least ${o.minimumSampleSize}`
      : o.limitedBy === "tails" && o.method === "svd"
        ? "no window size can; choose Medium or High"
        : "no sample size up to 100,000 records can";
  return `with ${subject}, ${o.records} records cannot hold 1 false alarm in ${evaluations} evaluations; ${advice}`;
};

/** "a cycle of about 100 records in the training values (33 % of their variance): whole periods average out of the means". */
export const cycleText = (c: { period: number; share: number }, where = "the training values") =>
  `a cycle of about ${formatFigure(c.period)} records in ${where} (${Math.round(c.share * 100)} % of their variance): whole periods average out of the means`;

/** "the 120 training records are worth about 21 independent ones (effective sample size)". */
export const effectiveSizeText = (m: number, effectiveSampleSize: number) =>
  `the ${m} training records are worth about ${formatFigure(effectiveSampleSize)} independent ones (effective sample size)`;

/** The dependence lines of calibrated SVD and MVD details: the effective size, and the warning when the window cannot hold its level. */
function dependenceLines(d: TSvdCalibratedDetails | TMvdCalibratedDetails, signals: number): string[] {
  const lines: string[] = [];
  if (d.effectiveSampleSize !== undefined && d.effectiveSampleSize < d.m * 0.95)
    lines.push(effectiveSizeText(d.m, d.effectiveSampleSize));
  if (d.calibration && !d.calibration.holds)
    lines.push(
      levelSupportText({
        records: d.m + d.n,
        alpha: d.alpha,
        minimumSampleSize: d.calibration.minimumSampleSize,
        signals,
        limitedBy: d.calibration.limitedBy,
        cyclePeriod: d.cycle?.period,
        method: d.kind,
      }),
    );
  return lines;
}

/** "means moved 1.8 σ (Mahalanobis), p = 0.0004". */
export const mvdMeanText = (distance: number, pMean: number) =>
  `means moved ${formatFigure(distance)} σ (Mahalanobis), p = ${formatPValue(pMean)}`;

/** "parts fit the training pattern worse than usual, p = 0.2". */
export const mvdStructureText = (pStruct: number) =>
  `parts fit the training pattern worse than usual, p = ${formatPValue(pStruct)}`;

/** How the training values' shape moved the SVD threshold (shapeRatio × dispersionRatio: 1 for normal values). */
export const shapeText = (shapeRatio: number) =>
  Math.abs(shapeRatio - 1) < 0.02
    ? "values close to normal in shape: no shape adjustment"
    : `threshold × ${formatFigure(shapeRatio)} for the shape of the values (skew, tails)`;

const RULE_TEXT: Record<TControlHit["rule"], string> = {
  1: "outside the control limits",
  2: "two of three beyond 2 σ on one side",
  3: "four of five beyond 1 σ on one side",
  4: "eight in a row on one side of the centre line",
};

/** What a Western Electric rule says about a point, e.g. "outside the control limits (rule 1)". */
export const controlRuleText = (rule: TControlHit["rule"]) => `${RULE_TEXT[rule]} (rule ${rule})`;

// ── One line: the alert list, the evaluation chart, the query preview, the Teams card's score ──

/** The MVD part that decides p = min(1, 2 · min(p_mean, p_struct)): the one with the smaller p. */
function mvdParts(d: Record<string, unknown> | null | undefined) {
  const distance = num(d?.meanDistance);
  const pMean = num(d?.p_mean);
  const pStruct = num(d?.p_struct);
  if (distance == null || pMean == null || pStruct == null) return null;
  const mean = mvdMeanText(distance, pMean);
  const structure = mvdStructureText(pStruct);
  return pMean <= pStruct
    ? { decides: "mean" as const, first: mean, second: structure }
    : { decides: "structure" as const, first: structure, second: mean };
}

/** One line: what the evaluation measured against what it must stay within, or null. */
export function evaluationSummary(type: "mvd" | "svd" | "cap", e: TEvaluationFigures): string | null {
  const d = e.details;
  const f = formatFigure;
  const isCalibrated = d?.method === "calibrated";
  if (type === "mvd") {
    if (e.score == null || e.threshold == null) return null;
    const p = num(d?.p_value);
    if (isCalibrated) {
      // Calibrated: score −log₁₀ p against −log₁₀ α.
      const alpha = num(d?.alpha) ?? 10 ** -e.threshold;
      const pValue = p ?? 10 ** -e.score;
      const parts = mvdParts(d);
      return `p-value ${formatPValue(pValue)} vs α ${f(alpha)}${parts ? `: ${parts.first}; ${parts.second}` : ""}`;
    }
    const k = num(d?.k);
    const n = num(d?.n);
    const rows = k != null && n != null ? `, ${k} of ${n} parts above the UCL` : "";
    return p == null
      ? `Mean T²/p ${f(e.score)}, α ${f(e.threshold)}`
      : `p-value ${f(p)} vs α ${f(e.threshold)}${rows} (mean T²/p ${f(e.score)})`;
  }
  if (type === "svd") {
    if (e.score == null || e.threshold == null) return null;
    const vif = num(d?.vif);
    const widened = isCalibrated && vif != null && isVifShown(vif) ? ` (VIF ${f(vif)})` : "";
    return `Distance ${f(e.score)} σ vs threshold ${f(e.threshold)} σ${widened}`;
  }
  if (isCalibrated) {
    // Calibrated: score = Ppk's upper bound, threshold = the Cpk target; since issue 29 the decision
    // is p = min(1, tests · min(p_control, p_capability)) against α, and a control hit is a breach
    // only when it is more extreme than the judged points give by chance.
    const hits = num(d?.controlHitCount) ?? 0;
    const pControl = num(d?.p_control);
    const judged = num(d?.judgedCount);
    const control =
      hits === 0
        ? ""
        : pControl == null || judged == null
          ? `${hits} new ${hits === 1 ? "point" : "points"} fired a control rule`
          : `${hits} of ${judged} new ${judged === 1 ? "point" : "points"} fired a control rule, ${chanceWords(d?.isControlBreach === true)} (p = ${formatPValue(pControl)})`;
    const ppk = num(d?.ppk);
    const alpha = num(d?.capabilityAlpha) ?? num(d?.alpha);
    const capability =
      e.score != null && e.threshold != null
        ? `Ppk ${ppk == null ? "–" : f(ppk)}, upper${alpha == null ? "" : ` ${confidence(alpha)}`} bound ${f(e.score)} vs target ${f(e.threshold)}`
        : "";
    const p = num(d?.p_value);
    const level = num(d?.alpha);
    const parts = [capability, control].filter(Boolean).join(", ");
    if (p != null && level != null)
      return `p-value ${formatPValue(p)} vs α ${f(level)}${parts ? `: ${parts}` : ""}`;
    return parts || null;
  }
  if (e.score == null || e.threshold == null) return null;
  const violations = num(d?.violations);
  return `Ppk ${f(e.score)} vs target ${f(e.threshold)}${violations ? `, ${violations} points outside the control limits` : ""}`;
}

/**
 * The figures of an evaluation's details that its summary reads (MVD p-values, distance and α;
 * SVD's VIF; CAP's Ppk, α and control hits; the uncorrected methods' counts): what a list of alerts
 * carries instead of the whole details.
 */
export const SUMMARY_DETAIL_KEYS = [
  "method",
  "p_value",
  "p_mean",
  "p_struct",
  "meanDistance",
  "alpha",
  "vif",
  "ppk",
  "controlHitCount",
  "judgedCount",
  "p_control",
  "isControlBreach",
  "capabilityAlpha",
  "k",
  "n",
  "violations",
] as const;

// ── Several lines: the alert drawer and the Teams card ──

export type TDetailWordingOptions = {
  /** How a record's time reads (the drawer: the plant's time zone; the card: ISO). */
  formatTime?: (iso: string) => string;
  /** Control hits listed with their points at most (the count is always given). */
  maxPoints?: number;
};

/** "SN-1 at 10:15, 12.3 (outside the control limits, rule 1)". */
export function controlHitText(h: TControlHit, formatTime: (iso: string) => string = (s) => s) {
  const where = [h.partId ?? null, h.ts ? `at ${formatTime(h.ts)}` : null].filter(Boolean).join(" ");
  return `${where ? `${where}, ` : ""}${formatFigure(h.value)} (${controlRuleText(h.rule)})`;
}

function svdLines(d: TSvdCalibratedDetails): string[] {
  const lines = [
    `mean ${formatFigure(d.trainingMean)} → ${formatFigure(d.evaluationMean)}, sd ${formatFigure(d.trainingSd)} → ${formatFigure(d.evaluationSd)} (training → evaluation)`,
  ];
  lines.push(...adjustmentLines(d));
  if (d.isThresholdFloored) lines.push("threshold at its floor of 0.1 σ");
  return lines;
}

/** The mean part and the structure part, the one that fired marked, then the moved signals. */
function mvdLines(d: TMvdCalibratedDetails): string[] {
  const lines: string[] = [];
  const fired = (p: number | null) => p != null && Math.min(1, 2 * p) < d.alpha;
  if (d.p_mean != null) {
    lines.push(`${fired(d.p_mean) ? "Fired: " : ""}${mvdMeanText(d.meanDistance, d.p_mean)}`);
  }
  if (d.p_struct != null) lines.push(`${fired(d.p_struct) ? "Fired: " : ""}${mvdStructureText(d.p_struct)}`);
  const moved = movedSignalsText(d);
  if (moved) lines.push(moved);
  lines.push(...adjustmentLines(d));
  if (d.droppedSignals.length > 0)
    lines.push(`left out as constant: ${d.droppedSignals.map((s) => s.name ?? s.id ?? "?").join(", ")}`);
  return lines;
}

/** "moved signals: Torque +1.9 σ, Angle −0.4 σ": the largest contributions to T²_mean first, at most 3. */
export function movedSignalsText(d: TMvdCalibratedDetails, max = 3): string | null {
  const moved = d.meanSignals.filter((s) => s.contribution > 0).slice(0, max);
  if (moved.length === 0) return null;
  return `moved signals: ${moved.map((s) => `${s.name ?? s.id ?? "?"} ${signed(s.shift)} σ`).join(", ")}`;
}

function capLines(d: TCapDetails, o: TDetailWordingOptions): string[] {
  if (d.method === "uncorrected") {
    return [
      `Ppk ${d.ppk == null ? "–" : formatFigure(d.ppk)} vs target ${formatFigure(d.cpkTarget)}`,
      `${d.violations} points outside the control limits`,
    ];
  }
  const lines: string[] = [];
  const max = o.maxPoints ?? 5;
  if (d.p_value != null) lines.push(decisionText(d.p_value, d.alpha, d.testCount ?? 1, d.capabilityShare));
  if (d.controlHitCount > 0) {
    const shown = d.controlHits.slice(0, max).map((h) => controlHitText(h, o.formatTime));
    const more = d.controlHitCount - shown.length;
    const points = `${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
    if (d.p_control == null) {
      // Evaluations before issue 29: any hit breached.
      lines.push(
        `Fired: ${d.controlHitCount} new ${d.controlHitCount === 1 ? "point" : "points"} fired a control rule: ${points}`,
      );
    } else {
      lines.push(`${d.isControlBreach ? "Fired: " : ""}${controlChanceText(d)}: ${points}`);
    }
  } else {
    lines.push(
      `control: none of the ${d.judgedCount} new points fired a control rule (${d.controlRules.map((r) => `rule ${r}`).join(", ")})`,
    );
  }
  lines.push(capabilityText(d));
  const indices = capabilityIndicesText(d);
  if (indices) lines.push(indices);
  lines.push(...adjustmentLines(d));
  return lines;
}

/**
 * "Ppk 1.12 (95 % interval 0.95–1.29), upper 99 % bound 1.25 below the target 1.33"; since issue 29
 * the bound at α / tests (99.5 % at medium with control limits) and p_capability: ", p = 0.002".
 */
export function capabilityText(d: TCapDetails): string {
  if (d.ppk == null) return "capability: no specification limits to judge against";
  if (d.method === "uncorrected") return `Ppk ${formatFigure(d.ppk)} vs target ${formatFigure(d.cpkTarget)}`;
  const interval = d.intervals?.ppk ? ` (95 % interval ${rangeText(d.intervals.ppk)})` : "";
  const bound =
    d.ppkUpperBound == null
      ? ""
      : `, upper ${confidence(d.capabilityAlpha ?? d.alpha)} bound ${formatFigure(d.ppkUpperBound)} ${d.ppkUpperBound < d.cpkTarget ? "below" : "not below"} the target ${formatFigure(d.cpkTarget)}`;
  const p = d.p_capability == null ? "" : `, p = ${formatPValue(d.p_capability)}`;
  return `${d.isCapabilityBreach ? "Fired: " : ""}Ppk ${formatFigure(d.ppk)}${interval}${bound}${p}`;
}

/**
 * "p-value 0.00002 vs α 0.01 (twice the smaller of the control and capability parts' p-values)";
 * with the capability part's share of α other than a half (the training values put it far above
 * its target): "(the smaller of the control part's p-value / 0.9 and the capability part's / 0.1)".
 */
export const decisionText = (
  p: number,
  alpha: number,
  testCount: number,
  capabilityShare?: number | null,
) => {
  const how =
    testCount !== 2
      ? ""
      : capabilityShare == null || capabilityShare === 0.5
        ? " (twice the smaller of the control and capability parts' p-values)"
        : ` (the smaller of the control part's p-value / ${formatFigure(1 - capabilityShare)} and the capability part's / ${formatFigure(capabilityShare)}: the training values put the capability far above its target)`;
  return `p-value ${formatPValue(p)} vs α ${formatFigure(alpha)}${how}`;
};

/** Whether the control signals were what chance gives among the judged points at the evaluation's level. */
const chanceWords = (isSignificant: boolean) =>
  isSignificant ? "not expected by chance at this level" : "expected by chance at this level";

/**
 * "3 points outside the control limits in 600 judged: expected by chance at this level (p = 0.69)"
 * or "1 point outside the control limits in 5 judged: not expected by chance at this level
 * (p = 2e-9)" (run rules: "fired a control rule"). Every hit is a control signal in the SPC sense;
 * p_control says whether the evaluation's control part was significant at its level.
 */
export function controlChanceText(
  d: Pick<TCapCalibratedDetails, "controlHitCount" | "controlHits" | "judgedCount" | "isControlBreach"> & {
    p_control?: number | null;
  },
): string {
  const n = d.controlHitCount;
  const isRule1Only = d.controlHits.length === n && d.controlHits.every((h) => h.rule === 1);
  const what = `${n} ${n === 1 ? "point" : "points"} ${isRule1Only ? "outside the control limits" : "fired a control rule"}`;
  const p = d.p_control == null ? "" : ` (p = ${formatPValue(d.p_control)})`;
  return `${what} in ${d.judgedCount} judged: ${chanceWords(d.isControlBreach)}${p}`;
}

const rangeText = ([lo, hi]: readonly [number, number]) => `${formatFigure(lo)}–${formatFigure(hi)}`;

/** "Cp 1.4 (1.1–1.7), Cpk 1.3 (1–1.6), …": the indices with their 95 % intervals. */
function capabilityIndicesText(d: TCapDetails): string | null {
  if (d.method !== "calibrated") return null;
  const parts = (["cp", "cpk", "pp", "ppk"] as const).flatMap((k) => {
    const v = d[k];
    if (v == null) return [];
    const i = d.intervals?.[k];
    return [
      `${k === "cp" ? "Cp" : k === "cpk" ? "Cpk" : k === "pp" ? "Pp" : "Ppk"} ${formatFigure(v)}${i ? ` (${rangeText(i)})` : ""}`,
    ];
  });
  return parts.length ? `${parts.join(", ")} (95 % intervals)` : null;
}

/**
 * What the calibrated threshold allowed for: the dependence (VIF) and, for SVD, the shape of the
 * training values. Shown in the drawer, the card and the query preview.
 */
export function adjustmentLines(d: TEvaluationDetails): string[] {
  if (d.kind === "no_data" || d.method !== "calibrated") return [];
  if (d.kind === "svd") {
    return [
      ...(d.cycle ? [cycleText(d.cycle)] : []),
      ...(isVifShown(d.vif)
        ? [
            d.dependenceFactor === undefined
              ? vifText(d.vif)
              : `${vifText(d.vif)}: threshold × ${formatFigure(d.dependenceFactor)}`,
          ]
        : d.cycle
          ? []
          : [`no autocorrelation found in the training values (VIF ${formatFigure(d.vif)})`]),
      ...dependenceLines(d, 1),
      shapeText(d.shapeRatio * (d.dispersionRatio ?? 1)),
    ];
  }
  if (d.kind === "mvd") {
    const alike = d.meanSignals.filter((s) => isVifShown(s.vif));
    return [
      ...(d.cycle ? [cycleText(d.cycle)] : []),
      ...(alike.length === 0
        ? d.cycle
          ? []
          : [`no autocorrelation found in the training values (VIF 1 for every signal)`]
        : [
            `${vifText(Math.max(...alike.map((s) => s.vif)))}: ${alike.map((s) => `${s.name ?? s.id ?? "?"} ${formatFigure(s.vif)}`).join(", ")}`,
          ]),
      ...dependenceLines(d, d.p),
    ];
  }
  return [
    ...(d.controlNull ? [controlNullText(d.controlNull)] : []),
    ...(d.cycle ? [cycleText(d.cycle)] : []),
    ...(d.calibration && !d.calibration.holds
      ? [
          levelSupportText({
            records: (d.trainingCount ?? 0) + d.n,
            alpha: d.alpha,
            minimumSampleSize: d.calibration.minimumSampleSize,
            limitedBy: d.calibration.limitedBy,
            cyclePeriod: d.cycle?.period,
            method: d.kind,
          }),
        ]
      : []),
    ...(isVifShown(d.vif) ? [vifText(d.vif, "capability uncertainty")] : []),
    ...(isCapShapeShown(d.kurtosis, d.skewness) ? [capShapeText(d.kurtosis, d.skewness ?? 0)] : []),
  ];
}

/**
 * "control rules judged against this signal's own process: autocorrelation (AR order 2), heavy
 * tails (t, 4 degrees of freedom), a longer upper tail".
 */
export function controlNullText(n: {
  arOrder: number;
  nu: number | null;
  gamma: number;
  resolution?: number | null;
}): string {
  const parts: string[] = [];
  if (n.resolution != null)
    parts.push(`values read to ${formatFigure(n.resolution)} (the gauge's resolution)`);
  if (n.arOrder > 0) parts.push(`autocorrelation (AR order ${n.arOrder})`);
  if (n.nu != null) parts.push(`heavy tails (t, ${formatFigure(n.nu)} degrees of freedom)`);
  if (n.gamma > 1) parts.push("a longer upper tail");
  else if (n.gamma < 1) parts.push("a longer lower tail");
  return `control rules judged against this signal's own process from its training values: ${parts.join(", ")}`;
}

/** A cap bound's shape is worth a sentence when the values are visibly skewed or heavy-tailed. */
function isCapShapeShown(kurtosis: number, skewness: number | undefined): boolean {
  return kurtosis >= 4 || Math.abs(skewness ?? 0) >= 0.5;
}

/** "capability bound allows for this signal's shape: skewness 1.6, kurtosis 7 (3 for normal data)". */
export function capShapeText(kurtosis: number, skewness: number): string {
  return `capability bound allows for this signal's shape: skewness ${formatFigure(skewness)}, kurtosis ${formatFigure(kurtosis)} (normal data: 0 and 3)`;
}

/** The details in sentences, the firing part first marked "Fired: "; [] for NO_DATA details. */
export function evaluationDetailLines(d: TEvaluationDetails, o: TDetailWordingOptions = {}): string[] {
  if (d.kind === "svd") return d.method === "calibrated" ? svdLines(d) : [];
  if (d.kind === "mvd") {
    if (d.method === "calibrated") return mvdLines(d);
    return [
      `${d.k} of ${d.n} parts above the UCL ${formatFigure(d.ucl)}${d.p_value == null ? "" : `, p = ${formatPValue(d.p_value)}`}`,
    ];
  }
  if (d.kind === "cap") return capLines(d, o);
  return [];
}

// ── The evaluation chart ──

/** The smallest p-value a log-scale chart draws (a p-value of 0 has no place on it). */
export const CHART_P_VALUE_FLOOR = 1e-16;

/**
 * What an evaluation chart plots per monitor type: a score and a threshold of the same kind, so a
 * breach is a score on the wrong side of the threshold line. MVD plots the p-value against α
 * (log scale; a breach is a p-value below α), whichever way the evaluation stored them (the
 * uncorrected method stored α as its threshold, the calibrated one −log₁₀ α).
 */
/** The chart's two lines per monitor type, as its legend names them. */
export const CHART_SERIES_TEXTS = {
  mvd: { score: "p-value", threshold: "α" },
  svd: { score: "Distance (σ)", threshold: "Threshold (σ)" },
  cap: { score: "Ppk (upper bound)", threshold: "Cpk target" },
} as const;

export function evaluationChartSeries(type: "mvd" | "svd" | "cap") {
  if (type === "mvd")
    return {
      scoreLabel: CHART_SERIES_TEXTS.mvd.score,
      thresholdLabel: CHART_SERIES_TEXTS.mvd.threshold,
      scale: "log" as const,
      breachBelow: true,
      score: (e: TEvaluationFigures) => {
        const p = num(e.details?.p_value);
        return p == null ? null : Math.max(p, CHART_P_VALUE_FLOOR);
      },
      threshold: (e: TEvaluationFigures) => {
        const alpha = num(e.details?.alpha);
        if (alpha != null) return alpha;
        if (e.threshold == null) return null;
        return e.details?.method === "calibrated" ? 10 ** -e.threshold : e.threshold;
      },
    };
  if (type === "svd")
    return {
      scoreLabel: CHART_SERIES_TEXTS.svd.score,
      thresholdLabel: CHART_SERIES_TEXTS.svd.threshold,
      scale: "linear" as const,
      breachBelow: false,
      score: (e: TEvaluationFigures) => e.score,
      threshold: (e: TEvaluationFigures) => e.threshold,
    };
  return {
    scoreLabel: CHART_SERIES_TEXTS.cap.score,
    thresholdLabel: CHART_SERIES_TEXTS.cap.threshold,
    scale: "linear" as const,
    breachBelow: true,
    score: (e: TEvaluationFigures) => e.score,
    threshold: (e: TEvaluationFigures) => e.threshold,
  };
}
