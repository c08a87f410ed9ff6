// The demo's in-control stretches must stay quiet: the six demo monitors over a simulated day of
// the live simulator with no disturbances, through the worker's evaluation code and alert rules
// (the same path as test/service/demo.alerts.test.ts, on a simulated clock). What counts: the
// breaches and the alerts opened per monitor, every one of them false (nothing is disturbed).
import type { Database } from "../src/db/client.js";
import { alerts, evaluations, monitors } from "../src/db/schema/index.js";
import type { LiveSchedule } from "../src/modules/demo/demo.live.schedule.js";
import { startDemoClock } from "../test/helpers/demo-clock.js";

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
 * one part a minute per station with no disturbances (test/helpers/demo-clock.ts), storing what is
 * due and letting the worker evaluate every `stepMinutes` (the demo monitors run every 5). The first `warmUpMinutes` are
 * evaluated but not counted: their windows still hold seeded records. Seeds: the live parts' seed.
 */
export async function runQuietDay(
  database: Database,
  opts: { hours: number; seed?: number; warmUpMinutes?: number; stepMinutes?: number },
): Promise<QuietDayResult> {
  const db = database.db;
  const warmUp = (opts.warmUpMinutes ?? 0) * MINUTE;
  const step = (opts.stepMinutes ?? 5) * MINUTE;
  // The seed ends far enough in the past that no simulated part is stamped after the real clock.
  const seedEnd = Date.now() - (opts.hours * 60 + warmUp / MINUTE + 60) * MINUTE;
  const demo = await startDemoClock(db, { seedEnd, seed: opts.seed, schedule: QUIET_SCHEDULE });
  const end = demo.startedAt + warmUp + opts.hours * 60 * MINUTE;
  try {
    for (let clock = demo.startedAt; clock <= end; clock += step) await demo.advanceTo(clock);
  } finally {
    await demo.stop();
  }
  const counted = demo.startedAt + warmUp;
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
