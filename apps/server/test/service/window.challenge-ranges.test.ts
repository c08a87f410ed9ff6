// A cap monitor's challenge ranges (requirements.md monitor-forms §2 "Cap monitors": "Challenge range modes:
// time based, and part based when flagged (cap only).") are left out by the window query the
// worker reads: TIME by the record's time, PART from one part's first record to another's last.
import { randomUUID } from "node:crypto";
import type { TChallengeRange, TStoredMonitorFilter } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { partRecords, signals, spcLimits, stations } from "../../src/db/schema/index.js";
import { loadWindow } from "../../src/modules/evaluation/window.read.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

let database: Database;
let customerId: string;
let lineId: string;
const signalId = randomUUID();
const T0 = Date.UTC(2026, 10, 22, 8);
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();

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
  await db
    .insert(spcLimits)
    .values({ customerId, lineId, signalId, modelNumber: "*", lslFormula: "0", uslFormula: "9" });
  // 30 records a minute apart, parts P-0 … P-29
  await db.insert(partRecords).values(
    Array.from({ length: 30 }, (_, i) => ({
      stationId: st.id,
      ts: new Date(at(i)),
      partId: `P-${i}`,
      numValues: [i],
    })),
  );
});
afterAll(async () => {
  await database?.close();
});

async function partsRead(type: "cap" | "svd", ranges?: TChallengeRange[]) {
  const filter: TStoredMonitorFilter = {
    signal_uuids: [signalId],
    signal_group_uuids: [],
    part_attributes: [],
    sample_size: 100,
    pass_fail_filter: [],
    evaluation_ratio: 0.2,
    part_numbers: [],
    part_groups: [],
    ...(ranges ? { challenge_ranges: ranges } : {}),
  };
  const w = await loadWindow(database.db, { customerId, lineId, type, filter });
  return w.records.map((r) => r.partId);
}

describe("window query: cap challenge ranges", () => {
  it("TIME leaves out the records from `from` to `to`, both included", async () => {
    const parts = await partsRead("cap", [{ mode: "TIME", from: at(5), to: at(9) }]);
    expect(parts).toHaveLength(25);
    expect(parts).not.toContain("P-5");
    expect(parts).not.toContain("P-9");
    expect(parts).toContain("P-4");
    expect(parts).toContain("P-10");
  });

  it("PART leaves out the records from one part's first to another's; several ranges add up", async () => {
    const parts = await partsRead("cap", [
      { mode: "PART", from_part_id: "P-20", to_part_id: "P-22" },
      { mode: "TIME", from: at(0), to: at(1) },
    ]);
    expect(parts).toHaveLength(25);
    expect(parts.slice(0, 2)).toEqual(["P-2", "P-3"]);
    expect(parts).not.toContain("P-21");
    expect(parts).toContain("P-23");
  });

  it("a part the station has never seen leaves nothing out; other monitor types ignore the ranges", async () => {
    expect(await partsRead("cap", [{ mode: "PART", from_part_id: "X-1", to_part_id: "P-3" }])).toHaveLength(
      30,
    );
    expect(await partsRead("svd", [{ mode: "TIME", from: at(0), to: at(29) }])).toHaveLength(30);
  });
});
