// npm run bench:capability — how long the capability view's route takes for 10,000 records
// (issue #14: "Charts load in under 1 s for 10,000 records"; the server's part of it).
// The real app in this process (test helpers: PGlite in memory, or a fresh PostgreSQL database
// when DATABASE_URL is set), one line with a measurement whose LCL/UCL are formulas of another
// signal (each record's limits computed), two model numbers, 10,000 records a minute apart.
// Sends GET /api/lines/:lineId/signals/:signalId/capability for the whole period BENCH_RUNS times
// (default 10, after 2 warm-up requests) and prints the median and the slowest, and their ratio
// to the 1 s goal (≤ 1 meets it), with the load average (the machine is shared).
import type { TCapabilityView } from "@linewatch/contracts";
import { partRecords, signals, spcLimits, stations } from "../src/db/schema/index.js";
import { createTenant } from "../test/factories.js";
import { closeTestApp, createTestApp } from "../test/helpers/app.js";
import { loadAverage } from "./load.js";

const RECORDS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL_MS = 1000;

console.log(`load average at start ${loadAverage()}`);
const t = await createTestApp();
try {
  const db = t.database.db;
  const tn = await createTenant(t.app, db);
  const [station] = await db
    .insert(stations)
    .values({ customerId: tn.customer.id, lineId: tn.line.id, name: "OP10", nextNumSlot: 2 })
    .returning();
  if (!station) throw new Error("no station");
  const [bore, nominal] = await db
    .insert(signals)
    .values(
      ["Bore", "Bore nominal"].map((name, slot) => ({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        stationId: station.id,
        name,
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
    )
    .returning();
  if (!bore || !nominal) throw new Error("no signals");
  await db.insert(spcLimits).values({
    customerId: tn.customer.id,
    lineId: tn.line.id,
    signalId: bore.id,
    modelNumber: "*",
    lslFormula: "9",
    lclFormula: `{${nominal.id}} - 0.3`,
    uclFormula: `{${nominal.id}} + 0.3`,
    uslFormula: "11",
  });
  const t0 = Date.UTC(2026, 10, 1);
  for (let start = 0; start < RECORDS; start += 1000) {
    await db.insert(partRecords).values(
      Array.from({ length: 1000 }, (_, k) => {
        const i = start + k;
        return {
          stationId: station.id,
          ts: new Date(t0 + i * 60_000),
          partId: `P-${i}`,
          modelNumber: i % 2 ? "A-1" : "B-2",
          numValues: [10 + Math.sin(i * 1.7) * 0.1 + (i % 500 === 0 ? 0.5 : 0), 10],
        };
      }),
    );
  }
  const from = new Date(t0 - 60_000).toISOString();
  const to = new Date(t0 + RECORDS * 60_000).toISOString();
  const url = `/api/lines/${tn.line.id}/signals/${bore.id}/capability?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  const once = async () => {
    const started = performance.now();
    const res = await t.app.inject({ method: "GET", url, headers: tn.userHeaders });
    const ms = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
    return { ms, view: res.json() as TCapabilityView, bytes: res.body.length };
  };
  await once();
  await once();
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof once>> | null = null;
  for (let i = 0; i < RUNS; i++) {
    last = await once();
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  const max = times.at(-1) as number;
  const v = last?.view;
  console.log(
    `capability view, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}: ${v?.recordCount} records, ${v?.points.length} points drawn, ${v?.models.length} model rows, ${((last?.bytes ?? 0) / 1024).toFixed(0)} KiB`,
  );
  console.log(
    `route time over ${RUNS} runs: median ${median.toFixed(0)} ms (ratio to the 1 s goal ${(median / GOAL_MS).toFixed(2)}), slowest ${max.toFixed(0)} ms (ratio ${(max / GOAL_MS).toFixed(2)})`,
  );
} finally {
  await closeTestApp(t);
  console.log(`load average at end ${loadAverage()}`);
}
