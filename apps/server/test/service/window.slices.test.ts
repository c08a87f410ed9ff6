// Windows of many signals of one station read the station's whole num_values array, not one
// subscript a signal (window.read.ts: each subscript detoasts the whole array once it is stored out
// of line, issue #27 §1). The values must be those of the signals whoever reads them: dense and
// sparse slots, a second station, a missing value, a record written before a signal existed (a
// shorter array) and a record without numbers; loadWindow and openRecordSpan alike.
import { parseStoredMonitorFilter } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import { loadWindow } from "../../src/modules/evaluation/window.read.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { readRecordSpan } from "../helpers/record-span.js";

const T0 = Date.UTC(2026, 10, 22, 8);
/** Out of line: 300 float8 are 2.4 kB, above PostgreSQL's 2 kB toast threshold. */
const WIDTH = 300;
/** Dense (0–99), a run with gaps ≤ 32 (200, 210, 230), and two far apart (150, 299). */
const SLOTS = [...Array.from({ length: 100 }, (_, k) => k), 150, 200, 210, 230, 299];
const OTHER_SLOTS = [1, 3];
const RECORDS = 40;

let database: Database;
let customerId: string;
let lineId: string;
const ids = new Map<string, { station: "a" | "b"; slot: number }>();

/** What record i holds at a station's slot; null where it holds nothing. */
function expected(i: number, station: "a" | "b", slot: number): number | null {
  if (station === "b") return 5000 + 10 * i + slot;
  if (i === 3) return null; // no numbers at all
  if (i === 4 && slot >= 120) return null; // written when the station had 120 slots
  if (i === 5 && slot === 210) return null; // one value missing
  return i * 1000 + slot + 0.25;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  customerId = (await createCustomer(db)).id;
  const plant = await createPlant(db, customerId);
  lineId = (await createLine(db, customerId, plant.id)).id;
  const [a, b] = await db
    .insert(stations)
    .values([
      { customerId, lineId, name: "OP10", nextNumSlot: WIDTH },
      { customerId, lineId, name: "OP20", nextNumSlot: 5 },
    ])
    .returning();
  if (!a || !b) throw new Error("no stations");
  const rows = await db
    .insert(signals)
    .values([
      ...SLOTS.map((slot) => ({
        customerId,
        lineId,
        stationId: a.id,
        name: `A${slot}`,
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
      ...OTHER_SLOTS.map((slot) => ({
        customerId,
        lineId,
        stationId: b.id,
        name: `B${slot}`,
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
    ])
    .returning({ id: signals.id, stationId: signals.stationId, slot: signals.slot });
  for (const r of rows) ids.set(r.id, { station: r.stationId === a.id ? "a" : "b", slot: r.slot });

  const records: (typeof partRecords.$inferInsert)[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const width = i === 4 ? 120 : WIDTH;
    records.push({
      stationId: a.id,
      ts: new Date(T0 + i * 60_000),
      partId: `P-${i}`,
      numValues:
        i === 3
          ? null
          : Array.from({ length: width }, (_, slot) => expected(i, "a", slot) ?? (null as unknown as number)),
      textValues: [],
    });
    records.push({
      stationId: b.id,
      ts: new Date(T0 + i * 60_000 + 1_000),
      partId: `P-${i}`,
      numValues: Array.from({ length: 5 }, (_, slot) => 5000 + 10 * i + slot),
      textValues: [],
    });
  }
  await db.insert(partRecords).values(records);
});

afterAll(async () => {
  await database?.close();
});

const filter = () =>
  parseStoredMonitorFilter({
    signal_uuids: [...ids.keys()],
    sample_size: RECORDS,
    evaluation_ratio: 0.2,
  });

/** Each record's values checked against what was written, signal by signal. */
function expectValues(w: Awaited<ReturnType<typeof loadWindow>>, firstIndex: number) {
  expect(w.signals).toHaveLength(SLOTS.length + OTHER_SLOTS.length);
  w.records.forEach((r, n) => {
    const i = firstIndex + n;
    expect(r.partId).toBe(`P-${i}`);
    const want = w.signals.map((s) => {
      const at = ids.get(s.id);
      if (!at) throw new Error("unknown signal");
      return expected(i, at.station, at.slot) ?? Number.NaN;
    });
    expect(r.values).toEqual(want);
  });
}

describe("windows of many signals of one station", () => {
  it("give each signal its own value: loadWindow", async () => {
    const w = await loadWindow(database.db, { customerId, lineId, type: "mvd", filter: filter() });
    expect(w.records).toHaveLength(RECORDS);
    expectValues(w, 0);
  });

  it("give each signal its own value: openRecordSpan (the backtest)", async () => {
    const { window } = await readRecordSpan(
      database.db,
      { customerId, lineId, type: "mvd", filter: filter() },
      { from: new Date(T0 + 9 * 60_000 + 30_000), to: new Date(T0 + 60 * 60_000), before: 5 },
    );
    expect(window.records).toHaveLength(5 + RECORDS - 10);
    expectValues(window, 5);
  });
});
