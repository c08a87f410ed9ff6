// Benchmark of the two heavy evaluations against the same computation in NumPy/SciPy
// (reference/make_vectors.py run by bench/numpy_bench.py). Run: npm run bench:stats (root) or
// npm run bench -w packages/stats. Target (issue): MVD within 3× of NumPy.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { choleskyDecompose } from "../src/cholesky.js";
import { evaluateMvd } from "../src/evaluateMvd.js";
import { evaluateMvdCalibrated } from "../src/evaluateMvdCalibrated.js";
import { evaluateSvd } from "../src/evaluateSvd.js";
import { evaluateSvdCalibrated } from "../src/evaluateSvdCalibrated.js";
import { createMatrix, type Matrix } from "../src/matrix.js";
import { normalGenerator } from "../test/random.js";

const P = 20;
const M = 2400; // training rows
const N = 600; // evaluation rows
const REPEATS = 100;
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");
const loadAtStart = loadAverage();
const LEVEL = "medium";

/** rows × P values with a random correlation structure (L = chol(A Aᵀ + P I)), centred at 50. */
function correlatedRows(next: () => number, l: Matrix, rows: number, shift: number): Matrix {
  const out = createMatrix(rows, P);
  const z = new Float64Array(P);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < P; k++) z[k] = next();
    for (let j = 0; j < P; j++) {
      let v = 0;
      for (let k = 0; k <= j; k++) v += (l.data[j * P + k] as number) * (z[k] as number);
      out.data[i * P + j] = 50 + shift + v;
    }
  }
  return out;
}

function medianMs(run: () => unknown): number {
  for (let i = 0; i < Math.max(3, REPEATS / 10); i++) run();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return ((times[(REPEATS - 1) >> 1] as number) + (times[REPEATS >> 1] as number)) / 2;
}

const next = normalGenerator(20261122);
const a = createMatrix(P, P, Float64Array.from({ length: P * P }, next));
const c = createMatrix(P, P);
for (let i = 0; i < P; i++) {
  for (let j = 0; j < P; j++) {
    let v = i === j ? P : 0;
    for (let k = 0; k < P; k++) v += (a.data[i * P + k] as number) * (a.data[j * P + k] as number);
    c.data[i * P + j] = v;
  }
}
const l = choleskyDecompose(c);
const mvdTrain = correlatedRows(next, l, M, 0);
const mvdEval = correlatedRows(next, l, N, 0.3);
const svdTrain = Float64Array.from({ length: M }, () => 10 + next());
const svdEval = Float64Array.from({ length: N }, () => 10.15 + next());

const mvdResult = evaluateMvd(mvdTrain, mvdEval, LEVEL);
const svdResult = evaluateSvd(svdTrain, svdEval, LEVEL);
const mvdCalibrated = evaluateMvdCalibrated(mvdTrain, mvdEval, LEVEL);
const svdCalibrated = evaluateSvdCalibrated(svdTrain, svdEval, LEVEL);
if (
  mvdResult.state === "NO_DATA" ||
  svdResult.state === "NO_DATA" ||
  mvdCalibrated.state === "NO_DATA" ||
  svdCalibrated.state === "NO_DATA"
)
  throw new Error("benchmark data gave NO_DATA");
const tsMvdMs = medianMs(() => evaluateMvd(mvdTrain, mvdEval, LEVEL));
const tsSvdMs = medianMs(() => evaluateSvd(svdTrain, svdEval, LEVEL));
const tsMvdCalibratedMs = medianMs(() => evaluateMvdCalibrated(mvdTrain, mvdEval, LEVEL));
const tsSvdCalibratedMs = medianMs(() => evaluateSvdCalibrated(svdTrain, svdEval, LEVEL));

interface NumpyTimes {
  skipped?: string;
  mvdMs?: number;
  svdMs?: number;
  mvdScore?: number;
  mvdUcl?: number;
  mvdPValue?: number;
  svdScore?: number;
  mvdCalibratedMs?: number;
  svdCalibratedMs?: number;
  mvdCalibratedPValue?: number;
  mvdCalibratedT2Mean?: number;
  svdCalibratedThreshold?: number;
  numpy?: string;
}

function runNumpy(): NumpyTimes {
  const dir = mkdtempSync(join(tmpdir(), "linewatch-stats-bench-"));
  try {
    const write = (name: string, data: Float64Array) =>
      writeFileSync(join(dir, name), new Uint8Array(data.buffer));
    write("mvd-train.f64", mvdTrain.data);
    write("mvd-eval.f64", mvdEval.data);
    write("svd-train.f64", svdTrain);
    write("svd-eval.f64", svdEval);
    const script = fileURLToPath(new URL("./numpy_bench.py", import.meta.url));
    // One BLAS thread: on a shared machine a multi-threaded NumPy measures the other jobs, and the
    // TypeScript side runs on one thread too.
    const run = spawnSync("python3", [script, dir, `${M}`, `${N}`, `${P}`, `${REPEATS}`, LEVEL], {
      encoding: "utf8",
      env: { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" },
    });
    if (run.error !== undefined) return { skipped: `python3 could not be started (${run.error.message})` };
    if (run.status !== 0) return { skipped: `python3 failed: ${run.stderr.trim().split("\n").at(-1)}` };
    return JSON.parse(run.stdout) as NumpyTimes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const numpy = runNumpy();
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
const relative = (x: number, y: number | undefined) =>
  y === undefined ? "n/a" : (Math.abs(x - y) / Math.abs(y)).toExponential(1);
const rows = [
  ["MVD (p = 20, m = 2400, n = 600)", tsMvdMs, numpy.mvdMs],
  ["SVD (m = 2400, n = 600)", tsSvdMs, numpy.svdMs],
  ["MVD calibrated (p = 20, m = 2400, n = 600)", tsMvdCalibratedMs, numpy.mvdCalibratedMs],
  ["SVD calibrated (m = 2400, n = 600)", tsSvdCalibratedMs, numpy.svdCalibratedMs],
] as const;

console.log(
  `@linewatch/stats benchmark — median of ${REPEATS} runs after warm-up, Node ${process.version}; NumPy on one BLAS thread; load average at start ${loadAtStart}`,
);
console.log(
  `${"computation".padEnd(46)}${"TypeScript".padStart(14)}${"NumPy/SciPy".padStart(14)}${"TS / NumPy".padStart(12)}`,
);
for (const [name, ts, np] of rows) {
  const npText = np === undefined ? "skipped" : fmt(np);
  const ratio = np === undefined ? "n/a" : `${(ts / np).toFixed(2)}×`;
  console.log(`${name.padEnd(46)}${fmt(ts).padStart(14)}${npText.padStart(14)}${ratio.padStart(12)}`);
}
if (numpy.skipped !== undefined) {
  console.log(`NumPy column skipped: ${numpy.skipped}`);
} else {
  console.log(
    `agreement with NumPy (relative): MVD score ${relative(mvdResult.score, numpy.mvdScore)}, UCL ${relative(mvdResult.ucl, numpy.mvdUcl)}, ` +
      `p-value ${relative(mvdResult.pValue, numpy.mvdPValue)}; SVD score ${relative(svdResult.score, numpy.svdScore)} (NumPy ${numpy.numpy})`,
  );
  console.log(
    `calibrated agreement (relative): MVD p ${relative(mvdCalibrated.pValue, numpy.mvdCalibratedPValue)}, T²_mean ${relative(mvdCalibrated.t2Mean, numpy.mvdCalibratedT2Mean)}; ` +
      `SVD threshold ${relative(svdCalibrated.threshold, numpy.svdCalibratedThreshold)}`,
  );
  const ratio = tsMvdMs / (numpy.mvdMs as number);
  console.log(`MVD target (within 3× of NumPy): ${ratio <= 3 ? "met" : "NOT met"} at ${ratio.toFixed(2)}×`);
  const calibratedRatio = tsMvdCalibratedMs / (numpy.mvdCalibratedMs as number);
  console.log(
    `MVD calibrated target (within 3× of NumPy): ${calibratedRatio <= 3 ? "met" : "NOT met"} at ${calibratedRatio.toFixed(2)}×`,
  );
}
console.log(`load average at end ${loadAverage()}`);
