// The window query (modules/evaluation/window.plan.ts and window.read.ts) on a factory-built line: newest sample_size records,
// model numbers, pass/fail, attributes, cap exclusions and op_count, MVD across stations, cap limits;
// windows loaded together (the worker's batch, sharing queries) equal windows loaded one by one.

import { randomUUID } from "node:crypto";
import { LINE_MESSAGES, parseStoredMonitorFilter } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Tx } from "../../src/db/client.js";
import {
  challengeParts,
  lines,
  partRecords,
  resultClassifications,
  signalGroupMembers,
  signalGroups,
  signals,
  spcLimits,
  stations,
} from "../../src/db/schema/index.js";
import {
  loadWindow,
  loadWindows,
  WindowError,
  type WindowQuery,
} from "../../src/modules/evaluation/window.read.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

const T0 = Date.UTC(2026, 10, 22, 8);
let database: Database;
let customerId: string;
let otherCustomerId: string;
let lineId: string;
const id = {
  torque: randomUUID(),
  angle: randomUUID(),
  upper: randomUUID(),
  result: randomUUID(),
  shift: randomUUID(),
  pressure: randomUUID(),
  foreign: randomUUID(),
};

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const customer = await createCustomer(db);
  customerId = customer.id;
  const plant = await createPlant(db, customerId);
  const line = await createLine(db, customerId, plant.id, { excludedPartIds: ["P-8"] });
  lineId = line.id;
  const [a, b] = await db
    .insert(stations)
    .values([
      { customerId, lineId, name: "OP10", nextNumSlot: 3, nextTextSlot: 2 },
      { customerId, lineId, name: "OP20", nextNumSlot: 1 },
    ])
    .returning();
  if (!a || !b) throw new Error("no stations");
  const sig = (
    sid: string,
    stationId: string,
    name: string,
    entityType: (typeof signals.$inferInsert)["entityType"],
    storage: "num" | "text",
    slot: number,
    extra: Partial<typeof signals.$inferInsert> = {},
  ) => ({ id: sid, customerId, lineId, stationId, name, entityType, storage, slot, ...extra });
  await db.insert(signals).values([
    sig(id.torque, a.id, "Torque", "MEASUREMENT", "num", 0, {
      resultSignalId: id.result,
      upperLimitSignalId: id.upper,
    }),
    sig(id.angle, a.id, "Angle", "MEASUREMENT", "num", 1, { resultSignalId: id.result }),
    sig(id.upper, a.id, "Torque Upper", "UPPER_LIMIT", "num", 2),
    sig(id.result, a.id, "Result", "RESULT", "text", 0),
    sig(id.shift, a.id, "Shift", "PART_ATTRIBUTE", "text", 1),
    sig(id.pressure, b.id, "Pressure", "MEASUREMENT", "num", 0),
  ]);
  await db.insert(resultClassifications).values([
    { customerId, signalId: id.result, value: "OK", result: "pass" },
    { customerId, signalId: id.result, value: "NOK", result: "fail" },
  ]);
  await db.insert(challengeParts).values({ customerId, lineId, partId: "P-7" });
  const rows: (typeof partRecords.$inferInsert)[] = [];
  for (let i = 0; i < 60; i++) {
    rows.push({
      stationId: a.id,
      ts: new Date(T0 + i * 1000),
      partId: `P-${i}`,
      op: 1,
      modelNumber: i % 2 === 0 ? "M-1" : "M-2",
      numValues: [i, 2 * i, 100],
      textValues: [i % 10 === 0 ? "NOK" : "OK", i < 30 ? "A" : "B"],
    });
    if (i < 50)
      rows.push({
        stationId: b.id,
        ts: new Date(T0 + i * 1000 + 500),
        partId: `P-${i}`,
        numValues: [3 * i],
        textValues: [],
      });
  }
  // P-5 measured again later (op 2) at OP10.
  rows.push({
    stationId: a.id,
    ts: new Date(T0 + 100_000),
    partId: "P-5",
    op: 2,
    modelNumber: "M-2",
    numValues: [1000, 2000, 100],
    textValues: ["OK", "A"],
  });
  await db.insert(partRecords).values(rows);

  // A signal of another customer's line.
  const other = await createCustomer(db);
  otherCustomerId = other.id;
  const otherPlant = await createPlant(db, other.id);
  const otherLine = await createLine(db, other.id, otherPlant.id);
  const [os] = await db
    .insert(stations)
    .values({ customerId: other.id, lineId: otherLine.id, name: "X" })
    .returning();
  await db.insert(signals).values({
    id: id.foreign,
    customerId: other.id,
    lineId: otherLine.id,
    stationId: os?.id ?? "",
    name: "Foreign",
    entityType: "MEASUREMENT",
    storage: "num",
    slot: 0,
  });
});

afterAll(async () => {
  await database?.close();
});

const query = (
  type: WindowQuery["type"],
  filter: Record<string, unknown>,
  extra: Partial<WindowQuery> = {},
) =>
  loadWindow(database.db, {
    customerId,
    lineId,
    type,
    filter: parseStoredMonitorFilter({ sample_size: 1000, evaluation_ratio: 0.2, ...filter }),
    ...extra,
  });
const parts = (w: { records: { partId: string }[] }) => w.records.map((r) => r.partId);

describe("window query", () => {
  it("the newest sample_size records of the signal's station, oldest first", async () => {
    const w = await query("svd", { signal_uuids: [id.torque], sample_size: 20 });
    expect(w.signals.map((s) => s.name)).toEqual(["Torque"]);
    expect(w.records).toHaveLength(20);
    expect(w.records.at(-1)).toMatchObject({ partId: "P-5", values: [1000] });
    expect(w.records[0]).toMatchObject({ partId: "P-41", values: [41], modelNumber: "M-2" });
    const ts = w.records.map((r) => r.ts.getTime());
    expect([...ts].sort((x, y) => x - y)).toEqual(ts);
  });

  it("leaves out a signal switched off or no longer a measurement: the monitor runs on the others", async () => {
    const set = (values: Partial<typeof signals.$inferInsert>) =>
      database.db.update(signals).set(values).where(sql`${signals.id} = ${id.angle}`);
    try {
      await set({ isSignalActive: false });
      const off = await query("mvd", { signal_uuids: [id.torque, id.angle] });
      expect(off.signals.map((s) => s.name)).toEqual(["Torque"]);
      await set({ isSignalActive: true, entityType: "UPPER_LIMIT" });
      const converted = await query("mvd", { signal_uuids: [id.torque, id.angle] });
      expect(converted.signals.map((s) => s.name)).toEqual(["Torque"]);
    } finally {
      await set({ isSignalActive: true, entityType: "MEASUREMENT" });
    }
    const both = await query("mvd", { signal_uuids: [id.torque, id.angle] });
    expect(both.signals.map((s) => s.name)).toEqual(["Torque", "Angle"]);
  });

  it("model numbers (part_numbers)", async () => {
    const w = await query("svd", { signal_uuids: [id.torque], part_numbers: ["M-1"] });
    expect(w.records).toHaveLength(30);
    expect(new Set(w.records.map((r) => r.modelNumber))).toEqual(new Set(["M-1"]));
  });

  it("pass/fail through the result signal's classifications", async () => {
    const fail = await query("svd", { signal_uuids: [id.torque], pass_fail_filter: ["fail"] });
    expect(parts(fail)).toEqual(["P-0", "P-10", "P-20", "P-30", "P-40", "P-50"]);
    const pass = await query("svd", { signal_uuids: [id.torque], pass_fail_filter: ["pass"] });
    expect(pass.records).toHaveLength(55);
    const both = await query("svd", { signal_uuids: [id.torque], pass_fail_filter: ["pass", "fail"] });
    expect(both.records).toHaveLength(61);
  });

  it("part attributes", async () => {
    const w = await query("svd", {
      signal_uuids: [id.torque],
      part_attributes: [{ attribute_uuid: id.shift, selected_attribute_values: ["B"] }],
    });
    expect(w.records).toHaveLength(30);
    expect(parts(w)[0]).toBe("P-30");
  });

  it("cap: op_count FIRST / LAST per part and ALL", async () => {
    const all = await query("cap", { signal_uuids: [id.torque] });
    expect(parts(all).filter((p) => p === "P-5")).toHaveLength(2);
    const first = await query("cap", { signal_uuids: [id.torque], op_count: "FIRST" });
    expect(first.records.filter((r) => r.partId === "P-5").map((r) => r.values[0])).toEqual([5]);
    const last = await query("cap", { signal_uuids: [id.torque], op_count: "LAST" });
    expect(last.records.filter((r) => r.partId === "P-5").map((r) => r.values[0])).toEqual([1000]);
  });

  it("cap: excluded part ids and challenge parts when the monitor says so (cap only)", async () => {
    const w = await query("cap", { signal_uuids: [id.torque] }, { useExcludedPartIds: true });
    expect(parts(w)).not.toContain("P-7");
    expect(parts(w)).not.toContain("P-8");
    expect(w.records).toHaveLength(59);
    const svd = await query("svd", { signal_uuids: [id.torque] }, { useExcludedPartIds: true });
    expect(svd.records).toHaveLength(61);
    await database.db.update(lines).set({ excludedModelNumbers: ["M-2"] });
    const noM2 = await query("cap", { signal_uuids: [id.torque] }, { useExcludedModelNumbers: true });
    expect(noM2.records).toHaveLength(30);
    await database.db.update(lines).set({ excludedModelNumbers: [] });
  });

  it("mvd across stations joins the newest record of the same part; parts missing one station are left out", async () => {
    const w = await query("mvd", { signal_uuids: [id.torque, id.pressure] });
    expect(w.signals.map((s) => s.name)).toEqual(["Torque", "Pressure"]);
    expect(w.records).toHaveLength(51); // P-0…P-49 plus P-5's second op
    for (const r of w.records) expect(r.values[1]).toBe(3 * Number(r.partId.slice(2)));
  });

  it("cap limits: the SPC limits with their referenced signals, or the associated limit signals", async () => {
    const fallback = await query("cap", { signal_uuids: [id.torque] });
    expect(fallback.limits).toEqual({ "*": { lsl: null, lcl: null, ucl: null, usl: `{${id.upper}}` } });
    expect(fallback.references.map((s) => s.id)).toEqual([id.upper]);
    expect(fallback.records[0]?.values).toEqual([0, 100]);
    await database.db.insert(spcLimits).values({
      customerId,
      lineId,
      signalId: id.torque,
      lslFormula: "-5",
      uslFormula: `{${id.upper}} + 1`,
      uclFormula: `{${id.angle}}`,
    });
    const w = await query("cap", { signal_uuids: [id.torque] });
    expect(w.limits?.["*"]?.usl).toBe(`{${id.upper}} + 1`);
    expect(w.references.map((s) => s.name).sort()).toEqual(["Angle", "Torque Upper"]);
  });

  it("a signal or line of another customer is not found", async () => {
    await expect(query("svd", { signal_uuids: [id.foreign] })).rejects.toBeInstanceOf(WindowError);
    await expect(
      query("svd", { signal_uuids: [id.torque] }, { customerId: otherCustomerId }),
    ).rejects.toThrow(LINE_MESSAGES.notFound);
  });
});

describe("windows loaded together (the worker's batch)", () => {
  /**
   * The database, counting the record queries made through it: db.execute, or the driver's own
   * query (what the window reads arrays of rows through: node-postgres' pool, the embedded
   * database's background lane).
   */
  const counting = () => {
    const counter = { executes: 0 };
    const counted = <T extends object>(target: T, ...names: string[]): T =>
      new Proxy(target, {
        get(t, prop) {
          const v = Reflect.get(t, prop, t);
          if (typeof prop === "string" && names.includes(prop) && typeof v === "function")
            return (...args: unknown[]) => {
              counter.executes++;
              return v.apply(t, args);
            };
          if (prop === "$client" && v && typeof v === "object") return counted(v, "query", "backgroundQuery");
          return typeof v === "function" ? v.bind(t) : v;
        },
      });
    return { db: counted(database.db, "execute") as Tx, counter };
  };
  const q = (
    type: WindowQuery["type"],
    filter: Record<string, unknown>,
    extra: Partial<WindowQuery> = {},
  ): WindowQuery => ({
    customerId,
    lineId,
    type,
    filter: parseStoredMonitorFilter({ sample_size: 1000, evaluation_ratio: 0.2, ...filter }),
    ...extra,
  });
  const alone = async (x: WindowQuery) => {
    try {
      return await loadWindow(database.db, x);
    } catch (err) {
      return err as Error;
    }
  };

  it("each window equals the one loaded alone: records, columns, limits and errors", async () => {
    const [group] = await database.db
      .insert(signalGroups)
      .values({ customerId, lineId, name: "Torque and angle" })
      .returning();
    if (!group) throw new Error("no group");
    await database.db.insert(signalGroupMembers).values([
      { groupId: group.id, signalId: id.torque },
      { groupId: group.id, signalId: id.angle },
    ]);
    const queries: WindowQuery[] = [];
    // Same records, different signals and sample sizes: these share queries.
    for (const sample_size of [0, 1, 7, 20, 45, 61, 1000]) {
      queries.push(q("svd", { signal_uuids: [id.torque], sample_size }));
      queries.push(q("svd", { signal_uuids: [id.angle], sample_size }));
      queries.push(q("mvd", { signal_uuids: [id.angle, id.torque], sample_size }));
      queries.push(q("cap", { signal_uuids: [id.torque], sample_size, op_count: "ALL" }));
      queries.push(q("mvd", { signal_group_uuids: [group.id], sample_size }));
      queries.push(q("mvd", { signal_uuids: [id.torque, id.pressure], sample_size }));
      queries.push(q("svd", { signal_uuids: [id.torque], sample_size, part_numbers: ["M-2"] }));
      queries.push(q("svd", { signal_uuids: [id.angle], sample_size, part_numbers: ["M-2", "M-2"] }));
      queries.push(q("svd", { signal_uuids: [id.angle], sample_size, pass_fail_filter: ["pass"] }));
      queries.push(q("svd", { signal_uuids: [id.torque], sample_size, pass_fail_filter: ["pass"] }));
      queries.push(
        q("mvd", {
          signal_uuids: [id.angle, id.torque],
          sample_size,
          part_attributes: [{ attribute_uuid: id.shift, selected_attribute_values: ["B", "A"] }],
        }),
      );
      queries.push(
        q("svd", {
          signal_uuids: [id.torque],
          sample_size,
          part_attributes: [{ attribute_uuid: id.shift, selected_attribute_values: ["A"] }],
        }),
      );
      queries.push(q("cap", { signal_uuids: [id.torque], sample_size, op_count: "LAST" }));
      queries.push(q("cap", { signal_uuids: [id.angle], sample_size, op_count: "FIRST" }));
      queries.push(q("cap", { signal_uuids: [id.torque], sample_size }, { useExcludedPartIds: true }));
      queries.push(q("svd", { signal_uuids: [id.torque], sample_size }, { useExcludedPartIds: true }));
      queries.push(q("svd", { signal_uuids: [id.pressure], sample_size }));
    }
    // Errors and empty selections keep their place.
    queries.push(q("svd", { signal_uuids: [id.foreign] }));
    queries.push(q("svd", { signal_uuids: [id.torque] }, { customerId: otherCustomerId }));
    queries.push(q("svd", { signal_uuids: [] }));
    queries.push(q("svd", { signal_uuids: [id.pressure], pass_fail_filter: ["fail"] }));
    // A period is read on its own.
    queries.push(
      q(
        "svd",
        { signal_uuids: [id.torque] },
        {
          period: { from: new Date(T0 + 10_000), to: null, limit: 5, anchor: "start" },
        },
      ),
    );

    const expected: Awaited<ReturnType<typeof alone>>[] = [];
    for (const x of queries) expected.push(await alone(x));
    const { db, counter } = counting();
    const together = await loadWindows(db, queries);
    expect(together).toHaveLength(queries.length);
    together.forEach((w, i) => {
      const e = expected[i];
      if (e instanceof Error) {
        expect(w, `query ${i}`).toBeInstanceOf(Error);
        expect((w as Error).message, `query ${i}`).toBe(e.message);
        expect((w as Error).name, `query ${i}`).toBe(e.name);
      } else expect(w, `query ${i}`).toEqual(e);
    });
    // Some windows are non-trivial, so the comparison compares something.
    const sizes = expected.map((e) => (e instanceof Error ? -1 : e.records.length));
    expect(Math.max(...sizes)).toBe(61);
    expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(80);
    // Monitors reading the same records shared queries: far fewer than one per window.
    const windows = expected.filter((e) => !(e instanceof Error) && e.signals.length > 0).length;
    expect(counter.executes).toBeGreaterThan(0);
    expect(counter.executes).toBeLessThan(windows / 3);
  });

  it("record times are the driver's own reading of ts, to the millisecond (microseconds dropped)", async () => {
    const [c] = await database.db
      .insert(stations)
      .values({ customerId, lineId, name: "OP30", nextNumSlot: 1 })
      .returning();
    if (!c) throw new Error("no station");
    const gauge = randomUUID();
    await database.db.insert(signals).values({
      id: gauge,
      customerId,
      lineId,
      stationId: c.id,
      name: "Gauge",
      entityType: "MEASUREMENT",
      storage: "num",
      slot: 0,
    });
    const times = [
      "2026-11-22 08:00:00.123456+00",
      "2026-11-22 08:00:00.999999+00",
      "2026-11-22 08:00:01+00",
      "2026-11-22 08:00:01.0005+00",
      "1969-12-31 23:59:58.876543+00",
      "1965-06-01 12:00:00.000001+00",
    ];
    for (const [i, t] of times.entries())
      await database.db.execute(sql`insert into part_records (station_id, ts, part_id, num_values)
        values (${c.id}, ${t}::timestamptz, ${`G-${i}`}, array[${i}::float8])`);
    const driver = await database.db
      .select({ ts: partRecords.ts, partId: partRecords.partId })
      .from(partRecords)
      .where(sql`${partRecords.stationId} = ${c.id}`);
    const w = await query("svd", { signal_uuids: [gauge] });
    expect(w.records).toHaveLength(times.length);
    const byPart = new Map(driver.map((r) => [r.partId, r.ts.getTime()]));
    for (const r of w.records) expect(r.ts.getTime(), r.partId).toBe(byPart.get(r.partId));
    const [together] = await loadWindows(database.db, [
      q("svd", { signal_uuids: [gauge], sample_size: 3 }),
      q("svd", { signal_uuids: [gauge], sample_size: 10 }),
    ]);
    expect(together).toEqual({ ...w, records: w.records.slice(-3) });
  });
});
