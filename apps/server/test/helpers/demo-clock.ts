// The demo on a simulated clock (test/service/demo.alerts.test.ts, bench/demo-quiet.run.ts): the
// demo seeded to end at `seedEnd`, its monitors due when the simulator starts, the live parts
// stored as they fall due and the worker (with the alert rules) evaluating what is due, every
// `advanceTo` call moving the clock.
import { eq } from "drizzle-orm";
import type { Db } from "../../src/db/client.js";
import { customers, lines, monitors } from "../../src/db/schema/index.js";
import { createLiveParts } from "../../src/modules/demo/demo.live.js";
import type { LiveSchedule } from "../../src/modules/demo/demo.live.schedule.js";
import { findLiveResume } from "../../src/modules/demo/demo.live.server.js";
import { seedDemoIfEmpty } from "../../src/modules/demo/demo.seed.js";
import { createServices } from "../../src/services.js";
import { createOnEvaluated } from "../../src/worker/alerts/apply.js";
import { startWorker } from "../../src/worker/worker.js";

/** Seeding and start-up take this long in `npm start` before the simulator and worker run. */
export const DEMO_STARTUP_MS = 20_000;

export async function startDemoClock(
  db: Db,
  opts: { seedEnd: number; seed?: number; schedule?: LiveSchedule },
) {
  const services = createServices({ db, publicUrl: "http://localhost:8080" });
  await seedDemoIfEmpty(db, { now: new Date(opts.seedEnd) });
  // The seed makes its monitors due when it ends: on the simulated clock, at the simulator's start.
  const startedAt = opts.seedEnd + DEMO_STARTUP_MS;
  await db.update(monitors).set({ nextRunAt: new Date(startedAt) });
  const [demo] = await db.select().from(customers).where(eq(customers.isDemo, true));
  if (!demo) throw new Error("no demo customer");
  const plantOfLine = new Map((await db.select().from(lines)).map((l) => [l.name, l.plantId]));
  const live = createLiveParts({
    rate: 1,
    startedAt,
    seed: opts.seed,
    schedule: opts.schedule,
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
  return {
    startedAt,
    /**
     * Moves the clock to `at`, stores the parts due by then (throws on a refused one) and lets the
     * worker evaluate every monitor due; answers how many evaluations ran.
     */
    async advanceTo(at: number): Promise<number> {
      clock = at;
      const byPlant = new Map<string, unknown[]>();
      for (const r of live.due(clock)) {
        const plantId = plantOfLine.get(r.line);
        if (!plantId) throw new Error(`no line ${r.line}`);
        byPlant.set(plantId, [...(byPlant.get(plantId) ?? []), r.record]);
      }
      for (const [plantId, records] of byPlant) {
        const stored = await services.partRecords.ingest(
          { customerId: demo.id, plantId },
          records,
          {},
          // The simulated clock is the server's: its parts are not ahead of it.
          { now: clock },
        );
        if (stored.rejected.length > 0)
          throw new Error(`records refused: ${JSON.stringify(stored.rejected)}`);
      }
      let evaluated = 0;
      for (let n = await worker.tick(); n > 0; n = await worker.tick()) evaluated += n;
      return evaluated;
    },
    stop: () => worker.stop(),
  };
}
