// A large window is read in pages (window.read.ts: about 50,000 values a page, at least 50
// records), each after the last one's key, so neither the event loop nor the embedded database's
// thread is held by every row at once; a caller that went away reads no further page.
// Paged, the window must be exactly the one statement's: every record once, in the worker's order,
// records sharing a time and parts with a second op across page boundaries included.
import { randomUUID } from "node:crypto";
import { parseStoredMonitorFilter } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import { StatsCancelledError } from "../../src/modules/evaluation/stats-pool.js";
import { loadWindow } from "../../src/modules/evaluation/window.read.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { readRecordSpan } from "../helpers/record-span.js";

const T0 = Date.UTC(2026, 10, 22, 8);
/** 300 signals: a page is max(50, ⌊50,000 / 303⌋) = 165 records. */
const P = 300;
const N = 2_700;
let database: Database;
let customerId: string;
let lineId: string;
const ids = Array.from({ length: P }, () => randomUUID());
/** Records as inserted: three parts share each second; every 7th part is measured twice (op 1, 2). */
const inserted: { ts: number; partId: string; op: number; values: number[] }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  customerId = (await createCustomer(db)).id;
  const plant = await createPlant(db, customerId);
  lineId = (await createLine(db, customerId, plant.id)).id;
  const [st] = await db
    .insert(stations)
    .values({ customerId, lineId, name: "OP10", nextNumSlot: P })
    .returning();
  if (!st) throw new Error("no station");
  await db.insert(signals).values(
    ids.map((id, slot) => ({
      id,
      customerId,
      lineId,
      stationId: st.id,
      name: `S${slot}`,
      entityType: "MEASUREMENT" as const,
      storage: "num" as const,
      slot,
    })),
  );
  for (let i = 0; inserted.length < N; i++) {
    const ts = T0 + Math.floor(i / 3) * 1000;
    const partId = `P-${String(i).padStart(5, "0")}`;
    for (const op of i % 7 === 0 ? [1, 2] : [1])
      inserted.push({ ts, partId, op, values: Array.from({ length: P }, (_, j) => i + j / 1000 + op / 10) });
  }
  for (let k = 0; k < inserted.length; k += 200)
    await db.insert(partRecords).values(
      inserted.slice(k, k + 200).map((r) => ({
        stationId: st.id,
        ts: new Date(r.ts),
        partId: r.partId,
        op: r.op,
        numValues: r.values,
      })),
    );
}, 120_000);
afterAll(async () => {
  await database?.close();
});

/** The worker's order: time, part id, op. */
const ordered = () =>
  [...inserted].sort(
    (a, b) => a.ts - b.ts || (a.partId < b.partId ? -1 : a.partId > b.partId ? 1 : 0) || a.op - b.op,
  );
const filter = (sampleSize: number) =>
  parseStoredMonitorFilter({ signal_uuids: ids, sample_size: sampleSize, evaluation_ratio: 0.2 });
const shape = (records: { ts: Date; partId: string; values: number[] }[]) =>
  records.map((r) => ({ ts: r.ts.getTime(), partId: r.partId, first: r.values[0], last: r.values[P - 1] }));
const expected = (rows: typeof inserted) =>
  rows.map((r) => ({ ts: r.ts, partId: r.partId, first: r.values[0], last: r.values[P - 1] }));

describe("a window larger than a page", () => {
  it("the newest sample_size records, each once, oldest first, as one statement reads them", async () => {
    const w = await loadWindow(database.db, { customerId, lineId, type: "mvd", filter: filter(2_500) });
    expect(w.records).toHaveLength(2_500);
    expect(shape(w.records)).toEqual(expected(ordered().slice(-2_500)));
    expect(w.records.every((r) => r.values.length === P)).toBe(true);
  });

  it("a replay's span: the window before `from`, then every record after it up to `to`", async () => {
    const all = ordered();
    const from = new Date(T0 + 200 * 1000);
    const to = new Date(T0 + 1_000 * 1000);
    const span = await readRecordSpan(
      database.db,
      { customerId, lineId, type: "mvd", filter: filter(1_200) },
      { from, to, before: 1_200 },
    );
    const before = all.filter((r) => r.ts <= from.getTime()).slice(-1_200);
    const after = all.filter((r) => r.ts > from.getTime() && r.ts <= to.getTime());
    expect(after.length).toBeGreaterThan(2_000);
    // The period's records came a page (165 records) at a time.
    expect(span.chunks).toBe(Math.ceil(after.length / 165));
    expect(shape(span.window.records)).toEqual(expected([...before, ...after]));
  });

  it("reads no further page once its caller has gone away", async () => {
    const gone = new AbortController();
    gone.abort();
    await expect(
      loadWindow(
        database.db,
        { customerId, lineId, type: "mvd", filter: filter(2_500) },
        { signal: gone.signal },
      ),
    ).rejects.toBeInstanceOf(StatsCancelledError);
    await expect(
      readRecordSpan(
        database.db,
        { customerId, lineId, type: "mvd", filter: filter(1_200) },
        { from: new Date(T0 + 200 * 1000), to: new Date(T0 + 1_000 * 1000), before: 1_200 },
        { signal: gone.signal },
      ),
    ).rejects.toBeInstanceOf(StatsCancelledError);
  });
});
