// npm run bench:detection — the detection benchmark (issue 29 parts 1 and 5): simulated in-control
// series through the worker's own evaluateMonitor (apps/server/src/modules/evaluation/evaluate.ts),
// with settings built as the worker builds them (a stored monitor filter through
// monitorEvaluationSettings; the window split by splitWindow: 50 × 0.2 → 25 training + 25
// evaluation records) and Window objects of simulated records (ts a minute apart; the previous
// evaluation's newest record BENCH_NEW_POINTS records before the newest, so each evaluation has
// that many new records). Per cell: the false-breach rate at low, medium and high with its 95 %
// Wilson interval and ratio to α against the goal (±25 % of α at low and medium, ≤ 2α at high), the
// share of NO_DATA and ERROR evaluations (rates are over the evaluated windows, whose count is
// printed), the mean effective sample size when the details carry a numeric `effectiveSampleSize`
// ("–" when they do not), and the share of evaluations whose details label the configuration as
// unable to hold its level (`details.calibration.holds === false`). Then the power at medium, and a
// summary. Seeded and deterministic: each cell's seed comes from BENCH_SEED and the cell's label,
// so a reduced run sees the same draws as the full one.
//
// Battery. In-control series, each window a fresh stretch of the process started in its stationary
// law, unit marginal variance (detection.simulate.ts): independent normal; AR(1) φ 0.5, 0.7, 0.9;
// AR(2) φ 0.5, 0.3; AR(2) φ 1.6, −0.8 (complex roots, a pseudo-cycle of about 13.5 records); a sine
// of period 100 records and amplitude 1 σ of the noise (random phase per window) plus independent
// normal noise, and plus AR(1) φ 0.5 noise; Student t₃ and t₅; lognormal σ 0.5; a gauge reading
// normal values rounded to 0.5 σ.
//   SVD: one signal (mean 250, sd 0.5).
//   MVD: p signals with sd from 1e-3 to 1e3 (log-spaced) and means far from 0 (about ±1000 sd),
//        equicorrelated 0.3 (each signal √0.3 · a common stretch + √0.7 · its own stretch of the
//        family's process; the gauge rounds each signal's value).
//   CAP: rules 1–4 on (the stored filter's run_rules [2, 3, 4], as monitorEvaluationSettings reads
//        them); control limits from "Suggest control limits" (suggestControlLimits on the
//        SUGGEST_RECORDS = 10,000 records before the window, the most the SPC limits service
//        reads, rounded to 6 places as it does); spec limits symmetric at mean ± 3 · Ppk σ with Ppk
//        each level's Cpk target ("at target": the capability test's boundary, the α promise), or
//        at Ppk 2 ("spec wide": only the control part decides); all as Window.limits formulas.
//        "first evaluation": at target, previousLastRecordTs null (every record judged).
// Grid (BENCH_WINDOWS windows a cell, the three levels each):
//   every family at 50 × 0.2 (25 + 25), 150 × 0.2 (120 + 30) and 3000 × 0.2 (2400 + 600):
//     SVD; MVD p = 2, 5, 10 at 50 × 0.2 (p = 20 needs 42 training records: NO_DATA there),
//     p = 2, 5, 10, 20 at 150 × 0.2, p = 5 at 3000 × 0.2; CAP at target at all three, spec wide
//     at 50 × 0.2 and 150 × 0.2, first evaluation at 150 × 0.2;
//   five families (independent normal, AR(1) φ 0.7, AR(1) φ 0.9, sine + normal, t₃) also at
//     100 × 0.25 (75 + 25) and 600 × 0.2 (480 + 120): SVD; MVD p = 2, 5, 10, 20 at 100 × 0.25,
//     p = 5 at 600 × 0.2; CAP at target;
//   independent normal, AR(1) φ 0.9 and t₃ also: MVD p = 20 at 600 × 0.2, CAP spec wide at
//     3000 × 0.2; AR(1) φ 0.9 and t₃: MVD p = 20 at 3000 × 0.2; independent normal: CAP first
//     evaluation at 3000 × 0.2.
//   (At 3000 × 0.2 a window's three evaluations cost about 17 ms with MVD p = 5, 64 ms with
//   p = 20, and up to 150 ms with SVD on strongly dependent data: the grid keeps a full default run
//   under about 25 minutes on two cores.)
// Power at medium (BENCH_POWER_WINDOWS windows a cell), the change in every evaluation record, on
// independent normal, AR(1) φ 0.7 and t₃ at 50 × 0.2 and 150 × 0.2, and at 3000 × 0.2 on
// independent normal (SVD, MVD) or all three (CAP): SVD mean shift 0.5, 1, 2 σ and spread × 1.5;
// MVD p = 5 equicorrelated 0.5 (last round's goal's configuration) the same on signal 0 and a
// correlation break (equicorrelated 0.8, signal 1 mirrored), and p = 2's correlation break; CAP a
// 1.5 σ shift (spec wide) and an off-target process (Ppk 1.0 against the medium target 1.33).
// Last round's goals (on independent normal) are printed with the result.
//
// Environment:
//   BENCH_WINDOWS        windows per false-breach cell (default 2000)
//   BENCH_POWER_WINDOWS  windows per power cell (default 1000; 0: no power cells)
//   BENCH_SEED           base seed (default 20261124)
//   BENCH_NEW_POINTS     new records per evaluation (default 5)
//   BENCH_ONLY           comma list of svd, mvd, cap (default all)
//   BENCH_CELLS          semicolon list of label fragments: only cells whose label contains one of
//                        them run (e.g. "MVD p=2 independent normal 150;AR(1) φ 0.9")
//   BENCH_CONFIRM        windows of the confirming run (default 16000; 0: none). A cell with a
//                        (cell, level) pair outside the goal whose first-run Wilson interval still
//                        reaches the goal (a miss that may be the windows' noise) runs once more
//                        with this many windows and another seed; the pair is judged on the two
//                        runs' windows together. A miss whose interval lies wholly outside the goal
//                        is not rerun.
//   BENCH_THREADS        worker threads (default: one a core); cells are printed in order, each as
//                        soon as the cells before it have ended
//   BENCH_MARKDOWN       1: also print a markdown table of the false-breach cells (docs/detection-benchmark.md)
//   BENCH_PROGRESS       1: a line on stderr as each cell ends
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ALERT_THRESHOLD_LEVELS, ALERT_THRESHOLDS, type AlertThreshold } from "@linewatch/stats";
import {
  type CapSpec,
  type CellResult,
  type CellSpec,
  type Change,
  changeLabel,
  FAMILIES,
  type Family,
  familyOf,
  type LevelTally,
  SUGGEST_RECORDS,
  WINDOW_SHAPES,
  type WindowShape,
  wilsonInterval,
  windowLabel,
  windowSizes,
} from "./detection.simulate.js";
import type { CellTask } from "./detection.thread.js";
import { loadAverage } from "./load.js";

const env = process.env;
const WINDOW_COUNT = Number(env.BENCH_WINDOWS ?? 2000);
const POWER_WINDOW_COUNT = Number(env.BENCH_POWER_WINDOWS ?? 1000);
const CONFIRM_WINDOW_COUNT = Number(env.BENCH_CONFIRM ?? 16000);
const BASE_SEED = Number(env.BENCH_SEED ?? 20261124);
const NEW_POINTS = Number(env.BENCH_NEW_POINTS ?? 5);
const THREADS = Math.max(1, Number(env.BENCH_THREADS ?? availableParallelism()));
const MARKDOWN = env.BENCH_MARKDOWN === "1";
const PROGRESS = env.BENCH_PROGRESS === "1";
const ONLY = new Set((env.BENCH_ONLY ?? "svd,mvd,cap").split(",").map((s) => s.trim().toLowerCase()));
const CELL_FILTERS = (env.BENCH_CELLS ?? "")
  .split(";")
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
/** A share of labelled evaluations from which a pair that misses counts as labelled. */
const LABELLED_SHARE = 0.9;

// ── The grid ─────────────────────────────────────────────────────────────────────────────────

const shape = (sampleSize: number, ratio: number): WindowShape => {
  const s = WINDOW_SHAPES.find((w) => w.sampleSize === sampleSize && w.ratio === ratio);
  if (!s) throw new Error(`no window ${sampleSize} × ${ratio}`);
  return s;
};
const SMALLEST = shape(50, 0.2);
const SMALL = shape(100, 0.25);
const MEDIUM = shape(150, 0.2);
const LARGE = shape(600, 0.2);
const LARGEST = shape(3000, 0.2);
const ANCHORS = [SMALLEST, MEDIUM, LARGEST];
const AT_OTHER_WINDOWS = new Set(["normal", "ar1-0.7", "ar1-0.9", "periodic", "t3"]);
const MVD_P20_AT_LARGEST = new Set(["ar1-0.9", "t3"]);
/** Families with MVD p = 20 at 600 × 0.2 and CAP spec wide at 3000 × 0.2. */
const AT_LARGE_EXTRAS = new Set(["normal", "ar1-0.9", "t3"]);
const POWER_FAMILIES = ["normal", "ar1-0.7", "t3"];

/** MVD's p per window for a family. */
function mvdSignalCounts(family: Family, w: WindowShape): number[] {
  if (w === SMALLEST) return [2, 5, 10];
  if (w === SMALL) return [2, 5, 10, 20];
  if (w === MEDIUM) return [2, 5, 10, 20];
  if (w === LARGE) return AT_LARGE_EXTRAS.has(family.id) ? [5, 20] : [5];
  return MVD_P20_AT_LARGEST.has(family.id) ? [5, 20] : [5];
}

const windowsOf = (family: Family) =>
  AT_OTHER_WINDOWS.has(family.id) ? WINDOW_SHAPES : WINDOW_SHAPES.filter((w) => ANCHORS.includes(w));

type CapVariant = "target" | "wide" | "first";
const CAP_VARIANT_LABELS: Record<CapVariant, string> = {
  target: "spec at target",
  wide: "spec wide (Ppk 2)",
  first: "first evaluation, spec at target",
};

interface Cell {
  readonly index: number;
  readonly kind: "rate" | "power";
  readonly label: string;
  readonly section: string;
  readonly method: "svd" | "mvd" | "cap";
  readonly family: Family;
  readonly shape: WindowShape;
  readonly p: number | null;
  readonly capVariant: CapVariant | null;
  readonly spec: CellSpec;
  readonly seed: number;
  readonly windows: number;
  /** power: last round's goal, when this cell is one. */
  readonly goal?: number;
}

/** FNV-1a of the label, mixed with the base seed: a cell's seed does not depend on the others. */
function seedOf(label: string, salt = 0): number {
  let h = 0x811c9dc5 ^ salt;
  for (const ch of label) {
    h ^= ch.codePointAt(0) as number;
    h = Math.imul(h, 0x01000193);
  }
  h ^= Math.imul(BASE_SEED >>> 0, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
const CONFIRM_SALT = 0x6a09e667;

const cells: Cell[] = [];
function addCell(c: Omit<Cell, "index" | "seed" | "windows">): void {
  cells.push({
    ...c,
    index: cells.length,
    seed: seedOf(c.label),
    windows: c.kind === "rate" ? WINDOW_COUNT : POWER_WINDOW_COUNT,
  });
}

const IN_CONTROL: Change = { kind: "none" };
const RULES_2_TO_4 = [2, 3, 4] as const;
const capSpecOf = (v: CapVariant): CapSpec => (v === "wide" ? { kind: "ppk", ppk: 2 } : { kind: "target" });

function rateCells(): void {
  for (const family of FAMILIES) {
    for (const w of windowsOf(family)) {
      addCell({
        kind: "rate",
        label: `SVD ${family.label} ${windowLabel(w)}`,
        section: "SVD — false-breach rate, in control",
        method: "svd",
        family,
        shape: w,
        p: null,
        capVariant: null,
        spec: {
          method: "svd",
          family: family.id,
          shape: w,
          newPoints: NEW_POINTS,
          change: IN_CONTROL,
          levels: ALERT_THRESHOLDS,
        },
      });
    }
  }
  for (const family of FAMILIES) {
    for (const w of windowsOf(family)) {
      for (const p of mvdSignalCounts(family, w)) {
        addCell({
          kind: "rate",
          label: `MVD p=${p} ${family.label} ${windowLabel(w)}`,
          section: "MVD — false-breach rate, in control (mixed scales, equicorrelated 0.3)",
          method: "mvd",
          family,
          shape: w,
          p,
          capVariant: null,
          spec: {
            method: "mvd",
            family: family.id,
            shape: w,
            p,
            correlation: 0.3,
            newPoints: NEW_POINTS,
            change: IN_CONTROL,
            levels: ALERT_THRESHOLDS,
          },
        });
      }
    }
  }
  for (const family of FAMILIES) {
    for (const w of windowsOf(family)) {
      const variants: CapVariant[] =
        w === SMALLEST || w === MEDIUM || (w === LARGEST && AT_LARGE_EXTRAS.has(family.id))
          ? ["target", "wide"]
          : ["target"];
      if (w === MEDIUM || (w === LARGEST && family.id === "normal")) variants.push("first");
      for (const v of variants) {
        addCell({
          kind: "rate",
          label: `CAP ${family.label} ${windowLabel(w)} ${CAP_VARIANT_LABELS[v]}`,
          section: "CAP — false-breach rate, in control (rules 1–4, suggested control limits)",
          method: "cap",
          family,
          shape: w,
          p: null,
          capVariant: v,
          spec: {
            method: "cap",
            family: family.id,
            shape: w,
            capSpec: capSpecOf(v),
            runRules: RULES_2_TO_4,
            suggestRecords: SUGGEST_RECORDS,
            newPoints: v === "first" ? null : NEW_POINTS,
            change: IN_CONTROL,
            levels: ALERT_THRESHOLDS,
          },
        });
      }
    }
  }
}

function powerCells(): void {
  const shifts: Change[] = [0.5, 1, 2].map((sigmas) => ({ kind: "shift", sigmas }));
  const spread: Change = { kind: "spread", factor: 1.5 };
  const normal = familyOf("normal");
  for (const family of POWER_FAMILIES.map(familyOf)) {
    for (const w of family === normal ? ANCHORS : [SMALLEST, MEDIUM]) {
      for (const change of [...shifts, spread]) {
        const isGoal = family === normal && w === MEDIUM && change.kind === "shift" && change.sigmas === 1;
        addCell({
          kind: "power",
          label: `SVD ${family.label} ${windowLabel(w)} ${changeLabel(change)}`,
          section: "SVD — power at medium",
          method: "svd",
          family,
          shape: w,
          p: null,
          capVariant: null,
          goal: isGoal ? 0.9 : undefined,
          spec: {
            method: "svd",
            family: family.id,
            shape: w,
            newPoints: NEW_POINTS,
            change,
            levels: ["medium"],
          },
        });
      }
    }
  }
  for (const family of POWER_FAMILIES.map(familyOf)) {
    for (const w of family === normal ? ANCHORS : [SMALLEST, MEDIUM]) {
      const list: [number, Change][] = [
        ...[...shifts, spread, { kind: "correlationBreak" } as Change].map((c): [number, Change] => [5, c]),
        [2, { kind: "correlationBreak" }],
      ];
      for (const [p, change] of list) {
        const isGoal =
          family === normal &&
          w === MEDIUM &&
          ((p === 5 && change.kind === "shift" && change.sigmas === 1) ||
            (p === 2 && change.kind === "correlationBreak"));
        addCell({
          kind: "power",
          label: `MVD p=${p} ${family.label} ${windowLabel(w)} ${changeLabel(change)}`,
          section:
            "MVD — power at medium (equicorrelated 0.5, 0.8 for the break; signal 0 shifts or spreads, signal 1 mirrors)",
          method: "mvd",
          family,
          shape: w,
          p,
          capVariant: null,
          goal: isGoal ? (p === 5 ? 0.8 : 0.9) : undefined,
          spec: {
            method: "mvd",
            family: family.id,
            shape: w,
            p,
            correlation: 0.5,
            newPoints: NEW_POINTS,
            change,
            levels: ["medium"],
          },
        });
      }
    }
  }
  for (const family of POWER_FAMILIES.map(familyOf)) {
    for (const w of ANCHORS) {
      const list: [string, CapSpec, Change][] = [
        ["mean shift 1.5 σ, spec wide (Ppk 2)", { kind: "ppk", ppk: 2 }, { kind: "shift", sigmas: 1.5 }],
        ["off target: Ppk 1.0 against 1.33", { kind: "ppk", ppk: 1 }, IN_CONTROL],
      ];
      for (const [what, capSpec, change] of list) {
        const isGoal = family === normal && w === LARGEST && change.kind === "none";
        addCell({
          kind: "power",
          label: `CAP ${family.label} ${windowLabel(w)} ${what}`,
          section: "CAP — power at medium (rules 1–4, suggested control limits)",
          method: "cap",
          family,
          shape: w,
          p: null,
          capVariant: null,
          goal: isGoal ? 0.8 : undefined,
          spec: {
            method: "cap",
            family: family.id,
            shape: w,
            capSpec,
            runRules: RULES_2_TO_4,
            suggestRecords: SUGGEST_RECORDS,
            newPoints: NEW_POINTS,
            change,
            levels: ["medium"],
          },
        });
      }
    }
  }
}

rateCells();
powerCells();

const wanted = (c: Cell) =>
  c.windows > 0 &&
  ONLY.has(c.method) &&
  (CELL_FILTERS.length === 0 || CELL_FILTERS.some((f) => c.label.includes(f)));
const selected = cells.filter(wanted);

// ── Running cells on worker threads ──────────────────────────────────────────────────────────

/** A rough cost of a cell (for the order cells are handed out in: the longest first). */
function costOf(spec: CellSpec, windows: number): number {
  const size = spec.shape.sampleSize + (spec.method === "cap" ? (spec.suggestRecords ?? 0) / 5 : 0);
  const width = spec.method === "mvd" ? (spec.p ?? 2) ** 0.9 : 1.5;
  return windows * spec.levels.length * (50 + size * width);
}

interface Job {
  readonly spec: CellSpec;
  readonly seed: number;
  readonly windows: number;
}

/**
 * Runs jobs on THREADS worker threads, handed out in the jobs' order ("given") or the most costly
 * first ("cost"); results in the jobs' order.
 */
async function runJobs(
  jobs: readonly Job[],
  handOut: "given" | "cost",
  onDone?: (i: number, r: CellResult) => void,
): Promise<CellResult[]> {
  const results: CellResult[] = new Array(jobs.length);
  if (jobs.length === 0) return results;
  const order = jobs.map((_, i) => i);
  if (handOut === "cost")
    order.sort((a, b) => {
      const ja = jobs[a] as Job;
      const jb = jobs[b] as Job;
      return costOf(jb.spec, jb.windows) - costOf(ja.spec, ja.windows) || a - b;
    });
  let next = 0;
  const threadCount = Math.min(THREADS, jobs.length);
  const entry = new URL("./detection.thread-entry.js", import.meta.url);
  await Promise.all(
    Array.from(
      { length: threadCount },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(entry);
          const give = () => {
            if (next >= order.length) {
              void worker.terminate().then(() => resolve());
              return;
            }
            const id = order[next++] as number;
            const job = jobs[id] as Job;
            const task: CellTask = { id, spec: job.spec, seed: job.seed, windows: job.windows };
            worker.postMessage(task);
          };
          worker.on("message", (msg: { id: number; result?: CellResult; error?: string }) => {
            if (msg.error !== undefined || !msg.result) {
              reject(new Error(`cell ${msg.id}: ${msg.error}`));
              void worker.terminate();
              return;
            }
            results[msg.id] = msg.result;
            onDone?.(msg.id, msg.result);
            give();
          });
          worker.on("error", reject);
          give();
        }),
    ),
  );
  return results;
}

// ── Judging and printing ─────────────────────────────────────────────────────────────────────

const pct = (x: number) => `${(100 * x).toFixed(x < 0.01 ? 2 : 1)} %`;
const ratioText = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));

/** The goal: within ±25 % of α at low and medium, at most 2 α at high. */
function meetsGoal(level: AlertThreshold, rate: number): boolean {
  const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
  return level === "high" ? rate <= 2 * alpha : rate >= 0.75 * alpha && rate <= 1.25 * alpha;
}

/** Whether the rate's Wilson interval reaches the goal: a miss that may be noise. */
function intervalReachesGoal(level: AlertThreshold, k: number, n: number): boolean {
  const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
  const [lo, hi] = wilsonInterval(k, n);
  return level === "high" ? lo <= 2 * alpha : hi >= 0.75 * alpha && lo <= 1.25 * alpha;
}

/** The chance that a method breaching exactly α meets the goal in a cell of `n` windows. */
function chanceOfMeetingGoal(level: AlertThreshold, n: number): number {
  if (n === 0) return 0;
  const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
  let logPmf = n * Math.log1p(-alpha);
  let chance = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logPmf += Math.log((n - k + 1) / k) + Math.log(alpha / (1 - alpha));
    if (meetsGoal(level, k / n)) chance += Math.exp(logPmf);
  }
  return chance;
}

type PairStatus = "met" | "missed" | "labelled" | "none";

interface Pair {
  readonly level: AlertThreshold;
  readonly breaches: number;
  readonly evaluated: number;
  readonly rate: number;
  readonly ratio: number;
  readonly met: boolean;
  readonly labelledShare: number;
  /** The first and the confirming run together, when this pair missed and was confirmed. */
  confirmed?: { breaches: number; evaluated: number; rate: number; ratio: number; met: boolean };
  status: PairStatus;
}

interface Verdict {
  readonly cell: Cell;
  readonly result: CellResult;
  readonly pairs: Pair[];
}

function pairsOf(result: CellResult): Pair[] {
  return ALERT_THRESHOLDS.map((level) => {
    const t = result.levels[level] as LevelTally;
    const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
    const rate = t.evaluated > 0 ? t.breaches / t.evaluated : Number.NaN;
    const met = t.evaluated > 0 && meetsGoal(level, rate);
    const labelledShare = result.windows > 0 ? t.labelled / result.windows : 0;
    // Labelled: the monitor form's preview warned up front (result.previewHolds false), or the
    // evaluations' own details said so in at least LABELLED_SHARE of the windows.
    const isLabelled =
      result.previewHolds === false ||
      result.previewLevelHolds[level] === false ||
      labelledShare >= LABELLED_SHARE;
    const status: PairStatus = t.evaluated === 0 ? "none" : met ? "met" : isLabelled ? "labelled" : "missed";
    return {
      level,
      breaches: t.breaches,
      evaluated: t.evaluated,
      rate,
      ratio: rate / alpha,
      met,
      labelledShare,
      status,
    };
  });
}

function essText(result: CellResult): string {
  let sum = 0;
  let count = 0;
  for (const level of ALERT_THRESHOLDS) {
    const t = result.levels[level];
    if (!t) continue;
    sum += t.essSum;
    count += t.essCount;
  }
  return count === 0 ? "–" : (sum / count).toFixed(1);
}

/** What the form's preview says of the cell's window up front. */
function previewText(result: CellResult): string {
  if (result.previewHolds === null) return "–";
  if (!result.previewHolds) return `warns (use at least ${result.previewMinimum ?? "—"})`;
  // SVD: the levels the preview warns of for the signal's heavy tails or the threshold's floor.
  const warned = ALERT_THRESHOLDS.filter((level) => result.previewLevelHolds[level] === false);
  return warned.length === 0 ? "holds" : `warns at ${warned.join(", ")}`;
}

function labelledText(pairs: readonly Pair[]): string {
  if (pairs.every((p) => p.labelledShare === 0)) return "0 %";
  return `${pairs.map((p) => (100 * p.labelledShare).toFixed(0)).join("/")} %`;
}

function rateRow(v: Verdict): string {
  const { cell, result, pairs } = v;
  const parts = pairs.map((p) => {
    if (p.evaluated === 0) return `${p.level} – (nothing evaluated)`;
    const [lo, hi] = wilsonInterval(p.breaches, p.evaluated);
    const verdict = p.status === "met" ? "ok" : p.status === "labelled" ? "labelled" : "MISS";
    return `${p.level} ${pct(p.rate)} [${pct(lo)}, ${pct(hi)}] ${ratioText(p.ratio)}α ${verdict}`;
  });
  const tallies = ALERT_THRESHOLDS.map((l) => result.levels[l] as LevelTally);
  const calls = result.windows * tallies.length;
  const noData = tallies.reduce((s, t) => s + t.noData, 0);
  const errors = tallies.reduce((s, t) => s + t.errors, 0);
  const evaluated = tallies.map((t) => t.evaluated);
  const evaluatedText = evaluated.every((e) => e === evaluated[0]) ? `${evaluated[0]}` : evaluated.join("/");
  let extra = `  evaluated ${evaluatedText}; NO_DATA ${pct(noData / calls)}, ERROR ${pct(errors / calls)}; ESS ${essText(result)}; labelled ${labelledText(pairs)}; preview ${previewText(result)}; ${(result.evaluationMs / result.calls).toFixed(3)} ms/eval`;
  if (cell.method === "cap") {
    const m = result.levels.medium as LevelTally;
    if (m.evaluated > 0)
      extra += `; medium breaches by control ${pct(m.controlBreaches / m.evaluated)}, capability ${pct(m.capabilityBreaches / m.evaluated)}`;
  }
  if (cell.method === "mvd") {
    // Each test decides at α/2 (p = 2 min(p_mean, p_struct)): a calibrated one breaches half of α.
    const m = result.levels.medium as LevelTally;
    if (m.evaluated > 0)
      extra += `; medium breaches by the mean test ${pct(m.meanBreaches / m.evaluated)}, the structure test ${pct(m.structureBreaches / m.evaluated)} (each's share 0.5 %)`;
  }
  const reasons: string[] = [];
  if (result.firstNoDataReason) reasons.push(`first NO_DATA: ${result.firstNoDataReason}`);
  if (result.firstErrorReason) reasons.push(`first ERROR: ${result.firstErrorReason}`);
  return `${cell.label}\n    ${parts.join(" | ")}\n  ${extra}${reasons.length > 0 ? `\n    ${reasons.join("; ")}` : ""}`;
}

function powerRow(cell: Cell, result: CellResult): string {
  const t = result.levels.medium as LevelTally;
  const rate = t.evaluated > 0 ? t.breaches / t.evaluated : Number.NaN;
  const [lo, hi] = wilsonInterval(t.breaches, t.evaluated);
  const goal =
    cell.goal === undefined
      ? ""
      : `  last round's goal ≥ ${pct(cell.goal)}: ${rate >= cell.goal ? "met" : "NOT met"}`;
  const lost = t.noData + t.errors > 0 ? ` (${t.noData} NO_DATA, ${t.errors} ERROR)` : "";
  return `${cell.label.padEnd(78)} ${pct(rate).padStart(8)} [${pct(lo)}, ${pct(hi)}] of ${t.evaluated}${lost}${goal}`;
}

// ── Main ─────────────────────────────────────────────────────────────────────────────────────

const started = performance.now();
console.log(
  `Detection benchmark (evaluateMonitor) — ${WINDOW_COUNT} windows per false-breach cell, ${POWER_WINDOW_COUNT} per power cell, seed ${BASE_SEED}, ${NEW_POINTS} new records an evaluation, ${THREADS} threads, Node ${process.version}`,
);
console.log(
  "α: low 5 %, medium 1 %, high 0.1 %; goal ±25 % of α at low and medium, ≤ 2α at high; a pair outside the goal counts as labelled, not missed, when the monitor form's preview warns up front (measureLevelSupport on 2,000 records of the process judging the cell's window) or ≥ 90 % of its evaluations' details say the window cannot hold (calibration.holds false).",
);
console.log(
  `Windows as the worker splits them: ${WINDOW_SHAPES.map((w) => {
    const { m, n } = windowSizes(w);
    return `${windowLabel(w)} → ${m} + ${n}`;
  }).join(", ")}. CAP control limits suggested from the ${SUGGEST_RECORDS} records before each window.`,
);
console.log(
  `Cells: ${cells.filter((c) => c.kind === "rate").length} false-breach, ${cells.filter((c) => c.kind === "power").length} power; ${selected.length} selected.`,
);
console.log(`load average at start ${loadAverage()}`);

// The first run hands the cells out in their printed order and prints each as soon as every cell
// before it has ended: the output streams (and a run stopped midway keeps what it printed), and
// the costliest cells sit mid-grid, so the threads still end close together.
const verdicts: Verdict[] = [];
const finished: (CellResult | undefined)[] = new Array(selected.length);
let printed = 0;
let doneCount = 0;
let section = "";
function printReady(): void {
  while (printed < selected.length && finished[printed] !== undefined) {
    const cell = selected[printed] as Cell;
    const result = finished[printed] as CellResult;
    if (cell.section !== section) {
      section = cell.section;
      console.log(`\n${section}`);
    }
    if (cell.kind === "rate") {
      const v: Verdict = { cell, result, pairs: pairsOf(result) };
      verdicts.push(v);
      console.log(rateRow(v));
    } else {
      console.log(powerRow(cell, result));
    }
    printed++;
  }
}
const results = await runJobs(
  selected.map((c) => ({ spec: c.spec, seed: c.seed, windows: c.windows })),
  "given",
  (i, r) => {
    doneCount++;
    finished[i] = r;
    if (PROGRESS)
      process.stderr.write(
        `[${doneCount}/${selected.length}] ${(selected[i] as Cell).label} ${(r.wallMs / 1000).toFixed(1)} s; load ${loadAverage()}\n`,
      );
    printReady();
  },
);
console.log(`\nload average after the first run ${loadAverage()}`);

// The confirming runs: a pair that missed and whose interval still reaches the goal.
const toConfirm = verdicts.filter((v) =>
  v.pairs.some((p) => p.status === "missed" && intervalReachesGoal(p.level, p.breaches, p.evaluated)),
);
if (CONFIRM_WINDOW_COUNT > 0 && toConfirm.length > 0) {
  console.log(
    `\nConfirming run: ${toConfirm.length} cells with a pair outside the goal whose interval reaches it, ${CONFIRM_WINDOW_COUNT} windows, another seed; judged on both runs together`,
  );
  const again = await runJobs(
    toConfirm.map((v) => ({
      spec: v.cell.spec,
      seed: seedOf(v.cell.label, CONFIRM_SALT),
      windows: CONFIRM_WINDOW_COUNT,
    })),
    "cost",
  );
  for (const [i, v] of toConfirm.entries()) {
    const r = again[i] as CellResult;
    const parts: string[] = [];
    for (const p of v.pairs) {
      if (p.status !== "missed" || !intervalReachesGoal(p.level, p.breaches, p.evaluated)) continue;
      const t = r.levels[p.level] as LevelTally;
      const alpha = ALERT_THRESHOLD_LEVELS[p.level].alpha;
      const breaches = p.breaches + t.breaches;
      const evaluated = p.evaluated + t.evaluated;
      const rate = breaches / evaluated;
      const met = meetsGoal(p.level, rate);
      p.confirmed = { breaches, evaluated, rate, ratio: rate / alpha, met };
      if (met) p.status = "met";
      const [lo, hi] = wilsonInterval(breaches, evaluated);
      parts.push(
        `${p.level} ${ratioText(p.ratio)}α, then ${ratioText(t.breaches / t.evaluated / alpha)}α; together ${pct(rate)} [${pct(lo)}, ${pct(hi)}] ${ratioText(rate / alpha)}α ${met ? "ok" : "MISS"}`,
      );
    }
    console.log(`${v.cell.label}\n    ${parts.join(" | ")}`);
  }
}

// ── Summary ──────────────────────────────────────────────────────────────────────────────────

const allPairs = verdicts.flatMap((v) => v.pairs.filter((p) => p.status !== "none"));
const cellStatus = (v: Verdict): PairStatus =>
  v.pairs.some((p) => p.status === "missed")
    ? "missed"
    : v.pairs.some((p) => p.status === "labelled")
      ? "labelled"
      : v.pairs.every((p) => p.status === "none")
        ? "none"
        : "met";
const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;
const elapsed = (performance.now() - started) / 1000;
console.log(
  `\nSummary (${elapsed.toFixed(0)} s${CONFIRM_WINDOW_COUNT > 0 ? ", confirming runs included" : ""}): ${verdicts.length} false-breach cells: ${count(verdicts, (v) => cellStatus(v) === "met")} met, ${count(verdicts, (v) => cellStatus(v) === "missed")} missed, ${count(verdicts, (v) => cellStatus(v) === "labelled")} labelled (every pair outside the goal labelled)${count(verdicts, (v) => cellStatus(v) === "none") > 0 ? `, ${count(verdicts, (v) => cellStatus(v) === "none")} with nothing evaluated` : ""}.`,
);
for (const level of ALERT_THRESHOLDS) {
  const ps = allPairs.filter((p) => p.level === level);
  const firstMet = count(ps, (p) => p.met);
  console.log(
    `  ${level.padEnd(6)} ${count(ps, (p) => p.status === "met")} met, ${count(ps, (p) => p.status === "missed")} missed, ${count(ps, (p) => p.status === "labelled")} labelled of ${ps.length} (${firstMet} met in the first run); labelled in ≥ 90 % of evaluations: ${count(ps, (p) => p.labelledShare >= LABELLED_SHARE)}`,
  );
}
for (const method of ["svd", "mvd", "cap"] as const) {
  const vs = verdicts.filter((v) => v.cell.method === method);
  if (vs.length === 0) continue;
  console.log(
    `  ${method.toUpperCase()}: ${count(vs, (v) => cellStatus(v) === "met")} of ${vs.length} cells met, ${count(vs, (v) => cellStatus(v) === "missed")} missed, ${count(vs, (v) => cellStatus(v) === "labelled")} labelled`,
  );
}
const byChance = allPairs.reduce((s, p) => s + chanceOfMeetingGoal(p.level, p.evaluated), 0);
console.log(
  `  a method breaching exactly α would meet the goal in ${byChance.toFixed(1)} of these ${allPairs.length} pairs in a first run on average (the windows' binomial noise alone)`,
);
const goalCells = selected.filter((c) => c.kind === "power" && c.goal !== undefined);
for (const c of goalCells) {
  const t = (results[selected.indexOf(c)] as CellResult).levels.medium as LevelTally;
  const rate = t.breaches / t.evaluated;
  console.log(
    `  power goal: ${c.label} ${pct(rate)} (goal ≥ ${pct(c.goal as number)}: ${rate >= (c.goal as number) ? "met" : "NOT met"})`,
  );
}

const multiples = (v: Verdict) =>
  v.pairs
    .map((p) => {
      if (p.status === "none") return "–";
      const r = p.confirmed ? p.confirmed.ratio : p.ratio;
      return `${ratioText(r)}${p.status === "missed" ? "*" : p.status === "labelled" ? "ᴸ" : ""}`;
    })
    .join(" / ");
const notMet = verdicts.filter((v) => cellStatus(v) === "missed" || cellStatus(v) === "labelled");
if (notMet.length > 0) {
  console.log(
    "\nCells outside the goal by family and window (multiples of α at low / medium / high; * outside the goal, ᴸ outside but labelled; with the confirming run where one ran):",
  );
  for (const family of FAMILIES) {
    const ofFamily = notMet.filter((v) => v.cell.family === family);
    if (ofFamily.length === 0) continue;
    console.log(`  ${family.label}`);
    for (const w of WINDOW_SHAPES) {
      const here = ofFamily.filter((v) => v.cell.shape === w);
      if (here.length === 0) continue;
      const items = here.map((v) => {
        const what =
          v.cell.method === "cap"
            ? `CAP ${CAP_VARIANT_LABELS[v.cell.capVariant as CapVariant]}`
            : `${v.cell.method.toUpperCase()}${v.cell.p === null ? "" : ` p=${v.cell.p}`}`;
        return `${what} ${multiples(v)}`;
      });
      console.log(`    ${windowLabel(w)}: ${items.join("; ")}`);
    }
  }
}

if (MARKDOWN) {
  console.log(
    `\n| method | data | window | p | low (α 5 %) | medium (α 1 %) | high (α 0.1 %) | labelled | preview | ESS |\n|---|---|---|---|---|---|---|---|---|---|`,
  );
  for (const v of verdicts) {
    const c = v.cell;
    const cellsText = v.pairs.map((p) => {
      if (p.status === "none") return "–";
      const r = p.confirmed ? p.confirmed.ratio : p.ratio;
      const mark = p.status === "missed" ? " ✗" : p.status === "labelled" ? " (labelled)" : "";
      return `${ratioText(r)} α${mark}`;
    });
    const method =
      c.method === "cap" ? `CAP ${CAP_VARIANT_LABELS[c.capVariant as CapVariant]}` : c.method.toUpperCase();
    console.log(
      `| ${method} | ${c.family.label} | ${windowLabel(c.shape)} | ${c.p ?? (c.method === "mvd" ? "" : "1")} | ${cellsText.join(" | ")} | ${labelledText(v.pairs)} | ${previewText(v.result)} | ${essText(v.result)} |`,
    );
  }
}
console.log(`\nload average at end ${loadAverage()}; ${((performance.now() - started) / 1000).toFixed(0)} s`);
