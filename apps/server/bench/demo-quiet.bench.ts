// npm run bench:demo-quiet — false alerts per day of the six demo monitors on an undisturbed
// simulated day (demo-quiet.run.ts). BENCH_HOURS (default 24), BENCH_SEEDS (comma-separated live
// seeds; default the demo's own), BENCH_WARMUP_MIN (default 100: the windows of 100 parts hold only live
// parts after that). PGlite in a temporary folder, or PostgreSQL when DATABASE_URL is set.
import { loadavg } from "node:os";
import { openBenchDatabase } from "./bench-db.js";
import { type QuietMonitorCount, runQuietDay } from "./demo-quiet.run.js";
import { loadAverage } from "./load.js";

const hours = Number(process.env.BENCH_HOURS ?? 24);
const seeds: (number | undefined)[] = process.env.BENCH_SEEDS
  ? process.env.BENCH_SEEDS.split(",").map(Number)
  : [undefined];
const warmUpMinutes = Number(process.env.BENCH_WARMUP_MIN ?? 100);

console.log(`load average at start ${loadAverage()}`);
const totals = new Map<string, QuietMonitorCount>();
for (const seed of seeds) {
  const bench = await openBenchDatabase(4);
  const started = performance.now();
  try {
    const r = await runQuietDay(bench.database, { hours, seed, warmUpMinutes });
    console.log(
      `seed ${seed ?? "of the demo"}: ${hours} h on ${bench.label}, ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadavg()[0]?.toFixed(1)}`,
    );
    for (const m of r.monitors) {
      console.log(
        `  ${m.type.padEnd(3)} ${m.monitor.padEnd(24)} evaluations ${m.evaluations}, breaches ${m.breaches}, alerts ${m.alerts}, no data ${m.noData}, errors ${m.errors}`,
      );
      const t = totals.get(m.monitor);
      totals.set(
        m.monitor,
        t
          ? {
              ...t,
              evaluations: t.evaluations + m.evaluations,
              breaches: t.breaches + m.breaches,
              alerts: t.alerts + m.alerts,
              noData: t.noData + m.noData,
              errors: t.errors + m.errors,
            }
          : { ...m },
      );
    }
  } finally {
    await bench.database.close();
    await bench.drop();
  }
}
const days = (hours / 24) * seeds.length;
console.log(`\nper undisturbed day (${days} simulated days, alert threshold medium: α 0.01 per evaluation):`);
console.log("| monitor | type | evaluations/day | breaches/day (share of judged) | alerts opened/day |");
console.log("|---|---|---|---|---|");
for (const m of totals.values()) {
  // Of the evaluations that judged something (NO_DATA and ERROR judge nothing).
  const judged = m.evaluations - m.noData - m.errors;
  const share = judged > 0 ? ((100 * m.breaches) / judged).toFixed(2) : "–";
  console.log(
    `| ${m.monitor} | ${m.type.toUpperCase()} | ${(m.evaluations / days).toFixed(0)} | ${(m.breaches / days).toFixed(1)} (${share} %) | ${(m.alerts / days).toFixed(1)} |`,
  );
}
console.log(`load average at end ${loadAverage()}`);
