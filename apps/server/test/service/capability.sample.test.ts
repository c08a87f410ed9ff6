// The capability view over a long period (issue 31 §4): every record of the period while the
// station holds at most the view's bound in it; beyond, the first bound / stretches records of each
// of CAPABILITY_BOUNDS.stretches equal stretches of the period, and the view says so
// (isTruncated, CAPABILITY_MESSAGES.truncated). Another customer's line is not found.
import { CAPABILITY_BOUNDS, CAPABILITY_MESSAGES, LINE_MESSAGES } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createCapabilityService } from "../../src/modules/capability/capability.service.js";
import { createStatsPool } from "../../src/modules/evaluation/stats-pool.js";
import { createServices } from "../../src/services.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 2);
/** The view's bound in these tests: 20 stretches of 10 records. */
const MAX = 200;
const EACH = MAX / CAPABILITY_BOUNDS.stretches;
/** 1,000 records a minute apart from T0 (then 100 more, all in one minute, an hour after them). */
const N = 1_000;

let database: Database;
const stats = createStatsPool({ threads: 1 });
let customerId = "";
let otherCustomerId = "";
let lineId = "";
let signalId = "";
let view: ReturnType<typeof createCapabilityService>["view"];

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  customerId = (await createCustomer(db)).id;
  otherCustomerId = (await createCustomer(db)).id;
  const plant = await createPlant(db, customerId);
  lineId = (await createLine(db, customerId, plant.id)).id;
  const [st] = await db
    .insert(stations)
    .values({ customerId, lineId, name: "OP10", nextNumSlot: 1 })
    .returning();
  if (!st) throw new Error("no station");
  const [sig] = await db
    .insert(signals)
    .values({
      customerId,
      lineId,
      stationId: st.id,
      name: "Bore",
      entityType: "MEASUREMENT" as const,
      storage: "num" as const,
      slot: 0,
    })
    .returning();
  if (!sig) throw new Error("no signal");
  signalId = sig.id;
  const rows = Array.from({ length: N }, (_, i) => ({
    stationId: st.id,
    ts: new Date(T0 + i * MINUTE),
    partId: `P-${String(i).padStart(5, "0")}`,
    numValues: [10 + Math.sin(i)],
  }));
  const burst = Array.from({ length: 100 }, (_, i) => ({
    stationId: st.id,
    ts: new Date(T0 + (N + 60) * MINUTE + i * 100),
    partId: `B-${String(i).padStart(5, "0")}`,
    numValues: [10 + Math.cos(i)],
  }));
  await db.insert(partRecords).values([...rows, ...burst]);
  const services = createServices({ db, publicUrl: "http://localhost:8080", stats: { pool: stats } });
  view = createCapabilityService({
    db,
    lines: services.lines,
    stats,
    cpuBudgetMs: 60_000,
    maxRecords: MAX,
  }).view;
}, 120_000);
afterAll(async () => {
  await stats.close();
  await database?.close();
});

const at = (minute: number) => new Date(T0 + minute * MINUTE).toISOString();
const ctx = (id: string) => ({ customerId: id }) as AuthContext;

describe("the capability view of a period", () => {
  it("reads every record while the station holds at most the bound in the period", async () => {
    const v = await view(ctx(customerId), lineId, signalId, { from: at(100), to: at(299) });
    expect(v.isTruncated).toBe(false);
    expect(v.recordCount).toBe(MAX);
    expect(v.points.map((p) => p.partId)).toEqual(
      Array.from({ length: MAX }, (_, i) => `P-${String(100 + i).padStart(5, "0")}`),
    );
  });

  it("beyond it, the first records of each equal stretch of the period, and says so", async () => {
    const from = new Date(T0);
    const to = new Date(T0 + (N - 1) * MINUTE);
    const v = await view(ctx(customerId), lineId, signalId, {
      from: from.toISOString(),
      to: to.toISOString(),
    });
    expect(v.isTruncated).toBe(true);
    expect(v.recordCount).toBe(MAX);
    // Stretch k: (edge k, edge k + 1], the first one from `from` itself; its first EACH records.
    const span = to.getTime() - from.getTime();
    const edge = (k: number) => T0 + Math.floor((span * k) / CAPABILITY_BOUNDS.stretches);
    const want: string[] = [];
    for (let k = 0; k < CAPABILITY_BOUNDS.stretches; k++) {
      const first = k === 0 ? 0 : Math.floor((edge(k) - T0) / MINUTE) + 1;
      for (let i = first; i < first + EACH; i++) want.push(`P-${String(i).padStart(5, "0")}`);
    }
    expect(v.points.map((p) => p.partId)).toEqual(want);
    expect(CAPABILITY_MESSAGES.truncated(v.recordCount)).toBe(
      `More records than the view reads: 200 are shown, the first ${(CAPABILITY_BOUNDS.maxRecords / CAPABILITY_BOUNDS.stretches).toLocaleString("en-US")} of each of ${CAPABILITY_BOUNDS.stretches} equal stretches of the period (every record of a stretch with fewer); the statistics use these 200.`,
    );
  });

  it("reads whole a period within the bound whose records crowd into one stretch", async () => {
    // The last 50 minute-apart records and the burst of 100 an hour later: 150 records, all of the
    // burst in one of the period's stretches.
    const v = await view(ctx(customerId), lineId, signalId, { from: at(N - 50), to: at(N + 61) });
    expect(v.isTruncated).toBe(false);
    expect(v.recordCount).toBe(150);
  });

  it("another customer's line is not found", async () => {
    await expect(
      view(ctx(otherCustomerId), lineId, signalId, { from: at(0), to: at(N) }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: LINE_MESSAGES.notFound });
  });
});
