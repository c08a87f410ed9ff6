// The worker hands a cap monitor's Western Electric rules 2–4 (filter.run_rules, issue #14) to the
// evaluation: rule 4 (8 in a row on one side of the centre line) fires only when it is turned on.
// The monitor form's query preview evaluates the same filter as the worker does.
import { randomUUID } from "node:crypto";
import { ZPreviewFilter } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { partRecords, signals, spcLimits, stations } from "../../src/db/schema/index.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { defaultStatsPool, STATS_BUDGET_DEFAULTS } from "../../src/modules/evaluation/stats-pool.js";
import { createMonitorPreview } from "../../src/modules/monitor-preview/monitor-preview.service.js";
import type { ClaimedMonitor } from "../../src/worker/schedule/schedule.js";
import { evaluateClaims } from "../../src/worker/worker.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

let database: Database;
let customerId: string;
let lineId: string;
const signalId = randomUUID();
const T0 = Date.UTC(2026, 10, 22, 8);

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  customerId = (await createCustomer(db)).id;
  const plantId = (await createPlant(db, customerId)).id;
  lineId = (await createLine(db, customerId, plantId)).id;
  const [st] = await db
    .insert(stations)
    .values({ customerId, lineId, name: "OP10", nextNumSlot: 1 })
    .returning();
  if (!st) throw new Error("no station");
  await db.insert(signals).values({
    id: signalId,
    customerId,
    lineId,
    stationId: st.id,
    name: "Torque",
    entityType: "MEASUREMENT",
    storage: "num",
    slot: 0,
  });
  // Control limits 0 and 6: centre 3, σ 1. The last 10 of 150 records sit at 3.5, inside the
  // limits but all above the centre; before them the values alternate 2 and 4.
  await db.insert(spcLimits).values({
    customerId,
    lineId,
    signalId,
    modelNumber: "*",
    lslFormula: "-10",
    lclFormula: "0",
    uclFormula: "6",
    uslFormula: "16",
  });
  await db.insert(partRecords).values(
    Array.from({ length: 150 }, (_, i) => ({
      stationId: st.id,
      ts: new Date(T0 + i * 1000),
      partId: `P-${i}`,
      numValues: [i >= 140 ? 3.5 : i % 2 === 0 ? 2 : 4],
    })),
  );
});
afterAll(async () => {
  await database?.close();
});

const claimOf = (runRules?: number[]): ClaimedMonitor => ({
  id: randomUUID(),
  customerId,
  lineId,
  name: "Torque capability",
  type: "cap",
  frequency: 15,
  alertThreshold: "medium",
  filter: {
    signal_uuids: [signalId],
    sample_size: 150,
    evaluation_ratio: 0.2,
    ...(runRules ? { run_rules: runRules } : {}),
  },
  useExcludedPartIds: false,
  useExcludedModelNumbers: false,
  slot: new Date(T0 + 200_000),
  leaseUntil: new Date(T0 + 260_000),
});

const rulesFired = (details: unknown) =>
  ((details as { controlHits?: { rule: number }[] }).controlHits ?? []).map((h) => h.rule);

describe("worker: cap run rules", () => {
  it("rule 4 fires on 8 points on one side only when the monitor turned it on", async () => {
    const [off, on] = await evaluateClaims(database.db, [claimOf(), claimOf([4])]);
    expect(rulesFired(off?.details)).toEqual([]);
    expect(rulesFired(on?.details)).toContain(4);
    expect(rulesFired(on?.details).every((r) => r === 4)).toBe(true);
  });
});

describe("query preview: cap run rules", () => {
  it("honours run_rules like the worker: rule 4 only when turned on", async () => {
    const preview = createMonitorPreview({
      db: database.db,
      maxRecordCount: 10_000,
      stats: defaultStatsPool(),
      cpuBudgetMs: STATS_BUDGET_DEFAULTS.requestCpuMs,
    });
    const ctx = { customerId } as AuthContext;
    const input = (runRules?: number[]) => {
      return {
        type: "cap" as const,
        lineId,
        alertThreshold: "medium" as const,
        useExcludedPartIds: false,
        useExcludedModelNumbers: false,
        // As the preview route reads its body: run_rules must survive the contract.
        filter: ZPreviewFilter.parse({
          signal_uuids: [signalId],
          sample_size: 150,
          evaluation_ratio: 0.2,
          ...(runRules ? { run_rules: runRules } : {}),
        }),
      };
    };
    const off = await preview.preview(ctx, input());
    const on = await preview.preview(ctx, input([4]));
    expect(rulesFired(off.evaluation.details)).toEqual([]);
    expect(rulesFired(on.evaluation.details)).toContain(4);
  });
});
