// Realistic windows: the seeded demo plant (14 days, two lines with records). Every signal group
// (MVD, some across stations), every active measurement (SVD) and every measurement with limits
// (CAP, op_count LAST, exclusions on) gives a computed evaluation or NO_DATA with a reason, never ERROR.
import { parseStoredMonitorFilter, type TMonitorType, ZEvaluationDetails } from "@linewatch/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { customers, lines, signalGroups, signals } from "../../src/db/schema/index.js";
import { seedDemoIfEmpty } from "../../src/modules/demo/demo.seed.js";
import { evaluateMonitor } from "../../src/modules/evaluation/evaluate.js";
import { loadWindow } from "../../src/modules/evaluation/window.read.js";
import { createTestDatabase } from "../helpers/db.js";

let database: Database;
let customerId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoIfEmpty(database.db, { now: new Date() });
  const [c] = await database.db.select().from(customers).where(eq(customers.isDemo, true));
  customerId = c?.id ?? "";
}, 120_000);
afterAll(async () => {
  await database?.close();
});

async function run(type: TMonitorType, lineId: string, filter: Record<string, unknown>, extra = {}) {
  const f = parseStoredMonitorFilter({ sample_size: 500, evaluation_ratio: 0.2, ...filter });
  const window = await loadWindow(database.db, { customerId, lineId, type, filter: f, ...extra });
  const r = evaluateMonitor(
    { type, alertThreshold: "medium", sampleSize: f.sample_size, evaluationRatio: f.evaluation_ratio },
    window,
  );
  // Whatever the state, the stored details are of one of the kinds the drawer and Teams card read.
  if (r.details)
    expect(ZEvaluationDetails.parse(r.details).kind).toBe(r.state === "NO_DATA" ? "no_data" : type);
  return { window, r };
}

describe("evaluations on the demo plant", () => {
  it("MVD per signal group, SVD per measurement, CAP per measurement with limits", {
    timeout: 120_000,
  }, async () => {
    const db = database.db;
    const groups = await db
      .select({ id: signalGroups.id, name: signalGroups.name, lineId: signalGroups.lineId })
      .from(signalGroups)
      .where(eq(signalGroups.customerId, customerId));
    const states: string[] = [];
    let computed = 0;
    for (const g of groups) {
      const { window, r } = await run("mvd", g.lineId, { signal_group_uuids: [g.id] });
      if (window.records.length === 0) continue; // a line without simulated records
      states.push(`mvd ${g.name}: ${r.state}${r.reason ? ` (${r.reason})` : ""}`);
      expect(r.state, `${g.name}: ${r.reason}`).not.toBe("ERROR");
      if (r.state === "OK" || r.state === "BREACH") computed++;
    }
    const measurements = await db
      .select()
      .from(signals)
      .innerJoin(lines, eq(lines.id, signals.lineId))
      .where(
        and(
          eq(signals.customerId, customerId),
          eq(signals.entityType, "MEASUREMENT"),
          eq(signals.isSignalActive, true),
        ),
      );
    for (const { signals: s } of measurements) {
      const svd = await run("svd", s.lineId, { signal_uuids: [s.id] });
      if (svd.window.records.length === 0) continue;
      expect(svd.r.state, `${s.name}: ${svd.r.reason}`).not.toBe("ERROR");
      if (svd.r.state === "OK" || svd.r.state === "BREACH") computed++;
      states.push(`svd ${s.name}: ${svd.r.state}`);
    }
    const withLimits = measurements.filter(
      ({ signals: s }) => s.upperLimitSignalId != null || s.lowerLimitSignalId != null,
    );
    for (const { signals: s } of withLimits) {
      const cap = await run(
        "cap",
        s.lineId,
        { signal_uuids: [s.id], op_count: "LAST" },
        { useExcludedPartIds: true, useExcludedModelNumbers: true },
      );
      if (cap.window.records.length === 0) continue;
      expect(cap.r.state, `${s.name}: ${cap.r.reason}`).not.toBe("ERROR");
      states.push(`cap ${s.name}: ${cap.r.state}${cap.r.reason ? ` (${cap.r.reason})` : ""}`);
    }
    console.log(states.join("\n"));
    expect(computed).toBeGreaterThan(5);
  });
});
