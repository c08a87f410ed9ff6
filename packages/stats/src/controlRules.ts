import { binomialUpperTail } from "./binomialUpperTail.js";
import { type LimitAt, type LimitValues, limitReader } from "./capLimits.js";
import {
  type ControlNull,
  isIndependentNormal,
  modelPointLaw,
  nullTails,
  type RunTie,
  rule1LimitAt,
  runLengthAt,
  runSpreadChance,
  simulatedSignalChance,
} from "./controlNullSimulation.js";
import {
  type ControlSignalSet,
  controlSignalChance,
  MAX_CHAIN_RUN_LENGTH,
  WESTERN_ELECTRIC_RUN_LENGTH,
} from "./controlSignalChain.js";
import { chiSquareUpperTail, normalUpperQuantile, normalUpperTail } from "./distributions.js";
import { StatsError } from "./statsError.js";

/** Western Electric rules: 1 a point outside the control limits; 2 two of three beyond 2σ on one side; 3 four of five beyond 1σ on one side; 4 eight in a row on one side of the centre line. */
export type ControlRule = 1 | 2 | 3 | 4;

/** The run rules turned on besides rule 1 (which always applies). They need both LCL and UCL. */
export interface RunRules {
  readonly rule2?: boolean;
  readonly rule3?: boolean;
  readonly rule4?: boolean;
}

export interface ControlRuleHit {
  readonly rule: ControlRule;
  /** Index in `values` of the new point that fired the rule (the run ends there). */
  readonly row: number;
  readonly value: number;
}

/** Every rule 1–4 (the capability view marks them all). */
export const ALL_RUN_RULES: RunRules = { rule2: true, rule3: true, rule4: true };

/**
 * Western Electric rules over a whole series in record order (the capability view's I chart):
 * each point judged, rule 1 against its own LCL/UCL, rules 2–4 (those turned on) with the centre
 * line and σ of each point's own limits (judgeControlRules). Non-finite values are left out and
 * their neighbours join. A limit is one number, one value per record (NaN = none) or null.
 * Throws DIMENSION_MISMATCH when a per-record limit's length is not the values'.
 */
export function controlRuleHits(
  values: ArrayLike<number>,
  limits: { readonly lcl: LimitValues; readonly ucl: LimitValues },
  runRules: RunRules = ALL_RUN_RULES,
): ControlRuleHit[] {
  const total = values.length;
  const lclAt = limitReader(limits.lcl, total, "LCL");
  const uclAt = limitReader(limits.ucl, total, "UCL");
  const kept: number[] = [];
  const keptRows: number[] = [];
  for (let i = 0; i < total; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) {
      kept.push(v);
      keptRows.push(i);
    }
  }
  return judgeControlRules(kept, keptRows, lclAt, uclAt, 0, runRules);
}

/**
 * Rule 1 on each new point; rules 2–4 (when on) over the values in record order with the centre
 * line (LCL + UCL)/2 and σ = (UCL − LCL)/6 of each point's own limits, a rule firing at a new point
 * when the run it completes ends there and that point is part of the pattern. Points without both
 * control limits are skipped by rules 2–4 (and break their runs).
 */
export function judgeControlRules(
  kept: readonly number[],
  keptRows: readonly number[],
  lclAt: LimitAt,
  uclAt: LimitAt,
  firstNewIndex: number,
  runRules: RunRules,
): ControlRuleHit[] {
  const hits: ControlRuleHit[] = [];
  // Zone of each point: signed number of σ from the centre line, or null without both limits.
  const sigmas: (number | null)[] = kept.map((v, k) => {
    const low = lclAt(keptRows[k] as number);
    const high = uclAt(keptRows[k] as number);
    if (low === null || high === null || !(high > low)) return null;
    return (v - (low + high) / 2) / ((high - low) / 6);
  });
  const beyond = (k: number, sign: number, zone: number): boolean => {
    const s = sigmas[k];
    return s !== null && s !== undefined && sign * s > zone;
  };
  for (let k = 0; k < kept.length; k++) {
    const row = keptRows[k] as number;
    if (row < firstNewIndex) continue;
    const v = kept[k] as number;
    const low = lclAt(row);
    const high = uclAt(row);
    if ((low !== null && v < low) || (high !== null && v > high)) hits.push({ rule: 1, row, value: v });
    const s = sigmas[k];
    if (s === null || s === undefined || s === 0) continue;
    const sign = Math.sign(s);
    const countBeyond = (window: number, zone: number): number | null => {
      if (k - window + 1 < 0) return null;
      let count = 0;
      for (let j = k - window + 1; j <= k; j++) {
        if (sigmas[j] === null) return null;
        if (beyond(j, sign, zone)) count++;
      }
      return count;
    };
    if (runRules.rule2 === true && beyond(k, sign, 2) && (countBeyond(3, 2) ?? 0) >= 2) {
      hits.push({ rule: 2, row, value: v });
    }
    if (runRules.rule3 === true && beyond(k, sign, 1) && (countBeyond(5, 1) ?? 0) >= 4) {
      hits.push({ rule: 3, row, value: v });
    }
    if (runRules.rule4 === true && (countBeyond(8, 0) ?? 0) >= 8) hits.push({ rule: 4, row, value: v });
  }
  return hits;
}

// ── How extreme the control signals were (docs/monitoring.md "CAP": held per evaluation) ──
//
// A signal's tail is the chance that one point of an in-control normal process, with an in-control
// history behind it, gives a signal of that kind at least as extreme: rule 1 at |z| σ from the
// centre line 2Φ(−|z|) (0.27 % at the limits), rule 2 and rule 3 the chance their pattern
// completes at a point, rule 4 a run of L on one side 2 · 2^−L (0.78 % at 8). The smallest tail
// among the judged points' signals is the evaluation's statistic T; p_control = P(T ≤ T_seen)
// among the k judged points, computed exactly by controlSignalChain with the signal set that
// T ≤ T_seen means (rule 1 beyond max(3, z) with 2Φ(−z) = T_seen, rule 2 or 3 when their tail is
// ≤ T_seen, rule 4 on runs of at least L with 2 · 2^−L ≤ T_seen). With rule 1 alone it is Šidák
// on the most extreme point: 1 − (1 − 2Φ(−|z_max|))^k.

/** Rule 1's tail at a lone one-sided control limit, read as a 3 σ limit: Φ(−3) = 0.135 %. */
export const ONE_SIDED_LIMIT_TAIL = normalUpperTail(3);

/** Rule 2's tail: 2 p (1 − (1 − p)²), p = Φ(−2): the point beyond 2 σ and one of the two before it on its side. */
export const RULE2_POINT_TAIL = (() => {
  const p = normalUpperTail(2);
  return 2 * p * (1 - (1 - p) ** 2);
})();

/** Rule 3's tail: 2 p (4 p³ (1 − p) + p⁴), p = Φ(−1): the point beyond 1 σ and 3 of the 4 before it. */
export const RULE3_POINT_TAIL = (() => {
  const p = normalUpperTail(1);
  return 2 * p * (4 * p ** 3 * (1 - p) + p ** 4);
})();

/** Rule 4's tail of a run of `length` points on one side: 2 · 2^−length. */
export const runTail = (length: number) => 2 ** (1 - length);

export interface ControlTest {
  /** k: the judged points that have at least one control limit (those that can signal). */
  readonly testedCount: number;
  /**
   * Every tested point had one control limit only: no σ to grade a point beyond it by, and no run
   * rules. p_control is then the count of points beyond: P(Binomial(k, Φ(−3)) ≥ count).
   */
  readonly isOneSided: boolean;
  /** The most extreme signal among the judged points (smallest tail), or null without one. */
  readonly extreme: { readonly rule: ControlRule; readonly row: number; readonly tail: number } | null;
  /** p_control: the chance of a signal at least as extreme among k in-control points; 1 without a signal. */
  readonly pValue: number;
  /**
   * How p_control was reached: "chain" for independent points (controlSignalChain, exact), or
   * "simulation" for a dependent process (controlNullSimulation; `simulatedPaths` paths). Absent
   * without a signal or with one-sided limits (binomial).
   */
  readonly method?: "chain" | "simulation";
  readonly simulatedPaths?: number;
  /** The process simulated ("simulation" only). */
  readonly model?: ControlNull;
}

/** The in-control process for controlTest when the training values are not independent normal ones. */
export interface ControlNullModel {
  readonly model: ControlNull;
  /** The p-value the evaluation's decision turns on (α over the parts tested): where the simulation may stop. */
  readonly threshold: number;
}

/**
 * p_control of the judged points (judgeControlRules' arguments and hits): see above. Points with
 * one control limit count as two-sided ones in the chain, which overstates their chance (they
 * signal at Φ(−3) and break runs), so the p-value stays valid; the judged points' history is
 * taken as in control and as long as the rules look back, which overstates the chance of the
 * first points of a first evaluation (they have none) the same way.
 */
export function controlTest(
  kept: readonly number[],
  keptRows: readonly number[],
  lclAt: LimitAt,
  uclAt: LimitAt,
  firstNewIndex: number,
  runRules: RunRules,
  hits: readonly ControlRuleHit[],
  inControl?: ControlNullModel,
): ControlTest {
  const zOf = (k: number): number | null => {
    const row = keptRows[k] as number;
    const low = lclAt(row);
    const high = uclAt(row);
    if (low === null || high === null || !(high > low)) return null;
    return ((kept[k] as number) - (low + high) / 2) / ((high - low) / 6);
  };
  let testedCount = 0;
  let twoSidedCount = 0;
  const indexOfRow = new Map<number, number>();
  for (let k = 0; k < kept.length; k++) {
    const row = keptRows[k] as number;
    indexOfRow.set(row, k);
    if (row < firstNewIndex) continue;
    if (lclAt(row) === null && uclAt(row) === null) continue;
    testedCount++;
    if (zOf(k) !== null) twoSidedCount++;
  }
  const isOneSided = testedCount > 0 && twoSidedCount === 0;
  if (hits.length === 0) return { testedCount, isOneSided, extreme: null, pValue: 1 };
  if (isOneSided) {
    const beyond = hits.filter((h) => h.rule === 1).length;
    const first = hits[0] as ControlRuleHit;
    return {
      testedCount,
      isOneSided,
      extreme: { rule: 1, row: first.row, tail: ONE_SIDED_LIMIT_TAIL },
      pValue: binomialUpperTail(testedCount, ONE_SIDED_LIMIT_TAIL, beyond),
    };
  }
  // The run on one side ending at kept index k (points without both limits break it).
  const runAt = (k: number): number => {
    const z = zOf(k);
    if (z === null || z === 0) return 0;
    const side = Math.sign(z);
    let length = 0;
    for (let j = k; j >= 0; j--) {
      const zj = zOf(j);
      if (zj === null || side * zj <= 0) break;
      length++;
    }
    return length;
  };
  const extreme = rarestHit(hits, indexOfRow, zOf, runAt, {
    rule1: (z) => 2 * normalUpperTail(z),
    oneSidedRule1: ONE_SIDED_LIMIT_TAIL,
    rule2: RULE2_POINT_TAIL,
    rule3: RULE3_POINT_TAIL,
    run: runTail,
  });
  const seen = extreme.tail;
  if (inControl !== undefined && !isIndependentNormal(inControl.model)) {
    return nullModelTest(
      inControl,
      testedCount,
      hits,
      indexOfRow,
      zOf,
      runAt,
      keptRows,
      firstNewIndex,
      runRules,
    );
  }
  const atSeen = signalChanceAtTail(testedCount, seen, runRules);
  const below = isAtom(extreme) ? signalChanceAtTail(testedCount, rarerThan(seen), runRules) : atSeen;
  // A run's tie broken by its spread (runTieBreak): Σ z² of a run of L normal points is χ²(L).
  const tie =
    extreme.rule === 4
      ? runTieChance(tiedRuns(hits, indexOfRow, zOf, runAt, extreme), (run) =>
          chiSquareUpperTail(run.sumOfSquares, run.length),
        )
      : 0.5;
  return {
    testedCount,
    isOneSided,
    extreme,
    pValue: below + (atSeen - below) * tie,
    method: "chain",
  };
}

// ── Runs tied at the rarest signal (runTieBreak) ──
//
// Rule 4's signals are atoms of T: every run of L has the tail 2 · 2^−L, and five new points end a
// run of 8 (with the history before them) about 1 % of the time, of 9 or 10 another 1 % — the
// commonest signals there. At an atom the test's size jumps by the atom's whole chance, so a
// level that falls inside one (medium's 0.5–0.9 % among the runs of 9–11) was met only on average
// by the mid-p. A run is broken by how far its points lie from the centre line, S = Σ z² over its L points:
// p = P(T < t) + P(T = t) · P(S' ≥ S), P(S' ≥ S) the chance of so wide a run. Given the signs of
// independent points their sizes are independent of them, so S is χ²(L) for normal points (and
// the side's own law otherwise, runSpreadChance); "no rarer signal" (rules 1–3 and a longer run)
// is an event that only shrinks as the run's points grow, so given it S is stochastically smaller
// (Harris) and the p-value is conservative, never below its level. With m runs tied, their
// spreads are independent: 1 − (1 − min P)^m. An autocorrelated process simulates the same order.

interface TiedRun {
  /** +1 above the centre line, −1 below. */
  readonly side: number;
  readonly length: number;
  /** Σ z² over the run's points (σ units of each point's limits). */
  readonly sumOfSquares: number;
}

/** The rule-4 runs whose length is the rarest signal's (each ends at one of the hits). */
function tiedRuns(
  hits: readonly ControlRuleHit[],
  indexOfRow: ReadonlyMap<number, number>,
  zOf: (k: number) => number | null,
  runAt: (k: number) => number,
  extreme: { row: number },
): TiedRun[] {
  const length = runAt(indexOfRow.get(extreme.row) as number);
  const runs: TiedRun[] = [];
  for (const hit of hits) {
    if (hit.rule !== 4) continue;
    const k = indexOfRow.get(hit.row) as number;
    if (runAt(k) !== length) continue;
    let sumOfSquares = 0;
    for (let j = k - length + 1; j <= k; j++) sumOfSquares += (zOf(j) as number) ** 2;
    runs.push({ side: Math.sign(zOf(k) as number), length, sumOfSquares });
  }
  return runs;
}

/** P(some of the tied runs as wide as the widest seen): 1 − (1 − min P)^m, P each run's own chance. */
function runTieChance(runs: readonly TiedRun[], chance: (run: TiedRun) => number): number {
  if (runs.length === 0) return 0.5;
  const smallest = Math.min(...runs.map(chance));
  return 1 - (1 - smallest) ** runs.length;
}

/**
 * The control statistic T (the rarest signal's tail) has atoms: a rule-2 or rule-3 pattern and a
 * run of L have one tail each, and a grid's values one per grid value; only a rule-1 point of a
 * continuous law has a tail of its own. P(T ≤ t) at an atom counts every signal as common as the
 * one seen, which left the control part at about a third of its share at low (α 5 %: most
 * signals of 5 new points are runs or patterns). At a rule-2 or rule-3 pattern or a grid value the
 * p-value is the mid-p ½ (P(T ≤ t) + P(T < t)) (Lancaster): about its level on average, not below
 * it; a rule-4 run breaks its tie by its spread instead (runTieBreak below).
 */
function isAtom(extreme: { rule: ControlRule }, grid?: unknown): boolean {
  return extreme.rule !== 1 || grid !== undefined;
}

/** A tail just rarer than `tail`: the signal set of P(T < tail). */
const rarerThan = (tail: number) => tail * (1 - 1e-9);

/** How rare each kind of signal is at one point (rule 1 at |z|; a rule-1 point with one limit; a run of L). */
interface SignalRates {
  rule1(z: number): number;
  readonly oneSidedRule1: number;
  readonly rule2: number;
  readonly rule3: number;
  run(length: number): number;
}

/** The rarest of the hits (at least one) by `rates`: the evaluation's statistic T and where it was. */
function rarestHit(
  hits: readonly ControlRuleHit[],
  indexOfRow: ReadonlyMap<number, number>,
  zOf: (k: number) => number | null,
  runAt: (k: number) => number,
  rates: SignalRates,
): { rule: ControlRule; row: number; tail: number } {
  let extreme: { rule: ControlRule; row: number; tail: number } | null = null;
  for (const hit of hits) {
    const k = indexOfRow.get(hit.row) as number;
    let tail: number;
    if (hit.rule === 1) {
      const z = zOf(k);
      tail = z === null ? rates.oneSidedRule1 : rates.rule1(Math.abs(z));
    } else if (hit.rule === 2) tail = rates.rule2;
    else if (hit.rule === 3) tail = rates.rule3;
    else tail = rates.run(runAt(k));
    if (extreme === null || tail < extreme.tail) extreme = { rule: hit.rule, row: hit.row, tail };
  }
  if (extreme === null) throw new StatsError("INVALID_ARGUMENT", "rarestHit needs at least one hit");
  return extreme;
}

/**
 * controlTest against a process with dependence or a shape of its own (controlNullSimulation): the
 * hits graded by their rate under it, p_control by simulation, capped by the union bound.
 */
function nullModelTest(
  inControl: ControlNullModel,
  testedCount: number,
  hits: readonly ControlRuleHit[],
  indexOfRow: ReadonlyMap<number, number>,
  zOf: (k: number) => number | null,
  runAt: (k: number) => number,
  keptRows: readonly number[],
  firstNewIndex: number,
  runRules: RunRules,
): ControlTest {
  const tails = nullTails(inControl.model);
  const extreme = rarestHit(hits, indexOfRow, zOf, runAt, {
    rule1: tails.rule1,
    oneSidedRule1: tails.rule1(3) / 2,
    rule2: tails.rule2,
    rule3: tails.rule3,
    run: tails.run,
  });
  // P(T ≤ t): the chance of a signal at least as rare as `seen` among the judged points; with
  // `tie`, also a run of tie.length (only simulated) at least as wide (runTieBreak).
  const chanceAt = (seen: number, tie?: RunTie): { pValue: number; simulatedPaths?: number } => {
    const set: ControlSignalSet = {
      rule1Z: rule1LimitAt(tails, seen),
      rule2: runRules.rule2 === true && tails.rule2 <= seen,
      rule3: runRules.rule3 === true && tails.rule3 <= seen,
      runLength: runRules.rule4 === true ? runLengthAt(tails, seen) : null,
    };
    if (inControl.model.coefficients.length === 0) {
      // Independent points of the process's own law: the exact chain (a run longer than it tracks
      // bounded apart, as signalChanceAtTail does).
      const chainSet = {
        ...set,
        runLength: set.runLength !== null && set.runLength > MAX_CHAIN_RUN_LENGTH ? null : set.runLength,
      };
      const longRun =
        set.runLength !== null && set.runLength > MAX_CHAIN_RUN_LENGTH
          ? testedCount * tails.run(set.runLength)
          : 0;
      const law = modelPointLaw(inControl.model);
      return { pValue: Math.min(1, controlSignalChance(testedCount, chainSet, "stationary", law) + longRun) };
    }
    // As much history before the first judged point as the window has and the rules look back at.
    let before = 0;
    while (before < keptRows.length && (keptRows[before] as number) < firstNewIndex) before++;
    const lookBack = Math.max(4, (set.runLength ?? 0) - 1);
    const simulated = simulatedSignalChance({
      count: testedCount,
      lead: Math.min(before, lookBack),
      set,
      model: inControl.model,
      threshold: inControl.threshold,
      ...(tie === undefined ? {} : { tie }),
    });
    // The union bound over the judged points (a tied run counted as a run of its length).
    const runLength = tie?.length ?? set.runLength;
    const perPoint =
      tails.rule1(set.rule1Z) +
      (set.rule2 ? tails.rule2 : 0) +
      (set.rule3 ? tails.rule3 : 0) +
      (runLength === null ? 0 : tails.run(runLength));
    return {
      pValue: Math.min(1, simulated.pValue, testedCount * perPoint),
      simulatedPaths: simulated.paths,
    };
  };
  let atSeen: { pValue: number; simulatedPaths?: number };
  let pValue: number;
  if (extreme.rule === 4) {
    // A run's tie broken by its spread (runTieBreak above).
    const runs = tiedRuns(hits, indexOfRow, zOf, runAt, extreme);
    if (inControl.model.coefficients.length === 0) {
      atSeen = chanceAt(extreme.tail);
      const below = chanceAt(rarerThan(extreme.tail)).pValue;
      const tie = runTieChance(runs, (run) =>
        runSpreadChance(inControl.model, run.side, run.length, run.sumOfSquares),
      );
      pValue = below + (atSeen.pValue - below) * tie;
    } else {
      // Dependent points: one simulation of the order itself (a rarer signal, or a run of L as wide).
      const widest = runs.reduce((a, b) => (b.sumOfSquares > a.sumOfSquares ? b : a));
      atSeen = chanceAt(rarerThan(extreme.tail), {
        length: widest.length,
        sumOfSquares: widest.sumOfSquares,
      });
      pValue = atSeen.pValue;
    }
  } else {
    atSeen = chanceAt(extreme.tail);
    // At any other atom of T (a rule-2 or rule-3 pattern, a grid value) the mid-p value (isAtom).
    pValue = isAtom(extreme, inControl.model.grid)
      ? (atSeen.pValue + chanceAt(rarerThan(extreme.tail)).pValue) / 2
      : atSeen.pValue;
  }
  return {
    testedCount,
    isOneSided: false,
    extreme,
    pValue,
    method: inControl.model.coefficients.length === 0 ? "chain" : "simulation",
    ...(atSeen.simulatedPaths === undefined ? {} : { simulatedPaths: atSeen.simulatedPaths }),
    model: inControl.model,
  };
}

/**
 * P(T ≤ tail) among `count` in-control points judged with `runRules` (rule 1 always): the chance
 * of some signal whose tail is at most `tail`. A rule-4 run longer than the chain tracks is bounded
 * by the union bound count · 2 · 2^−L (conservative; below 1e-13 per point).
 */
export function signalChanceAtTail(count: number, tail: number, runRules: RunRules): number {
  const { set, longRun } = signalSetAtTail(tail, runRules);
  const runBound = longRun === null || longRun === Infinity ? 0 : count * runTail(longRun);
  return Math.min(1, controlSignalChance(count, set, "stationary") + runBound);
}

/**
 * The signals "at least as extreme as `tail`" with `runRules` (T ≤ tail): rule 1 beyond
 * max(3, z) with 2Φ(−z) = tail, rule 2 or 3 when their tail is ≤ `tail`, rule 4 on runs of at least
 * L with 2 · 2^−L ≤ tail. `set.runLength` holds L when the chain tracks it; a longer L is
 * `longRun` (null when rule 4 is off or fits the chain).
 */
export function signalSetAtTail(
  tail: number,
  runRules: RunRules,
): { readonly set: ControlSignalSet; readonly runLength: number | null; readonly longRun: number | null } {
  const rule1Z =
    tail > 0 ? Math.max(3, normalUpperQuantile(Math.min(tail / 2, 0.49))) : Number.POSITIVE_INFINITY;
  let runLength: number | null = null;
  let longRun: number | null = null;
  if (runRules.rule4 === true) {
    const length =
      tail > 0 ? Math.max(WESTERN_ELECTRIC_RUN_LENGTH, Math.ceil(1 - Math.log2(tail))) : Infinity;
    runLength = length;
    if (length > MAX_CHAIN_RUN_LENGTH) longRun = length;
  }
  const set: ControlSignalSet = {
    rule1Z,
    rule2: runRules.rule2 === true && RULE2_POINT_TAIL <= tail,
    rule3: runRules.rule3 === true && RULE3_POINT_TAIL <= tail,
    runLength: longRun === null ? runLength : null,
  };
  return { set, runLength: runLength === Infinity ? null : runLength, longRun };
}
