import { normalUpperTail } from "./distributions.js";
import { StatsError } from "./statsError.js";

/**
 * The Western Electric rules as a Markov chain over what they remember of the recent points
 * (Champ & Woodall 1987), for an in-control process: independent normal points judged against
 * limits at their own ±3 σ (σ = (UCL − LCL)/6, centre (UCL + LCL)/2). It answers how often the
 * rules signal by chance — the ARL₀ the Cap Alerts page states, and the chance that k judged points
 * produce a signal at least as extreme as a cap evaluation saw (capControlPValue).
 *
 * A point falls in one of six zones: above or below the centre line, and within 1 σ, between 1 and
 * 2 σ, or beyond 2 σ. The chain's state is the zones of the last 4 points (rule 3 looks at 5, rule 2
 * at 3; fewer when those rules are off) and the length of the run on one side of the centre line
 * (rule 4), each rule firing as controlRules' judge fires it: at the point that completes its
 * pattern, that point part of it. Rule 1 and rule 4 are taken in an extended form so a signal can be
 * graded by how extreme it is: rule 1 beyond ±rule1Z σ (3 = the control limits), rule 4 on a run of
 * runLength points (8 = Western Electric).
 */
export interface ControlSignalSet {
  /** Rule 1 fires on a point beyond ±rule1Z σ of the centre line (3: outside the control limits). */
  readonly rule1Z: number;
  /** Rule 2: 2 of 3 beyond 2 σ on one side. */
  readonly rule2: boolean;
  /** Rule 3: 4 of 5 beyond 1 σ on one side. */
  readonly rule3: boolean;
  /** Rule 4 fires on a run of this many points on one side of the centre line; null = off. */
  readonly runLength: number | null;
}

/** Rule 4's run in the Western Electric rules: 8 in a row on one side. */
export const WESTERN_ELECTRIC_RUN_LENGTH = 8;

/** Longest run the chain tracks; a longer rule-4 run's chance is bounded apart (capControlPValue). */
export const MAX_CHAIN_RUN_LENGTH = 48;

/** The set of the Western Electric rules a monitor turned on (rule 1 always). */
export function westernElectricSet(rules: {
  readonly rule2?: boolean;
  readonly rule3?: boolean;
  readonly rule4?: boolean;
}): ControlSignalSet {
  return {
    rule1Z: 3,
    rule2: rules.rule2 === true,
    rule3: rules.rule3 === true,
    runLength: rules.rule4 === true ? WESTERN_ELECTRIC_RUN_LENGTH : null,
  };
}

// Zones 0–2 above the centre line, 3–5 below; zone % 3: 0 within 1 σ, 1 between 1 and 2 σ, 2 beyond 2 σ.
const ZONES = 6;
const sideOf = (zone: number) => (zone < 3 ? 1 : -1);
const bandOf = (zone: number) => zone % 3;

interface ChainStructure {
  readonly size: number;
  /** Next state of (state, zone) for a judged point, or −1 when the point completes a rule's pattern. */
  readonly judged: Int32Array;
  /** Next state of (state, zone) for a point of the history before the judged ones (nothing absorbs). */
  readonly history: Int32Array;
  /** Points of history after which the state's law is the stationary one. */
  readonly historyLength: number;
}

const structures = new Map<string, ChainStructure>();

/** The states and transitions of the chain for rules 2–4 as set (rule 1 needs no memory). */
function chainStructure(set: ControlSignalSet): ChainStructure {
  const run = set.runLength;
  if (run !== null && !(Number.isInteger(run) && run >= 2 && run <= MAX_CHAIN_RUN_LENGTH)) {
    throw new StatsError(
      "INVALID_ARGUMENT",
      `run length must be an integer in 2–${MAX_CHAIN_RUN_LENGTH}, got ${run}`,
    );
  }
  const cacheKey = `${set.rule2 ? 1 : 0}${set.rule3 ? 1 : 0}:${run ?? 0}`;
  const cached = structures.get(cacheKey);
  if (cached) return cached;
  const memory = set.rule3 ? 4 : set.rule2 ? 2 : 0;
  const ids = new Map<string, number>();
  const states: { zones: number[]; run: number }[] = [];
  const idOf = (zones: number[], signedRun: number): number => {
    const key = `${zones.join("")}|${signedRun}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = states.length;
      ids.set(key, id);
      states.push({ zones, run: signedRun });
    }
    return id;
  };
  idOf([], 0);
  const judged: number[] = [];
  const history: number[] = [];
  for (let i = 0; i < states.length; i++) {
    const { zones, run: signedRun } = states[i] as { zones: number[]; run: number };
    for (let zone = 0; zone < ZONES; zone++) {
      const side = sideOf(zone);
      const band = bandOf(zone);
      const nextZones = memory === 0 ? [] : [...zones, zone].slice(-memory);
      const runNow = run === null ? 0 : Math.sign(signedRun) === side ? Math.abs(signedRun) + 1 : 1;
      const alike = (back: number, minBand: number) =>
        zones.slice(-back).filter((z) => sideOf(z) === side && bandOf(z) >= minBand).length;
      const fires =
        (set.rule2 && band === 2 && alike(2, 2) >= 1) ||
        (set.rule3 && band >= 1 && alike(4, 1) >= 3) ||
        (run !== null && runNow >= run);
      judged.push(fires ? -1 : idOf(nextZones, side * runNow));
      history.push(idOf(nextZones, run === null ? 0 : side * Math.min(runNow, run - 1)));
    }
  }
  const structure: ChainStructure = {
    size: states.length,
    judged: Int32Array.from(judged),
    history: Int32Array.from(history),
    historyLength: Math.max(memory, run === null ? 0 : run - 1),
  };
  structures.set(cacheKey, structure);
  return structure;
}

/**
 * The law of one in-control point in σ units of the centre line: P(Z > z) and P(Z < −z) for z ≥ 0.
 * Default the standard normal; a heavy-tailed or skewed process's own (controlNullSimulation).
 */
export interface PointLaw {
  upper(z: number): number;
  lower(z: number): number;
}

export const NORMAL_POINT_LAW: PointLaw = { upper: normalUpperTail, lower: normalUpperTail };

/** Each zone's chance for a judged point (beyond rule1Z absorbs) and for a history point. */
function zoneChances(rule1Z: number, law: PointLaw = NORMAL_POINT_LAW) {
  if (!(rule1Z >= 2)) throw new StatsError("INVALID_ARGUMENT", `rule 1's z must be ≥ 2, got ${rule1Z}`);
  const side = (tail: (z: number) => number) => {
    const at0 = tail(0);
    const at1 = tail(1);
    const at2 = tail(2);
    const beyondLimit = rule1Z === Number.POSITIVE_INFINITY ? 0 : tail(rule1Z);
    return {
      judged: [at0 - at1, at1 - at2, at2 - beyondLimit],
      history: [at0 - at1, at1 - at2, at2],
      beyondLimit,
    };
  };
  const above = side(law.upper);
  const below = side(law.lower);
  return {
    judged: Float64Array.from([...above.judged, ...below.judged]),
    history: Float64Array.from([...above.history, ...below.history]),
    rule1: above.beyondLimit + below.beyondLimit,
  };
}

/** The law of the state after `steps` history points from an empty history. */
function historyLaw(structure: ChainStructure, chances: Float64Array, steps: number): Float64Array {
  let law = new Float64Array(structure.size);
  law[0] = 1;
  for (let t = 0; t < steps; t++) {
    const next = new Float64Array(structure.size);
    for (let i = 0; i < structure.size; i++) {
      const mass = law[i] as number;
      if (mass === 0) continue;
      for (let zone = 0; zone < ZONES; zone++) {
        const j = structure.history[i * ZONES + zone] as number;
        next[j] = (next[j] as number) + mass * (chances[zone] as number);
      }
    }
    law = next;
  }
  return law;
}

/** Relative change of the per-step hazard below which the chain's decay is taken as geometric. */
const HAZARD_TOLERANCE = 1e-11;
const STABLE_STEPS = 8;

/**
 * Judged steps from `start`: the chance that some step signals within `steps` (absorbed mass,
 * summed from the small per-step amounts so a tiny chance keeps its digits) and, for the ARL, the
 * sum of the survival chances S(0) + … + S(steps − 1) (with steps = Infinity: to the end). Once the
 * per-step hazard settles (the chain's quasi-stationary law), the rest is geometric.
 */
function propagate(
  structure: ChainStructure,
  chances: { judged: Float64Array; rule1: number },
  start: Float64Array,
  steps: number,
): { signal: number; survivalSum: number } {
  let law = start;
  let survive = 1;
  let signal = 0;
  let survivalSum = 0;
  let previousHazard = Number.NaN;
  let stable = 0;
  for (let t = 0; t < steps; t++) {
    survivalSum += survive;
    const next = new Float64Array(structure.size);
    let absorbed = 0;
    for (let i = 0; i < structure.size; i++) {
      const mass = law[i] as number;
      if (mass === 0) continue;
      absorbed += mass * chances.rule1;
      for (let zone = 0; zone < ZONES; zone++) {
        const j = structure.judged[i * ZONES + zone] as number;
        const p = mass * (chances.judged[zone] as number);
        if (j < 0) absorbed += p;
        else next[j] = (next[j] as number) + p;
      }
    }
    signal += absorbed;
    const hazard = absorbed / survive;
    law = next;
    survive = 0;
    for (let i = 0; i < structure.size; i++) survive += law[i] as number;
    if (survive <= 0) return { signal, survivalSum };
    stable = Math.abs(hazard - previousHazard) <= HAZARD_TOLERANCE * hazard ? stable + 1 : 0;
    previousHazard = hazard;
    if (stable >= STABLE_STEPS && t + 1 < steps) {
      if (!(hazard > 0)) return { signal, survivalSum: Number.POSITIVE_INFINITY };
      const rest = steps - t - 1;
      // Σ_{j=0}^{rest−1} S (1 − h)^j and the mass absorbed over the rest.
      const decay = rest === Number.POSITIVE_INFINITY ? 1 : -Math.expm1(rest * Math.log1p(-hazard));
      return { signal: signal + survive * decay, survivalSum: survivalSum + (survive * decay) / hazard };
    }
  }
  return { signal, survivalSum };
}

/**
 * The chance that `count` judged points of an in-control process (independent points of `law`, the
 * normal unless given) give at least one signal
 * of `set`, with the points before them an in-control history as long as the rules look back
 * (`history: "stationary"`, what a cap evaluation's later points have) or none (`"none"`, the
 * first points of a chart). Rule 1 alone: 1 − (1 − 2Φ(−rule1Z))^count (Šidák).
 */
export function controlSignalChance(
  count: number,
  set: ControlSignalSet,
  history: "stationary" | "none" = "stationary",
  law: PointLaw = NORMAL_POINT_LAW,
): number {
  if (!Number.isInteger(count) || count < 0)
    throw new StatsError("INVALID_ARGUMENT", `count must be an integer ≥ 0, got ${count}`);
  if (count === 0) return 0;
  const chances = zoneChances(set.rule1Z, law);
  if (!set.rule2 && !set.rule3 && set.runLength === null)
    return -Math.expm1(count * Math.log1p(-chances.rule1));
  const structure = chainStructure(set);
  const start =
    history === "stationary"
      ? historyLaw(structure, chances.history, structure.historyLength)
      : historyLaw(structure, chances.history, 0);
  return Math.min(1, propagate(structure, chances, start, count).signal);
}

/**
 * ARL₀ of `set`: the expected number of points of an in-control normal process up to and
 * including the first signal, from a fresh chart (no history). Western Electric rule 1 alone:
 * 1/(2Φ(−3)) = 370.4; rules 1–4 together: 91.75 (Champ & Woodall 1987).
 */
export function controlRulesArl(set: ControlSignalSet): number {
  const chances = zoneChances(set.rule1Z);
  if (!set.rule2 && !set.rule3 && set.runLength === null) return 1 / chances.rule1;
  const structure = chainStructure(set);
  return propagate(structure, chances, historyLaw(structure, chances.history, 0), Number.POSITIVE_INFINITY)
    .survivalSum;
}

/**
 * The chance that one point signals, with an in-control history behind it: the rules' false-alarm
 * rate per point on a running chart (signals then come in clusters, so it is above 1/ARL₀ when run
 * rules are on: a rule-4 run of 9 signals twice).
 */
export function controlSignalRate(set: ControlSignalSet): number {
  return controlSignalChance(1, set, "stationary");
}
