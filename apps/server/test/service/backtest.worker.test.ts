// The backtest runs the worker's code (issue #18 §1): the demo line's monitors are evaluated by the
// worker on a simulated clock (the live simulator's parts stored as they fall due, test/helpers/
// demo-clock.ts), then each monitor is backtested over the same slots; every stored evaluation's
// state, score and threshold equals its backtest slot's, and the alerts the worker opened and
// resolved are the ones the backtest would have.
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { alertEvents, alerts, evaluations, monitors } from "../../src/db/schema/index.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createServices } from "../../src/services.js";
import { createTestDatabase } from "../helpers/db.js";
import { startDemoClock } from "../helpers/demo-clock.js";

const MINUTE = 60_000;
/** The seed ends in the past, so no simulated part is stamped after the real clock. */
const SEED_END = Date.now() - 60 * MINUTE;
/** Simulated minutes the worker runs: 7 slots of each 5-minute demo monitor. */
const RUN_MINUTES = 30;

let database: Database;
let startedAt = 0;
afterAll(async () => {
  await database?.close();
});

beforeAll(async () => {
  database = await createTestDatabase();
  const demo = await startDemoClock(database.db, { seedEnd: SEED_END });
  startedAt = demo.startedAt;
  for (let clock = demo.startedAt; clock <= demo.startedAt + RUN_MINUTES * MINUTE; clock += 5_000)
    await demo.advanceTo(clock);
  await demo.stop();
}, 400_000);

describe("the backtest of a period the worker evaluated", () => {
  it("gives every stored evaluation's state, score and threshold, and the worker's alerts", async () => {
    const db = database.db;
    const services = createServices({ db, publicUrl: "http://localhost:8080" });
    let compared = 0;
    let alertsCompared = 0;
    for (const m of await db.select().from(monitors)) {
      const stored = await db
        .select()
        .from(evaluations)
        .where(eq(evaluations.monitorId, m.id))
        .orderBy(asc(evaluations.slot));
      if (stored.length === 0) continue;
      const first = stored[0]?.slot as Date;
      const last = stored.at(-1)?.slot as Date;
      const ctx = { customerId: m.customerId } as AuthContext;
      const b = await services.backtest.backtest(ctx, {
        monitor_uuid: m.id,
        period: {
          from: new Date(first.getTime() - m.frequency * MINUTE).toISOString(),
          to: last.toISOString(),
        },
      });
      expect(b.slots.map((s) => s.slot)).toEqual(stored.map((e) => e.slot.toISOString()));
      stored.forEach((e, i) => {
        const s = b.slots[i];
        // The database keeps no negative zero (JSON does not either): −0 compares as 0.
        const z = (x: number | null | undefined) => (x == null ? x : x + 0);
        expect({ slot: s?.slot, state: s?.state, score: z(s?.score), threshold: z(s?.threshold) }).toEqual({
          slot: e.slot.toISOString(),
          state: e.state,
          score: e.score,
          threshold: e.threshold,
        });
        compared++;
      });
      // The worker evaluated at each slot's time: its alerts opened and resolved at those slots.
      const real = await db
        .select()
        .from(alerts)
        .where(and(eq(alerts.monitorId, m.id), isNotNull(alerts.monitorId)))
        .orderBy(asc(alerts.openedAt));
      const resolvedAt = async (alertId: string) =>
        (
          await db
            .select({ at: alertEvents.at })
            .from(alertEvents)
            .where(and(eq(alertEvents.alertId, alertId), eq(alertEvents.kind, "AUTO_RESOLVED")))
        )[0]?.at ?? null;
      const worker = await Promise.all(
        real.map(async (a) => ({
          opened_at: a.openedAt.toISOString(),
          resolved_at: (await resolvedAt(a.id))?.toISOString() ?? null,
          count: a.count,
          rule: a.rule,
        })),
      );
      expect(
        b.alerts.map(({ opened_at, resolved_at, count, rule }) => ({ opened_at, resolved_at, count, rule })),
      ).toEqual(worker);
      alertsCompared += worker.length;
    }
    console.log(
      `${compared} evaluations and ${alertsCompared} alerts compared (simulator from ${new Date(startedAt).toISOString()})`,
    );
    expect(compared).toBeGreaterThan(20);
    expect(alertsCompared).toBeGreaterThan(0);
  });
});
