// Detection benchmark (issue "Detection quality", part 2): simulated in-control series through the
// product's calibrated evaluations, the observed false-breach rate with its 95 % Wilson interval
// against α at low, medium and high; the power at medium to see real changes; and the time per
// evaluation. Seeded and deterministic. Run: npm run bench:detection (root).
//   BENCH_WINDOWS        windows per false-breach cell (default 4000)
//   BENCH_POWER_WINDOWS  windows per power cell (default 1000)
//   BENCH_SEED           base seed (default 20261124)
//   BENCH_ONLY           comma list of svd, mvd, cap (default all); every cell keeps its seed
//   BENCH_CELLS          semicolon list of label fragments: only rows whose label contains one of
//                        them run (e.g. "MVD p=2 independent normal 150;correlation"); every cell
//                        keeps the seed it has in the full run
//   BENCH_CONFIRM        windows of the confirming run (default 16000; 0: none). Each cell with a
//                        (cell, level) pair outside the goal runs once more with this many windows
//                        and another seed, and the pair is judged on the two runs' windows together.
//                        With 4,000 windows a method breaching exactly α lands outside ±25 % at
//                        medium in about 9 % of cells by chance; with 20,000 in well under 1 %.
import { loadavg } from "node:os";
import { ALERT_THRESHOLD_LEVELS, ALERT_THRESHOLDS, type AlertThreshold } from "../src/alertThreshold.js";
import {
  type Change,
  changeLabel,
  DATA_KIND_LABELS,
  DATA_KINDS,
  simulateCap,
  simulateMvd,
  simulateSvd,
  WINDOWS,
  type Window,
  wilsonInterval,
  windowLabel,
  windowSplit,
} from "../test/detectionSimulation.js";

const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");
const WINDOW_COUNT = Number(process.env.BENCH_WINDOWS ?? 4000);
const POWER_WINDOW_COUNT = Number(process.env.BENCH_POWER_WINDOWS ?? 1000);
const CONFIRM_WINDOW_COUNT = Number(process.env.BENCH_CONFIRM ?? 16000);
/** The confirming run's seed: another stream than any cell's first run. */
const confirmSeed = (seed: number) => seed + 104_729 * 1_000;
const BASE_SEED = Number(process.env.BENCH_SEED ?? 20261124);
const ONLY = new Set((process.env.BENCH_ONLY ?? "svd,mvd,cap").split(",").map((s) => s.trim()));
const MVD_SIGNALS = [2, 5, 10] as const;
const CELLS = (process.env.BENCH_CELLS ?? "")
  .split(";")
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
/**
 * Whether a row runs (BENCH_ONLY by its label's method, BENCH_CELLS); its seed is drawn either
 * way, so a reduced run sees the same draws as the full one.
 */
const wanted = (label: string) =>
  ONLY.has(label.slice(0, 3).toLowerCase()) && (CELLS.length === 0 || CELLS.some((c) => label.includes(c)));

let seedCounter = 0;
/** A fresh seed per cell, the same for every run. */
const nextSeed = () => BASE_SEED + 7919 * ++seedCounter;

const pct = (x: number) => `${(100 * x).toFixed(x < 0.01 ? 2 : 1)} %`;

interface Verdict {
  readonly label: string;
  readonly level: AlertThreshold;
  readonly rate: number;
  readonly ratio: number;
  readonly met: boolean;
  readonly evaluations: number;
  /** The same cell again with this many windows and the confirming seed. */
  readonly rerun: (windows: number) => { counts: Record<AlertThreshold, number>; evaluations: number };
  /** The first and the confirming run together, when this pair missed in the first. */
  confirmed?: { rate: number; ratio: number; met: boolean; evaluations: number };
}
const verdicts: Verdict[] = [];

/** The goal: within ±25 % of α at low and medium, at most 2 α at high. */
function meetsGoal(level: AlertThreshold, rate: number): boolean {
  const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
  return level === "high" ? rate <= 2 * alpha : rate >= 0.75 * alpha && rate <= 1.25 * alpha;
}

/**
 * The chance that a method breaching exactly α meets the goal in a cell of `n` windows: the
 * binomial noise of the windows alone (4,000 windows at medium: about 0.91, so about 6 of 60
 * medium cells miss by chance).
 */
function chanceOfMeetingGoal(level: AlertThreshold, n: number): number {
  const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
  let logPmf = n * Math.log1p(-alpha); // k = 0
  let chance = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logPmf += Math.log((n - k + 1) / k) + Math.log(alpha / (1 - alpha));
    if (meetsGoal(level, k / n)) chance += Math.exp(logPmf);
  }
  return chance;
}

function falseBreachRow(
  label: string,
  counts: Record<AlertThreshold, number>,
  evaluations: number,
  ms: number,
  rerun: Verdict["rerun"],
) {
  const parts = ALERT_THRESHOLDS.map((level) => {
    const alpha = ALERT_THRESHOLD_LEVELS[level].alpha;
    const k = counts[level];
    const rate = k / evaluations;
    const [lo, hi] = wilsonInterval(k, evaluations);
    const met = meetsGoal(level, rate);
    verdicts.push({ label, level, rate, ratio: rate / alpha, met, evaluations, rerun });
    return `${level} ${pct(rate)} [${pct(lo)}, ${pct(hi)}] ${(rate / alpha).toFixed(2)}α ${met ? "ok" : "MISS"}`;
  });
  console.log(`${label.padEnd(52)} ${parts.join(" | ")}  ${ms.toFixed(3)} ms/eval`);
}

function powerRow(label: string, k: number, evaluations: number, goal?: number) {
  const [lo, hi] = wilsonInterval(k, evaluations);
  const rate = k / evaluations;
  const goalText = goal === undefined ? "" : ` goal ≥ ${pct(goal)}: ${rate >= goal ? "met" : "NOT met"}`;
  console.log(`${label.padEnd(70)} ${pct(rate).padStart(8)} [${pct(lo)}, ${pct(hi)}]${goalText}`);
}

const started = performance.now();
console.log(
  `Detection benchmark — ${WINDOW_COUNT} windows per false-breach cell, ${POWER_WINDOW_COUNT} per power cell, seed ${BASE_SEED}, Node ${process.version}`,
);
console.log("α: low 5 %, medium 1 %, high 0.1 %; goal ±25 % of α at low and medium, ≤ 2α at high.");
console.log(`load average at start ${loadAverage()}\n`);

const noChange: Change = { kind: "none" };
const shifts: Change[] = [0.5, 1, 2].map((sigmas) => ({ kind: "shift", sigmas }));
const spread: Change = { kind: "spread", factor: 1.5 };

function svdSection(): void {
  console.log("SVD (evaluateSvdCalibrated) — false-breach rate, in control");
  for (const kind of DATA_KINDS) {
    for (const window of WINDOWS) {
      const label = `SVD ${DATA_KIND_LABELS[kind]} ${windowLabel(window)}`;
      const seed = nextSeed();
      if (!wanted(label)) continue;
      const { counts, cell } = simulateSvd(seed, kind, window, WINDOW_COUNT, noChange);
      falseBreachRow(label, counts, WINDOW_COUNT, cell.evaluationMs, (windows) => ({
        counts: simulateSvd(confirmSeed(seed), kind, window, windows, noChange).counts,
        evaluations: windows,
      }));
    }
  }
  console.log("\nSVD — power at medium");
  for (const kind of DATA_KINDS) {
    for (const window of WINDOWS) {
      for (const change of [...shifts, spread]) {
        const label = `SVD ${DATA_KIND_LABELS[kind]} ${windowLabel(window)} ${changeLabel(change)}`;
        const seed = nextSeed();
        if (!wanted(label)) continue;
        const { counts } = simulateSvd(seed, kind, window, POWER_WINDOW_COUNT, change, ["medium"]);
        const isGoal =
          kind === "normal" && window.sampleSize === 150 && change.kind === "shift" && change.sigmas === 1;
        powerRow(label, counts.medium, POWER_WINDOW_COUNT, isGoal ? 0.9 : undefined);
      }
    }
  }
  console.log("");
}

function mvdSection(): void {
  console.log("MVD (evaluateMvdCalibrated), signals equicorrelated 0.5 — false-breach rate, in control");
  for (const p of MVD_SIGNALS) {
    for (const kind of DATA_KINDS) {
      for (const window of WINDOWS) {
        const label = `MVD p=${p} ${DATA_KIND_LABELS[kind]} ${windowLabel(window)}`;
        const seed = nextSeed();
        if (!wanted(label)) continue;
        const { counts, cell } = simulateMvd(seed, kind, window, p, WINDOW_COUNT, noChange);
        falseBreachRow(label, counts, WINDOW_COUNT - cell.noData, cell.evaluationMs, (windows) => {
          const again = simulateMvd(confirmSeed(seed), kind, window, p, windows, noChange);
          return { counts: again.counts, evaluations: windows - again.cell.noData };
        });
      }
    }
  }
  console.log("\nMVD — power at medium (shift and spread of signal 0; the break flips signal 1)");
  for (const p of MVD_SIGNALS) {
    for (const kind of DATA_KINDS) {
      for (const window of WINDOWS) {
        const changes: Change[] = [...shifts, spread, { kind: "correlationBreak" }];
        for (const change of changes) {
          const label = `MVD p=${p} ${DATA_KIND_LABELS[kind]} ${windowLabel(window)} ${changeLabel(change)}`;
          const seed = nextSeed();
          if (!wanted(label)) continue;
          const { counts } = simulateMvd(seed, kind, window, p, POWER_WINDOW_COUNT, change);
          const isShiftGoal =
            kind === "normal" &&
            p === 5 &&
            window.sampleSize === 150 &&
            change.kind === "shift" &&
            change.sigmas === 1;
          const isBreakGoal =
            kind === "normal" && p === 2 && window.sampleSize === 150 && change.kind === "correlationBreak";
          powerRow(
            label,
            counts.medium,
            POWER_WINDOW_COUNT,
            isShiftGoal ? 0.8 : isBreakGoal ? 0.9 : undefined,
          );
        }
      }
    }
  }
  console.log("");
}

function capSection(): void {
  // Each window's training records give the dependence, as in the product; n are the evaluation records.
  const sizes = WINDOWS.map((w: Window) => ({ window: w, n: windowSplit(w).n }));
  console.log(
    "CAP (evaluateCapCalibrated) capability — false-breach rate of a process exactly at each level's target",
  );
  for (const kind of DATA_KINDS) {
    for (const { window, n } of sizes) {
      const label = `CAP ${DATA_KIND_LABELS[kind]} ${n} records`;
      const seed = nextSeed();
      if (!wanted(label)) continue;
      const { counts, cell } = simulateCap(seed, kind, window, WINDOW_COUNT, "target");
      falseBreachRow(label, counts, WINDOW_COUNT, cell.evaluationMs, (windows) => ({
        counts: simulateCap(confirmSeed(seed), kind, window, windows, "target").counts,
        evaluations: windows,
      }));
    }
  }
  console.log(
    "\nCAP — a capable, in-control process (true Ppk 1.5) at medium, newest point judged by rule 1",
  );
  for (const kind of DATA_KINDS) {
    for (const { window, n } of sizes) {
      const seed = nextSeed();
      if (!wanted(`CAP ${DATA_KIND_LABELS[kind]} ${n} records: capable`)) continue;
      const { counts, controlHits } = simulateCap(seed, kind, window, WINDOW_COUNT, 1.5, ["medium"]);
      powerRow(
        `CAP ${DATA_KIND_LABELS[kind]} ${n} records: capability breaches`,
        counts.medium,
        WINDOW_COUNT,
      );
      powerRow(
        `CAP ${DATA_KIND_LABELS[kind]} ${n} records: rule 1 on the new point (0.27 % expected)`,
        controlHits,
        WINDOW_COUNT,
      );
    }
  }
  console.log("\nCAP — power at medium: a process at Ppk 1.0 against the medium target 1.33");
  for (const kind of DATA_KINDS) {
    for (const { window, n } of sizes) {
      const label = `CAP ${DATA_KIND_LABELS[kind]} ${n} records Ppk 1.0`;
      const seed = nextSeed();
      if (!wanted(label)) continue;
      const { counts } = simulateCap(seed, kind, window, POWER_WINDOW_COUNT, 1.0, ["medium"]);
      powerRow(label, counts.medium, POWER_WINDOW_COUNT, kind === "normal" && n === 600 ? 0.8 : undefined);
    }
  }
  console.log("");
}

// In this order: each cell draws the next seed.
svdSection();
mvdSection();
capSection();

const firstMissed = verdicts.filter((v) => !v.met);
if (CONFIRM_WINDOW_COUNT > 0 && firstMissed.length > 0) {
  console.log(
    `Confirming run: each cell with a pair outside the goal once more, ${CONFIRM_WINDOW_COUNT} windows, another seed; judged on both runs together`,
  );
  for (const label of [...new Set(firstMissed.map((v) => v.label))]) {
    const again = firstMissed.find((v) => v.label === label)?.rerun(CONFIRM_WINDOW_COUNT);
    if (!again) continue;
    const parts: string[] = [];
    for (const v of firstMissed.filter((x) => x.label === label)) {
      const alpha = ALERT_THRESHOLD_LEVELS[v.level].alpha;
      const k = again.counts[v.level];
      const evaluations = v.evaluations + again.evaluations;
      const pooled = Math.round(v.rate * v.evaluations) + k;
      const rate = pooled / evaluations;
      const [lo, hi] = wilsonInterval(pooled, evaluations);
      const met = meetsGoal(v.level, rate);
      v.confirmed = { rate, ratio: rate / alpha, met, evaluations };
      parts.push(
        `${v.level} ${v.ratio.toFixed(2)}α, then ${(k / again.evaluations / alpha).toFixed(2)}α; together ${pct(rate)} [${pct(lo)}, ${pct(hi)}] ${(rate / alpha).toFixed(2)}α ${
          met ? "ok" : "MISS"
        }`,
      );
    }
    console.log(`${label.padEnd(52)} ${parts.join(" | ")}`);
  }
  console.log("");
}
const missed = verdicts.filter((v) => !v.met && !v.confirmed?.met);
console.log(
  `Summary: ${verdicts.length - firstMissed.length} of ${verdicts.length} false-breach (cell, level) pairs meet the goal in the first run; ${(
    (performance.now() - started) / 1000
  ).toFixed(0)} s.`,
);
if (CONFIRM_WINDOW_COUNT > 0 && firstMissed.length > 0) {
  console.log(
    `  with the confirming runs: ${verdicts.length - missed.length} of ${verdicts.length} meet it (a pair that missed is judged on its first and confirming runs' windows together)`,
  );
}
const byChance = verdicts.reduce((sum, v) => sum + chanceOfMeetingGoal(v.level, v.evaluations), 0);
console.log(
  `  a method breaching exactly α would meet the goal in ${byChance.toFixed(1)} of these ${verdicts.length} pairs in a first run on average: the windows' binomial noise alone`,
);
for (const prefix of ["SVD", "MVD", "CAP"]) {
  for (const kind of DATA_KINDS) {
    const list = missed.filter((v) => v.label.startsWith(prefix) && v.label.includes(DATA_KIND_LABELS[kind]));
    if (list.length > 0) {
      const cells = list.map(
        (v) =>
          `${v.label.replace(`${DATA_KIND_LABELS[kind]} `, "")} ${v.level} ${v.ratio.toFixed(2)}α` +
          (v.confirmed ? `, ${v.confirmed.ratio.toFixed(2)}α with the confirming run` : ""),
      );
      console.log(`  misses, ${DATA_KIND_LABELS[kind]}: ${cells.join("; ")}`);
    }
  }
}
console.log(`load average at end ${loadAverage()}`);
