import {
  CHALLENGE_RANGE_TEXTS,
  monitorToTask,
  type TCapMonitorStatus,
  type TMonitor,
} from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts } from "../../src/db/schema/index.js";
import {
  createEvaluation,
  createMonitorRow,
  createStationWithSignals,
  createTenant,
  setFeatureFlag,
} from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

const url = (lineId: string) => `/api/lines/${lineId}/cap-monitors/status`;

describe("GET /api/lines/:lineId/cap-monitors/status", () => {
  it("answers 401 without a session, 404 for another customer's line, 400 for a bad id", async () => {
    expect((await t.app.inject({ method: "GET", url: url(a.line.id) })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "GET", url: url(b.line.id), headers: a.userHeaders })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: "GET", url: url("x"), headers: a.userHeaders })).statusCode).toBe(
      400,
    );
  });

  it("gives each cap monitor its latest evaluation's state and Ppk and its latest alert", async () => {
    const db = t.database.db;
    const cap = await createMonitorRow(db, a.line, { type: "cap" });
    const fresh = await createMonitorRow(db, a.line, { type: "cap" });
    await createMonitorRow(db, a.line, { type: "svd" });
    await createEvaluation(db, cap, {
      state: "OK",
      slot: new Date("2026-01-01T00:00:00Z"),
      details: { ppk: 1.9 },
    });
    await createEvaluation(db, cap, {
      state: "BREACH",
      slot: new Date("2026-01-01T00:15:00Z"),
      details: { ppk: 0.82 },
    });
    const at = new Date("2026-01-01T00:15:00Z");
    const [alert] = await db
      .insert(alerts)
      .values({
        customerId: a.customer.id,
        lineId: a.line.id,
        monitorId: cap.id,
        openedAt: at,
        lastSeenAt: at,
        rule: "breach",
      })
      .returning();
    const res = await t.app.inject({ method: "GET", url: url(a.line.id), headers: a.userHeaders });
    expect(res.statusCode).toBe(200);
    const list = res.json() as TCapMonitorStatus[];
    expect(list).toHaveLength(2);
    expect(list.find((s) => s.monitorId === cap.id)).toEqual({
      monitorId: cap.id,
      lastState: "BREACH",
      ppk: 0.82,
      latestAlertId: alert?.id,
    });
    expect(list.find((s) => s.monitorId === fresh.id)).toEqual({
      monitorId: fresh.id,
      lastState: null,
      ppk: null,
      latestAlertId: null,
    });
  });
});

describe("a cap monitor's filters from the Cap Alerts page", () => {
  it("keeps the op count and the Western Electric rules 2–4 saved with PUT /api/tasks", async () => {
    const st = await createStationWithSignals(t.database.db, a.customer.id, a.line.id);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/monitors",
      headers: a.userHeaders,
      payload: { signalId: st.measurements[1]?.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const get = async () =>
      (
        await t.app.inject({
          method: "POST",
          url: "/api/tasks/get-by-id",
          headers: a.userHeaders,
          payload: { taskId: id },
        })
      ).json() as TMonitor;
    const monitor = await get();
    const body = monitorToTask({
      ...monitor,
      monitor_filter: { ...monitor.monitor_filter, op_count: "LAST", run_rules: [4, 2] },
    });
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/tasks",
      headers: a.userHeaders,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get()).monitor_filter).toMatchObject({ op_count: "LAST", run_rules: [2, 4] });
    const bad = await t.app.inject({
      method: "PUT",
      url: "/api/tasks",
      headers: a.userHeaders,
      payload: { ...body, task_details: { ...body.task_details, run_rules: [5] } },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("stores a cap monitor's challenge ranges; part based only with its flag, cap only", async () => {
    const st = await createStationWithSignals(t.database.db, a.customer.id, a.line.id);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/monitors",
      headers: a.userHeaders,
      payload: { signalId: st.measurements[2]?.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const get = async () =>
      (
        await t.app.inject({
          method: "POST",
          url: "/api/tasks/get-by-id",
          headers: a.userHeaders,
          payload: { taskId: id },
        })
      ).json() as TMonitor;
    const monitor = await get();
    const put = (challenge_ranges: unknown) => {
      const body = monitorToTask(monitor);
      return t.app.inject({
        method: "PUT",
        url: "/api/tasks",
        headers: a.userHeaders,
        payload: { ...body, task_details: { ...body.task_details, challenge_ranges } },
      });
    };
    const time = { mode: "TIME", from: "2026-11-20T08:00:00.000Z", to: "2026-11-20T09:00:00.000Z" };
    const part = { mode: "PART", from_part_id: "P-1", to_part_id: "P-9" };
    const saved = await put([time]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get()).monitor_filter.challenge_ranges).toEqual([time]);

    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capChallengePartRange", false);
    const off = await put([time, part]);
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe(CHALLENGE_RANGE_TEXTS.partFlagOff);
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capChallengePartRange", true);
    expect((await put([time, part])).statusCode).toBe(200);
    expect((await get()).monitor_filter.challenge_ranges).toEqual([time, part]);

    const backwards = await put([{ ...time, from: time.to, to: time.from }]);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain(CHALLENGE_RANGE_TEXTS.timeOrder);
  });
});
