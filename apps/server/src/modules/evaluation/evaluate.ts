/**
 * Pure monitor evaluation (docs/conventions.md "Worker": evaluate/ is pure): a monitor's settings and
 * its window of records → the evaluation to store, per docs/monitoring.md "The window", "SVD", "MVD"
 * and "CAP", computed by packages/stats' calibrated methods (the thresholds take the data's
 * dependence and shape from the training set, "Sensitivity"). No I/O, no clock: the caller passes
 * the previous evaluation's newest record time for the "nothing new" check and for CAP's control
 * rules, which judge each point once.
 */
import {
  MAX_STORED_CONTROL_HITS,
  MAX_STORED_MODEL_NUMBERS,
  NO_MONITORED_SIGNALS,
  ratioOf,
  runRulesOf,
  type TCapCalibratedDetails,
  type TCycle,
  type TEvaluationDetails,
  type TEvaluationState,
  type TLevelSupport,
  type TMonitorType,
  type TStoredMonitorFilter,
} from "@linewatch/contracts";
import {
  type AlertThreshold,
  type CapLimits,
  type Dependence,
  evaluateCapCalibrated,
  evaluateLimitFormula,
  evaluateMvdCalibrated,
  evaluateSvdCalibrated,
  type FormulaNode,
  levelSupport,
  type MeasuredLevelSupport,
  MIN_EVALUATION_RECORDS,
  matrixFromRows,
  measureLevelSupport,
  parseLimitFormula,
} from "@linewatch/stats";

export type WindowSignal = {
  id: string;
  name: string;
  stationId: string;
  singleSide: "LOWER" | "UPPER" | null;
};

/** One row of the window: values aligned with Window.signals then Window.references (NaN = missing). */
export type WindowRecord = { ts: Date; partId: string; modelNumber: string | null; values: number[] };

export type LimitFormulas = {
  lsl: string | null;
  lcl: string | null;
  ucl: string | null;
  usl: string | null;
};

export type Window = {
  /** The monitored signals (one for svd and cap). */
  signals: WindowSignal[];
  /** Signals referenced by cap limit formulas, read from the same records (after `signals`). */
  references: WindowSignal[];
  /** Oldest first; at most sample_size records. */
  records: WindowRecord[];
  /** cap: limit formulas per model number ('*' = default row). */
  limits?: Record<string, LimitFormulas>;
};

export type EvaluationSettings = {
  type: TMonitorType;
  alertThreshold: AlertThreshold;
  sampleSize: number;
  /** Fraction of sample_size in the evaluation set. */
  evaluationRatio: number;
  /**
   * last_record_ts of the previous evaluation: no newer record → NO_DATA; CAP's control rules judge
   * only the records newer than it (all of them on a first evaluation).
   */
  previousLastRecordTs?: Date | null;
  /**
   * CAP's run rules (Western Electric 2–4) when a monitor turns them on (its filter's run_rules,
   * monitorEvaluationSettings); rule 1 always applies.
   */
  runRules?: { rule2?: boolean; rule3?: boolean; rule4?: boolean };
};

export type EvaluationResult = {
  state: TEvaluationState;
  reason: string | null;
  score: number | null;
  threshold: number | null;
  trainingSize: number | null;
  evaluationSize: number | null;
  lastRecordTs: Date | null;
  details: TEvaluationDetails | null;
};

/**
 * The evaluation settings of a saved monitor (or of a monitor's settings in a backtest): the one
 * place the worker and the backtest derive them, so both evaluate alike.
 */
export function monitorEvaluationSettings(
  monitor: { type: TMonitorType; alertThreshold: AlertThreshold; filter: TStoredMonitorFilter },
  previousLastRecordTs: Date | null,
): EvaluationSettings {
  const { type, filter } = monitor;
  return {
    type,
    alertThreshold: monitor.alertThreshold,
    sampleSize: filter.sample_size,
    evaluationRatio: ratioOf(filter),
    previousLastRecordTs,
    // cap: the Western Electric rules 2–4 the monitor turned on (issue #14)
    ...(type === "cap" ? { runRules: runRulesOf(filter) } : {}),
  };
}

/** Size of the evaluation set: round(sample_size × ratio), at least 25. */
export function evaluationSetSize(sampleSize: number, ratio: number): number {
  return Math.max(MIN_EVALUATION_RECORDS, Math.round(sampleSize * ratio));
}

/** Splits the window (oldest first) into training (older) and evaluation (the newest). */
export function splitWindow<T>(records: readonly T[], sampleSize: number, ratio: number) {
  const n = Math.min(records.length, evaluationSetSize(sampleSize, ratio));
  const cut = records.length - n;
  return { training: records.slice(0, cut), evaluation: records.slice(cut) };
}

const finite = (x: number | null | undefined) => (x != null && Number.isFinite(x) ? x : null);

/** Evaluates a monitor on its window; never throws (an exception becomes ERROR with its message). */
export function evaluateMonitor(settings: EvaluationSettings, window: Window): EvaluationResult {
  const lastRecordTs = window.records.at(-1)?.ts ?? null;
  const base: EvaluationResult = {
    state: "NO_DATA",
    reason: null,
    score: null,
    threshold: null,
    trainingSize: null,
    evaluationSize: null,
    lastRecordTs,
    details: null,
  };
  try {
    // Every signal switched off or converted in Signal Management (issue #15): nothing to watch,
    // which is no data, not a failure; no alert follows (NO_DATA is neither breach nor streak break).
    if (window.signals.length === 0)
      return {
        ...base,
        reason: NO_MONITORED_SIGNALS.reason,
        details: { kind: "no_data", code: NO_MONITORED_SIGNALS.code },
      };
    if (settings.sampleSize <= 0) return { ...base, reason: "sample_size is 0" };
    if (!lastRecordTs) return { ...base, reason: "no matching records" };
    const prev = settings.previousLastRecordTs;
    if (prev && lastRecordTs.getTime() <= prev.getTime()) {
      return {
        ...base,
        reason: `nothing new since the previous evaluation (newest record ${lastRecordTs.toISOString()})`,
      };
    }
    const wanted = evaluationSetSize(settings.sampleSize, settings.evaluationRatio);
    const { training, evaluation } = splitWindow(
      window.records,
      settings.sampleSize,
      settings.evaluationRatio,
    );
    const sized = { ...base, trainingSize: training.length, evaluationSize: evaluation.length };
    if (evaluation.length < wanted) {
      return {
        ...sized,
        reason: `window has ${window.records.length} records; the evaluation set needs ${wanted}`,
      };
    }
    switch (settings.type) {
      case "svd":
        return evaluateSvdWindow(settings, window, training, evaluation, sized);
      case "mvd":
        return evaluateMvdWindow(settings, window, training, evaluation, sized);
      case "cap":
        return evaluateCapWindow(settings, window, training, evaluation, sized);
      default:
        return { ...sized, state: "ERROR", reason: `unknown monitor type ${String(settings.type)}` };
    }
  } catch (err) {
    return { ...base, state: "ERROR", reason: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The dependence an evaluation measured on its own window, and whether the monitor's window holds
 * its level for it (levelSupport; issue 29): the details say so, with the smallest window that
 * would, so a user sees why a monitor on strongly autocorrelated data alarms more than its level.
 */
function dependenceDetails(
  dependence: Dependence,
  effectiveSampleSize: number,
  settings: EvaluationSettings,
  signals: number,
) {
  return {
    arOrder: dependence.order,
    effectiveSampleSize,
    cycle: cycleOf(dependence),
    calibration: calibrationOf(dependence, settings, signals),
  };
}

/** The cycle a dependence found (a periodic component), as the details and the preview carry it. */
export function cycleOf(dependence: Dependence): TCycle | null {
  const c = dependence.periodic;
  return c === null ? null : { period: c.period, share: c.share };
}

/** Whether the monitor's window holds its level (levelSupport), as the details store it. */
function calibrationOf(
  dependence: Dependence,
  settings: EvaluationSettings,
  signals: number,
  options: { readonly heavyTails?: boolean; readonly cap?: boolean } = {},
): TLevelSupport {
  const ratio = Math.min(Math.max(settings.evaluationRatio, 0.01), 0.99);
  const support = levelSupport(dependence, settings.sampleSize, ratio, signals, options);
  return {
    holds: support.holds,
    minimumSampleSize: support.minimumSampleSize,
    dependenceDegrees: Number.isFinite(support.dependenceDegrees) ? support.dependenceDegrees : null,
    limitedBy: support.limitedBy,
  };
}

/**
 * Whether a monitor with this sample size and ratio holds its level for the dependence its
 * signals show over the whole window given (the monitor form's preview period: more records than
 * one window, so a better measurement than an evaluation's own); null without usable records.
 */
export function windowLevelSupport(
  window: Window,
  sampleSize: number,
  ratio: number,
  options: { readonly controlTails?: boolean; readonly svdLevel?: AlertThreshold } = {},
): MeasuredLevelSupport | null {
  if (window.signals.length === 0 || !(sampleSize >= 1)) return null;
  const bounded = Math.min(Math.max(ratio, 0.01), 0.99);
  const signals = window.signals.map((_, i) => column(window.records, i));
  return measureLevelSupport(signals, Math.round(sampleSize), bounded, options);
}

const column = (rows: readonly WindowRecord[], i: number) => rows.map((r) => r.values[i] ?? Number.NaN);

function evaluateSvdWindow(
  settings: EvaluationSettings,
  window: Window,
  training: WindowRecord[],
  evaluation: WindowRecord[],
  sized: EvaluationResult,
): EvaluationResult {
  if (window.signals.length !== 1)
    return { ...sized, state: "ERROR", reason: `svd needs exactly one signal, got ${window.signals.length}` };
  const signal = window.signals[0] as WindowSignal;
  const r = evaluateSvdCalibrated(column(training, 0), column(evaluation, 0), settings.alertThreshold);
  if (r.state === "NO_DATA")
    return { ...sized, reason: r.reason, details: { kind: "no_data", code: r.code } };
  // Score W̃ (σ) against its threshold, widened for the training values' dependence and shape.
  return {
    ...sized,
    state: r.state,
    score: r.score,
    threshold: r.threshold,
    trainingSize: r.m,
    evaluationSize: r.n,
    details: {
      kind: "svd",
      method: "calibrated",
      signal: { id: signal.id, name: signal.name },
      w1: r.w1,
      scale: r.scale,
      nEff: r.nEff,
      m: r.m,
      n: r.n,
      trainingMean: r.trainingMean,
      trainingSd: r.trainingSd,
      evaluationMean: r.evaluationMean,
      evaluationSd: r.evaluationSd,
      leftOut: { training: r.leftOut.training.length, evaluation: r.leftOut.evaluation.length },
      alpha: r.alpha,
      nullQuantile: r.nullQuantile,
      shapeRatio: r.shapeRatio,
      dispersionRatio: r.dispersionRatio,
      vif: r.vif,
      dependenceFactor: r.dependenceFactor,
      kurtosis: r.kurtosis,
      vifWidening: r.vifWidening,
      isThresholdFloored: r.isThresholdFloored,
      ...dependenceDetails(r.dependence, r.effectiveSize, settings, 1),
    },
  };
}

function evaluateMvdWindow(
  settings: EvaluationSettings,
  window: Window,
  training: WindowRecord[],
  evaluation: WindowRecord[],
  sized: EvaluationResult,
): EvaluationResult {
  const p = window.signals.length;
  if (p < 2) return { ...sized, state: "ERROR", reason: `mvd needs two or more signals, got ${p}` };
  const rowsOf = (rows: WindowRecord[]) => rows.map((r) => r.values.slice(0, p).map((v) => v ?? Number.NaN));
  const r = evaluateMvdCalibrated(
    matrixFromRows(rowsOf(training)),
    matrixFromRows(rowsOf(evaluation)),
    settings.alertThreshold,
    { worstRowCount: 3, topSignalCount: 3 },
  );
  if (r.state === "NO_DATA")
    return { ...sized, reason: r.reason, details: { kind: "no_data", code: r.code } };
  const sig = (i: number) => {
    const s = window.signals[i];
    return { id: s?.id ?? null, name: s?.name ?? null };
  };
  const kept = (j: number) => sig(r.keptSignals[j] as number);
  const meanSignals = r.keptSignals
    .map((_, j) => ({
      ...kept(j),
      shift: r.meanShifts[j] as number,
      contribution: r.meanContributions[j] as number,
      vif: r.vifs[j] as number,
    }))
    .sort((a, b) => b.contribution - a.contribution);
  // Score −log₁₀ p against −log₁₀ α: a breach is a score above the threshold, as for SVD.
  return {
    ...sized,
    state: r.state,
    score: r.score,
    threshold: r.scoreThreshold,
    trainingSize: r.m,
    evaluationSize: r.n,
    details: {
      kind: "mvd",
      method: "calibrated",
      p_value: r.pValue,
      alpha: r.alpha,
      m: r.m,
      n: r.n,
      p: r.p,
      shrinkage: r.shrinkage,
      signals: r.keptSignals.map(sig),
      droppedSignals: r.droppedSignals.map(sig),
      worstRows: r.worstRows.map((w) => {
        const rec = evaluation[w.row];
        return {
          partId: rec?.partId ?? null,
          ts: rec?.ts.toISOString() ?? null,
          t2: w.t2,
          topSignals: w.topSignals.map((t) => ({ ...sig(t.signal), contribution: t.contribution })),
          contributions: Array.from(w.contributions, (contribution, j) => ({ ...kept(j), contribution })),
        };
      }),
      leftOut: { training: r.leftOutRows.training.length, evaluation: r.leftOutRows.evaluation.length },
      p_mean: r.pMean,
      t2Mean: r.t2Mean,
      meanDistance: r.meanDistance,
      meanSignals,
      p_struct: r.pStruct,
      vifT2: r.vifT2,
      ...dependenceDetails(r.dependence, r.effectiveSize, settings, r.p),
      effectiveRows: r.effectiveRows,
    },
  };
}

type ParsedLimits = Record<keyof LimitFormulas, FormulaNode | null>;
const LIMIT_KEYS = ["lsl", "lcl", "ucl", "usl"] as const;
type LimitKey = (typeof LIMIT_KEYS)[number];

function parseLimits(f: LimitFormulas): ParsedLimits {
  const out = { lsl: null, lcl: null, ucl: null, usl: null } as ParsedLimits;
  for (const k of LIMIT_KEYS) {
    const src = f[k];
    if (src == null || src.trim() === "") continue;
    const p = parseLimitFormula(src);
    if (!p.ok)
      throw new Error(`${k.toUpperCase()} formula "${src}": ${p.error.message} at ${p.error.position}`);
    out[k] = p.ast;
  }
  return out;
}

/** The evaluation set's period and model numbers, for the capability view of an alert. */
function recordsOf(evaluation: WindowRecord[]): Pick<TCapCalibratedDetails, "period" | "modelNumbers"> {
  const first = evaluation[0];
  const last = evaluation[evaluation.length - 1];
  if (!first || !last) return {};
  const models = [...new Set(evaluation.map((r) => r.modelNumber))];
  return {
    period: { from: first.ts.toISOString(), to: last.ts.toISOString() },
    modelNumbers: models.slice(0, MAX_STORED_MODEL_NUMBERS),
  };
}

function evaluateCapWindow(
  settings: EvaluationSettings,
  window: Window,
  training: WindowRecord[],
  evaluation: WindowRecord[],
  sized: EvaluationResult,
): EvaluationResult {
  if (window.signals.length !== 1)
    return { ...sized, state: "ERROR", reason: `cap needs exactly one signal, got ${window.signals.length}` };
  const signal = window.signals[0] as WindowSignal;
  const parsed = new Map<string, ParsedLimits>();
  for (const [model, f] of Object.entries(window.limits ?? {})) parsed.set(model, parseLimits(f));
  if (parsed.size === 0) return { ...sized, state: "ERROR", reason: `no SPC limits for ${signal.name}` };
  const columns = [...window.signals, ...window.references];
  const perRecord: Record<(typeof LIMIT_KEYS)[number], number[]> = { lsl: [], lcl: [], ucl: [], usl: [] };
  const limitErrors: string[] = [];
  // Per formula (model row and limit): whether it gave a value on some record, else its first error.
  const outcomes = new Map<string, { row: string; key: LimitKey; worked: boolean; error: string | null }>();
  for (const rec of evaluation) {
    const row = rec.modelNumber != null && parsed.has(rec.modelNumber) ? rec.modelNumber : "*";
    const limits = parsed.get(row);
    const values = new Map<string, number>();
    columns.forEach((s, i) => {
      const v = rec.values[i];
      if (v != null && Number.isFinite(v)) values.set(s.id.toLowerCase(), v);
    });
    for (const k of LIMIT_KEYS) {
      const ast = limits?.[k] ?? null;
      if (!ast) {
        perRecord[k].push(Number.NaN);
        continue;
      }
      const r = evaluateLimitFormula(ast, values);
      const id = `${k} ${row}`;
      const outcome = outcomes.get(id) ?? { row, key: k, worked: false, error: null };
      outcomes.set(id, outcome);
      if (r.ok) {
        perRecord[k].push(r.value);
        outcome.worked = true;
      } else {
        perRecord[k].push(Number.NaN);
        outcome.error ??= r.error.message;
        if (limitErrors.length < 3)
          limitErrors.push(`${k.toUpperCase()} for ${rec.partId}: ${r.error.message}`);
      }
    }
  }
  // A formula that fails on some records leaves those out of its limit (listed in limitErrors);
  // one that fails on every record would leave the limit out altogether, and CAP would judge
  // without it ("No LSL or USL", OK): the evaluation is an error naming it. The side a
  // single-sided signal ignores does not count.
  const isUsed = (k: LimitKey) =>
    signal.singleSide === "LOWER"
      ? k === "lsl" || k === "lcl"
      : signal.singleSide === "UPPER"
        ? k === "usl" || k === "ucl"
        : true;
  for (const o of outcomes.values()) {
    if (o.worked || !isUsed(o.key)) continue;
    const model = o.row === "*" ? "" : ` of model ${o.row}`;
    const src = window.limits?.[o.row]?.[o.key];
    return {
      ...sized,
      state: "ERROR",
      reason: `${o.key.toUpperCase()} formula "${src}"${model} failed on every record: ${o.error}`,
    };
  }
  const capLimits: CapLimits = { ...perRecord, singleSide: signal.singleSide };
  // Each point is judged once by the control rules: the first evaluation record newer than the
  // previous evaluation's newest record, or every record of the evaluation set (the newest
  // round(sample_size × ratio), never the training records) on a first evaluation; the control
  // part's p-value allows for however many that is (docs/monitoring.md "CAP").
  const prev = settings.previousLastRecordTs?.getTime();
  const firstNew = prev == null ? 0 : evaluation.findIndex((rec) => rec.ts.getTime() > prev);
  const firstNewIndex = firstNew < 0 ? evaluation.length : firstNew;
  // Dependence from the older, training records: a shift inside the evaluation set must read as a
  // shift, not as neighbouring parts being alike (which widened the bound until it went unseen).
  const r = evaluateCapCalibrated(column(evaluation, 0), capLimits, settings.alertThreshold, {
    firstNewIndex,
    runRules: settings.runRules,
    dependenceValues: column(training, 0),
  });
  if (r.state === "NO_DATA")
    return { ...sized, reason: r.reason, details: { kind: "no_data", code: r.code, limitErrors } };
  const cap = r.capability;
  const distinct = (xs: number[]) => [...new Set(xs.filter(Number.isFinite))];
  const interval = (i: readonly [number, number] | null | undefined): [number, number] | null =>
    i && Number.isFinite(i[0]) && Number.isFinite(i[1]) ? [i[0], i[1]] : null;
  const runRules = settings.runRules ?? {};
  const controlRules: TCapCalibratedDetails["controlRules"] = [1];
  if (runRules.rule2) controlRules.push(2);
  if (runRules.rule3) controlRules.push(3);
  if (runRules.rule4) controlRules.push(4);
  // One α-level test: p = min(1, tests · min(p_control, p_capability)) < α. Score: Ppk's upper
  // bound at α / tests against the Cpk target (the capability part breaches when it is below); the
  // control part breaches when its signals are more extreme than the judged points give by chance.
  return {
    ...sized,
    state: r.state,
    score: finite(r.ppkUpperBound),
    threshold: r.cpkTarget,
    evaluationSize: r.n,
    details: {
      kind: "cap",
      method: "calibrated",
      signal: { id: signal.id, name: signal.name },
      n: r.n,
      cp: finite(cap?.cp),
      cpk: finite(cap?.cpk),
      pp: finite(cap?.pp),
      ppk: finite(cap?.ppk),
      mean: finite(cap?.mean),
      sigmaWithin: finite(cap?.sigmaWithin),
      sigmaOverall: finite(cap?.sigmaOverall),
      cpkTarget: r.cpkTarget,
      limits: {
        lsl: r.lsl,
        usl: r.usl,
        lcl: distinct(perRecord.lcl),
        ucl: distinct(perRecord.ucl),
        formulas: window.limits ?? {},
      },
      limitErrors,
      leftOut: r.leftOut.length,
      alpha: r.alpha,
      isControlBreach: r.isControlBreach,
      isCapabilityBreach: r.isCapabilityBreach,
      p_value: r.pValue,
      p_control: r.control?.pValue ?? null,
      p_capability: r.pCapability,
      testCount: r.testCount,
      capabilityAlpha: r.capabilityAlpha,
      capabilityShare: r.capabilityShare,
      controlTestedCount: r.control?.testedCount ?? 0,
      controlExtreme: r.control?.extreme
        ? { rule: r.control.extreme.rule, tail: r.control.extreme.tail }
        : null,
      isControlOneSided: r.control?.isOneSided ?? false,
      // Named when the process is not independent normal by its AR order or its likeliest shape.
      controlNull:
        r.control?.model &&
        (r.control.model.coefficients.length > 0 ||
          Number.isFinite(r.control.model.shape.nu) ||
          r.control.model.shape.gamma !== 1 ||
          r.control.model.grid !== undefined)
          ? {
              arOrder: r.control.model.coefficients.length,
              nu: Number.isFinite(r.control.model.shape.nu) ? r.control.model.shape.nu : null,
              gamma: r.control.model.shape.gamma,
              paths: r.control.simulatedPaths ?? 0,
              resolution: r.control.model.grid?.resolution ?? null,
            }
          : null,
      trainingCount: training.length,
      cycle: cycleOf(r.dependence),
      // Tails count once a control rule fired and the null model's shape was fitted (a CAP
      // monitor's control part judges single points by them; levelSupport's MIN_TAIL_TRAINING).
      calibration: calibrationOf(r.dependence, settings, 1, {
        cap: true,
        heavyTails:
          r.control?.model != null &&
          (Number.isFinite(r.control.model.shape.nu) || r.control.model.shape.gamma !== 1),
      }),
      ...recordsOf(evaluation),
      controlHits: r.controlHits.slice(0, MAX_STORED_CONTROL_HITS).map((h) => {
        const rec = evaluation[h.row];
        return {
          rule: h.rule,
          partId: rec?.partId ?? null,
          ts: rec?.ts.toISOString() ?? null,
          value: h.value,
        };
      }),
      controlHitCount: r.controlHits.length,
      controlRules,
      judgedCount: r.judgedCount,
      ppkUpperBound: finite(r.ppkUpperBound),
      ppkStandardError: finite(r.ppkStandardError),
      intervals: r.intervals && {
        cp: interval(r.intervals.cp),
        cpk: interval(r.intervals.cpk),
        pp: interval(r.intervals.pp),
        ppk: interval(r.intervals.ppk),
      },
      vif: r.vif,
      effectiveCount: r.effectiveCount,
      kurtosis: r.uncertainty.kurtosis,
      skewness: r.uncertainty.skewness ?? 0,
    },
  };
}
