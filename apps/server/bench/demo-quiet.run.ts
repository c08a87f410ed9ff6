// The demo's in-control stretches must stay quiet: the six demo monitors over a simulated day of
// the live simulator with no disturbances, through the worker's evaluation code and alert rules
// (the same path as test/service/demo.alerts.test.ts, on a simulated clock). What counts: the
// breaches and the alerts opened per monitor, every one of them false (nothing is disturbed).
import { eq } from "drizzle-orm";
import type { Database } from "../src/db/client.js";
import { alerts, customers, evaluations, lines, monitors } from "../src/db/schema/index.js";
import { createLiveParts } from "../src/modules/demo/demo.live.js";
import type { LiveSchedule } from "../src/modules/demo/demo.live.schedule.js";
import { findLiveResume } from "../src/modules/demo/demo.live.server.js";
import { seedDemoIfEmpty } from "../src/modules/demo/demo.seed.js";
import { createServices } from "../src/services.js";
import { createOnEvaluated } from "../src/worker/alerts/apply.js";
import { startWorker } from "../src/worker/worker.js";

const MINUTE = 60_000;
/** The simulator's cycle with nothing in it: the lines run in control. */
export const QUIET_SCHEDULE: LiveSchedule = { cycleMinutes: 60, disturbances: [] };

export type QuietMonitorCount = {
  monitor: string;
  type: string;
  evaluations: number;
  breaches: number;
  noData: number;
  errors: number;
  alerts: number;
};

export type QuietDayResult = { hours: number; monitors: QuietMonitorCount[] };

/**
 * Seeds the demo into `database` (empty), then runs the live parts of `hours` simulated hours at
 * one part a minute per station with no disturbances, storing what is due and letting the worker
 * evaluate every `stepMinutes` (the demo monitors run every 5). The first `warmUpMinutes` are
 * evaluated but not counted: their windows still hold seeded records. Seeds: the live parts' seed.
 */
export async function runQuietDay(
  database: Database,
  opts: { hours: number; seed?: number; warmUpMinutes?: number; stepMinutes?: number },
): Promise<QuietDayResult> {
  const db = database.db;
  const services = createServices({ db, publicUrl: "http://localhost:8080" });
  const warmUp = (opts.warmUpMinutes ?? 0) * MINUTE;
  const step = (opts.stepMinutes ?? 5) * MINUTE;
  // The seed ends far enough in the past that no simulated part is stamped after the real clock.
  const seedEnd = Date.now() - (opts.hours * 60 + warmUp / MINUTE + 60) * MINUTE;
  await seedDemoIfEmpty(db, { now: new Date(seedEnd) });
  const startedAt = seedEnd + 20_000;
  await db.update(monitors).set({ nextRunAt: new Date(startedAt) });
  const [demo] = await db.select().from(customers).where(eq(customers.isDemo, true));
  if (!demo) throw new Error("no demo customer");
  const plantOfLine = new Map((await db.select().from(lines)).map((l) => [l.name, l.plantId]));
  const live = createLiveParts({
    rate: 1,
    startedAt,
    seed: opts.seed,
    schedule: QUIET_SCHEDULE,
    resume: (await findLiveResume(db)) ?? undefined,
  });
  let clock = startedAt;
  const worker = startWorker({
    db,
    now: () => new Date(clock),
    pollMs: 5_000,
    leaseMs: 120_000,
    autoStart: false,
    onEvaluated: createOnEvaluated({ now: () => new Date(clock) }),
  });
  const end = startedAt + warmUp + opts.hours * 60 * MINUTE;
  try {
    for (; clock <= end; clock += step) {
      const byPlant = new Map<string, unknown[]>();
      for (const r of live.due(clock)) {
        const plantId = plantOfLine.get(r.line);
        if (!plantId) throw new Error(`no line ${r.line}`);
        byPlant.set(plantId, [...(byPlant.get(plantId) ?? []), r.record]);
      }
      for (const [plantId, records] of byPlant) {
        const stored = await services.partRecords.ingest({ customerId: demo.id, plantId }, records);
        if (stored.rejected.length > 0)
          throw new Error(`records refused: ${JSON.stringify(stored.rejected[0])}`);
      }
      while ((await worker.tick()) > 0) {}
    }
  } finally {
    await worker.stop();
  }
  const counted = startedAt + warmUp;
  const evaluated = await db.select().from(evaluations);
  const opened = await db.select().from(alerts);
  const result: QuietMonitorCount[] = [];
  for (const m of await db.select().from(monitors).orderBy(monitors.type, monitors.name)) {
    const mine = evaluated.filter((e) => e.monitorId === m.id && e.slot.getTime() >= counted);
    result.push({
      monitor: m.name,
      type: m.type,
      evaluations: mine.length,
      breaches: mine.filter((e) => e.state === "BREACH").length,
      noData: mine.filter((e) => e.state === "NO_DATA").length,
      errors: mine.filter((e) => e.state === "ERROR").length,
      alerts: opened.filter((a) => a.monitorId === m.id && a.openedAt.getTime() >= counted).length,
    });
  }
  return { hours: opts.hours, monitors: result };
}
