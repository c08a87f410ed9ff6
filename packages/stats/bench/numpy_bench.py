#!/usr/bin/env python3
"""NumPy/SciPy side of bench/stats.bench.ts: times the reference implementation of the evaluations
the product runs (reference/make_vectors.py: mvd_eval_calibrated, svd_eval_calibrated) on the data
the TypeScript side wrote. The uncorrected mvd_eval / svd_eval are no longer timed: issue 29 removed
their TypeScript counterparts, evaluateMvd / evaluateSvd, from the package. The TypeScript side
starts it with OPENBLAS_NUM_THREADS=1 (and the OpenMP / MKL equivalents) so NumPy runs on one
thread, as the TypeScript does.
Usage: numpy_bench.py DIR M N P REPEATS LEVEL [LARGE], LARGE = "p:repeats,…" for the large
calibrated MVD windows (mvd-large-{p}-train.f64 / -eval.f64, M and N rows). Prints one JSON object
on stdout."""
import json, os, statistics, sys, time

out = {}
try:
    import numpy as np
except ImportError:
    print(json.dumps({"skipped": "numpy is not installed for python3"}))
    sys.exit(0)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
try:
    from make_vectors import mvd_eval_calibrated, svd_eval_calibrated
except ImportError as e:
    print(json.dumps({"skipped": "the reference needs SciPy: %s" % e}))
    sys.exit(0)

d, m, n, p, repeats, level = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
load = lambda name, shape: np.fromfile(os.path.join(d, name), dtype="<f8").reshape(shape)
mvd_train, mvd_eval_rows = load("mvd-train.f64", (m, p)), load("mvd-eval.f64", (n, p))
svd_train, svd_eval_values = load("svd-train.f64", (m,)), load("svd-eval.f64", (n,))


def median_ms(f):
    for _ in range(max(3, repeats // 10)):
        f()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


out["mvdCalibratedMs"] = median_ms(lambda: mvd_eval_calibrated(mvd_train, mvd_eval_rows, level))
out["svdCalibratedMs"] = median_ms(lambda: svd_eval_calibrated(svd_train, svd_eval_values, level))
mvd_cal = mvd_eval_calibrated(mvd_train, mvd_eval_rows, level)
out["mvdCalibratedPValue"] = mvd_cal["pValue"]
out["mvdCalibratedT2Mean"] = mvd_cal["t2Mean"]
svd_cal = svd_eval_calibrated(svd_train, svd_eval_values, level)
out["svdCalibratedThreshold"] = svd_cal["threshold"]
out["svdCalibratedScore"] = svd_cal["score"]
# The large windows (issue 27): wall and CPU time (process_time, this process's user + system) of
# one calibrated evaluation, the median of the runs, as the TypeScript reports them.
large = []
for spec in (sys.argv[7].split(",") if len(sys.argv) > 7 and sys.argv[7] else []):
    lp, lrepeats = (int(x) for x in spec.split(":"))
    train = load("mvd-large-%d-train.f64" % lp, (m, lp))
    ev = load("mvd-large-%d-eval.f64" % lp, (n, lp))
    walls, cpus = [], []
    for _ in range(lrepeats):
        w0, c0 = time.perf_counter(), time.process_time()
        result = mvd_eval_calibrated(train, ev, level)
        walls.append((time.perf_counter() - w0) * 1e3)
        cpus.append((time.process_time() - c0) * 1e3)
    large.append({"p": lp, "wallMs": statistics.median(walls), "cpuMs": statistics.median(cpus),
                  "pValue": result["pValue"], "t2Mean": result["t2Mean"]})
out["large"] = large
out["numpy"] = np.__version__
print(json.dumps(out))
