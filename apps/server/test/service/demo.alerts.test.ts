// The demo's promise (README "Line simulator"): within 15 minutes of `npm start` the line overview
// shows an alert of every monitor type. The demo monitors are seeded due at once and evaluated
// every 5 minutes; here the simulator's parts are stored directly on a simulated clock and the
// worker evaluates each slot, so the whole path (disturbances → window → evaluation → alert
// rules) is exercised. The 10-minute slot must already have alerted: the 15-minute one is margin.
import {
  ZCapCalibratedDetails,
  ZMvdCalibratedDetails,
  ZNoDataDetails,
  ZSvdCalibratedDetails,
} from "@linewatch/contracts";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { alerts, evaluations, monitors } from "../../src/db/schema/index.js";
import { createTestDatabase } from "../helpers/db.js";
import { startDemoClock } from "../helpers/demo-clock.js";

const MINUTE = 60_000;
/** The seed ends in the past, so no simulated part is stamped after the real clock. */
const SEED_END = Date.now() - 30 * MINUTE;

let database: Database;
afterAll(async () => {
  await database?.close();
});

const firstAlertMinute = new Map<string, number>();

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const demo = await startDemoClock(db, { seedEnd: SEED_END });
  const typeOf = new Map((await db.select().from(monitors)).map((m) => [m.id, m.type]));
  // The embedded broker stores a part within a second: store what is due every 5 s, poll as often.
  for (let clock = demo.startedAt; clock <= demo.startedAt + 15 * MINUTE; clock += 5_000) {
    if ((await demo.advanceTo(clock)) === 0) continue;
    for (const a of await db.select().from(alerts)) {
      const type = (a.monitorId && typeOf.get(a.monitorId)) || "?";
      if (!firstAlertMinute.has(type)) firstAlertMinute.set(type, (clock - demo.startedAt) / MINUTE);
    }
  }
  await demo.stop();
}, 180_000);

describe("the demo monitors on the live simulator", () => {
  it("alert for every monitor type by the evaluation 10 minutes after the start", () => {
    console.log(
      [...firstAlertMinute].map(([type, minute]) => `${type}: first alert at ${minute} min`).join("\n"),
    );
    for (const type of ["svd", "mvd", "cap"]) {
      expect(firstAlertMinute.get(type), `first ${type} alert (minutes)`).toBeLessThanOrEqual(10);
    }
  });

  it("store the calibrated methods' details: VIFs, the MVD tests' p-values, CAP's points judged once", async () => {
    const db = database.db;
    const typeOf = new Map((await db.select().from(monitors)).map((m) => [m.id, m.type]));
    const rows = await db.select().from(evaluations).orderBy(asc(evaluations.slot));
    const schema = { svd: ZSvdCalibratedDetails, mvd: ZMvdCalibratedDetails, cap: ZCapCalibratedDetails };
    const capJudged = new Map<string, number[]>();
    let judged = 0;
    for (const e of rows) {
      const type = typeOf.get(e.monitorId) as keyof typeof schema;
      if (e.state === "NO_DATA") {
        if (e.details) ZNoDataDetails.parse(e.details);
        continue;
      }
      expect(e.state, `${type} ${e.slot.toISOString()}`).not.toBe("ERROR");
      const d = schema[type].parse(e.details);
      judged++;
      if (d.kind === "mvd") {
        // −log₁₀ p against −log₁₀ α: the score and the details agree.
        expect(e.threshold).toBeCloseTo(2, 12);
        expect(e.score).toBeCloseTo(-Math.log10(d.p_value as number), 9);
      }
      if (d.kind === "cap")
        capJudged.set(e.monitorId, [...(capJudged.get(e.monitorId) ?? []), d.judgedCount]);
    }
    expect(judged).toBeGreaterThan(12);
    // The first evaluation judges its whole set; the next ones only the parts made since (about 5
    // in 5 minutes, one part a minute; a batch of the other model holds none).
    for (const counts of capJudged.values()) {
      expect(counts[0]).toBe(25);
      for (const c of counts.slice(1)) expect(c).toBeLessThanOrEqual(8);
    }
  });
});
