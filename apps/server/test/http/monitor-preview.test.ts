// POST /api/monitors/preview: the window's sizes and span and the evaluation it would give now;
// stores nothing; any signed-in user; 404 across customers.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/client.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let other: Awaited<ReturnType<typeof createTenant>>;
const torque = randomUUID();
const angle = randomUUID();
const foreign = randomUUID();
const T0 = Date.UTC(2026, 10, 22, 6);

async function lineWithSignals(customerId: string, lineId: string, ids: string[], shiftLast = 0) {
  const db = t.database.db;
  const [st] = await db
    .insert(stations)
    .values({ customerId, lineId, name: "OP10", nextNumSlot: ids.length })
    .returning();
  await db.insert(signals).values(
    ids.map((id, slot) => ({
      id,
      customerId,
      lineId,
      stationId: st?.id ?? "",
      name: `S${slot}`,
      entityType: "MEASUREMENT" as const,
      storage: "num" as const,
      slot,
    })),
  );
  await db.insert(partRecords).values(
    Array.from({ length: 200 }, (_, i) => ({
      stationId: st?.id ?? "",
      ts: new Date(T0 + i * 60_000),
      partId: `P-${i}`,
      modelNumber: "M-1",
      numValues: ids.map((_, k) => 10 + Math.sin(i * 1.3 + k) + (i >= 200 - shiftLast ? 3 : 0)),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
  other = await createTenant(t.app, t.database.db);
  await lineWithSignals(tenant.customer.id, tenant.line.id, [torque, angle], 50);
  await lineWithSignals(other.customer.id, other.line.id, [foreign]);
});
afterAll(() => closeTestApp(t));

const body = (extra: Record<string, unknown> = {}, filter: Record<string, unknown> = {}) => ({
  type: "svd",
  line_id: tenant.line.id,
  alert_threshold: "medium",
  filter: { signal_uuids: [torque], sample_size: 200, evaluation_ratio: 0.25, ...filter },
  ...extra,
});
const post = (payload: unknown, headers = tenant.userHeaders) =>
  t.app.inject({ method: "POST", url: "/api/monitors/preview", headers, payload: payload as object });
const evaluationCount = async () =>
  rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from evaluations`))[0]?.n;

describe("POST /api/monitors/preview", () => {
  it("needs a session", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/monitors/preview", payload: body() });
    expect(res.statusCode).toBe(401);
  });

  it("answers the window's sizes and span and the evaluation it would give; stores nothing", async () => {
    const res = await post(body());
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      window_size: 200,
      training_size: 150,
      evaluation_size: 50,
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 199 * 60_000).toISOString(),
      evaluation_from: new Date(T0 + 150 * 60_000).toISOString(),
    });
    // The newest 50 records are shifted by 3: a breach.
    expect(p.evaluation.state).toBe("BREACH");
    expect(p.evaluation.details).toMatchObject({ m: 150, n: 50 });
    expect(await evaluationCount()).toBe(0);
  });

  it("mvd over two signals and a smaller window; NO_DATA with a reason when too few records", async () => {
    const mvd = await post(
      body({ type: "mvd" }, { signal_uuids: [torque, angle], sample_size: 100, evaluation_ratio: 0.3 }),
    );
    expect(mvd.statusCode).toBe(200);
    expect(mvd.json()).toMatchObject({ window_size: 100, training_size: 70, evaluation_size: 30 });
    expect(mvd.json().evaluation.details.worstRows[0].topSignals.length).toBeGreaterThan(0);
    const few = await post(body({}, { part_numbers: ["M-404"] }));
    expect(few.json()).toMatchObject({
      window_size: 0,
      evaluation: { state: "NO_DATA", reason: "no matching records" },
    });
  });

  it("404 for another customer's line or signal; 400 for an unknown field", async () => {
    expect((await post(body({ line_id: other.line.id }))).statusCode).toBe(404);
    expect((await post(body({}, { signal_uuids: [foreign] }))).statusCode).toBe(404);
    const bad = await post(body({ extra: 1 }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/extra/);
  });
});
