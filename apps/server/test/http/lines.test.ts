// Line Management's routes (requirements.md settings §2.9, §7): PATCH and GET a line, feeder lines with the
// cycle check (also under concurrency), the active toggle stopping the worker for the line, the
// active monitor count and the alert viewing window.
import { randomUUID } from "node:crypto";
import { LINE_MANAGEMENT_MESSAGES, LINE_MESSAGES, ZLine } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, monitors } from "../../src/db/schema/index.js";
import { claimDue } from "../../src/worker/schedule/schedule.js";
import { createLine, createMonitorRow, createPlant, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

const tenant = () => createTenant(t.app, t.database.db);
type Tenant = Awaited<ReturnType<typeof tenant>>;

const patch = (tn: Tenant, lineId: string, payload: unknown, headers = tn.userHeaders) =>
  t.app.inject({ method: "PATCH", url: `/api/lines/${lineId}`, headers, payload: payload as object });
const putWindow = (tn: Tenant, lineId: string, payload: unknown) =>
  t.app.inject({
    method: "PUT",
    url: `/api/notifications/notifications/lines/${lineId}/alert-viewing-window`,
    headers: tn.userHeaders,
    payload: payload as object,
  });

const routes = (tn: Tenant) => [
  { method: "PATCH" as const, url: `/api/lines/${tn.line.id}`, payload: { active: false } },
  { method: "GET" as const, url: `/api/lines/${tn.line.id}/feeder-lines` },
  { method: "GET" as const, url: `/api/lines/${tn.line.id}/exclusion-options` },
  { method: "GET" as const, url: `/api/plant/get-active-monitor-count?plantId=${tn.plant.id}` },
  {
    method: "GET" as const,
    url: `/api/notifications/notifications/plants/${tn.plant.id}/alert-viewing-window`,
  },
  {
    method: "PUT" as const,
    url: `/api/notifications/notifications/lines/${tn.line.id}/alert-viewing-window`,
    payload: { alertViewingWindowDays: 30 },
  },
];

describe("session, role and customer gates", () => {
  it("answers 401 Unauthorized on every Line Management route without a session, and changes nothing", async () => {
    const tn = await tenant();
    for (const r of routes(tn)) {
      const res = await t.app.inject(r);
      expect(res.statusCode, r.url).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthorized" });
    }
    const [row] = await t.database.db.select().from(lines).where(eq(lines.id, tn.line.id));
    expect(row?.active).toBe(true);
    expect(row?.alertViewingWindowDays).toBe(90);
  });

  it("lets a plain user use every route (lines need no role), and answers 403 to a request from another site", async () => {
    const tn = await tenant();
    for (const r of routes(tn)) {
      const res = await t.app.inject({ ...r, headers: tn.userHeaders });
      expect(res.statusCode, r.url).toBe(200);
    }
    for (const r of routes(tn).filter((x) => x.method !== "GET")) {
      const res = await t.app.inject({
        ...r,
        headers: { ...tn.userHeaders, origin: "https://evil.example" },
      });
      expect(res.statusCode, r.url).toBe(403);
    }
  });

  it("answers 404 'Unable to find the line' for another customer's line or an unknown one, and 404 for another customer's plant", async () => {
    const a = await tenant();
    const b = await tenant();
    for (const id of [b.line.id, randomUUID()]) {
      for (const r of [
        { method: "PATCH" as const, url: `/api/lines/${id}`, payload: { active: false } },
        { method: "GET" as const, url: `/api/lines/${id}/feeder-lines` },
        { method: "GET" as const, url: `/api/lines/${id}/exclusion-options` },
        {
          method: "PUT" as const,
          url: `/api/notifications/notifications/lines/${id}/alert-viewing-window`,
          payload: { alertViewingWindowDays: 5 },
        },
      ]) {
        const res = await t.app.inject({ ...r, headers: a.userHeaders });
        expect(res.statusCode, r.url).toBe(404);
        expect(res.json()).toEqual({ message: LINE_MESSAGES.notFound });
      }
    }
    const [bLine] = await t.database.db.select().from(lines).where(eq(lines.id, b.line.id));
    expect(bLine?.active).toBe(true);
    for (const url of [
      `/api/plant/get-active-monitor-count?plantId=${b.plant.id}`,
      `/api/notifications/notifications/plants/${b.plant.id}/alert-viewing-window`,
    ]) {
      const res = await t.app.inject({ url, headers: a.userHeaders });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe("PATCH /api/lines/:lineId", () => {
  it("changes only the fields sent and answers the updated line", async () => {
    const tn = await tenant();
    await patch(tn, tn.line.id, { friendlyName: "Assembly 2", ingestionThresholdHours: 4 });
    const res = await patch(tn, tn.line.id, { excludedModelNumbers: ["M-1"], excludedPartIds: ["P1", "P2"] });
    expect(res.statusCode).toBe(200);
    const line = ZLine.strict().parse(res.json());
    expect(line).toMatchObject({
      id: tn.line.id,
      friendlyName: "Assembly 2",
      ingestionThresholdHours: 4,
      excludedModelNumbers: ["M-1"],
      excludedPartIds: ["P1", "P2"],
      active: true,
    });
    // Empty friendly name and empty threshold are sent as null and clear the value.
    const cleared = await patch(tn, tn.line.id, { friendlyName: null, ingestionThresholdHours: null });
    expect(cleared.json()).toMatchObject({ friendlyName: null, ingestionThresholdHours: null });
    const got = await t.app.inject({ url: `/api/lines/${tn.line.id}`, headers: tn.userHeaders });
    expect(got.json()).toEqual(cleared.json());
  });

  it("answers 400 naming the rule for bad input, and changes nothing", async () => {
    const tn = await tenant();
    const cases: [unknown, string][] = [
      [{ ingestionThresholdHours: -1 }, LINE_MANAGEMENT_MESSAGES.thresholdMin],
      [{ ingestionThresholdHours: 1_000_001 }, LINE_MANAGEMENT_MESSAGES.thresholdMax],
      [{ ingestionThresholdHours: 1.5 }, LINE_MANAGEMENT_MESSAGES.wholeNumber],
      [{ friendlyName: " Lead" }, LINE_MANAGEMENT_MESSAGES.friendlyNameLeadingSpace],
      [{ friendlyName: "a-b" }, LINE_MANAGEMENT_MESSAGES.friendlyNameAlphanumeric],
      [{ active: "no" }, "active"],
      [{ name: "renamed" }, "name"],
      [{}, "Nothing to update"],
      [{ feederLineIds: ["not-a-uuid"] }, "feederLineIds"],
      [{ excludedPartIds: ["P1", "P1"] }, "must not repeat a value"],
    ];
    for (const [body, message] of cases) {
      const res = await patch(tn, tn.line.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toContain(message);
    }
    const other = await tenant();
    // Another customer's line as a feeder: 404, as any of its ids.
    const foreign = await patch(tn, tn.line.id, { feederLineIds: [other.line.id] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: LINE_MANAGEMENT_MESSAGES.feederUnknown });
    const bad = await t.app.inject({
      method: "PATCH",
      url: "/api/lines/line-1",
      headers: tn.userHeaders,
      payload: {},
    });
    expect(bad.statusCode).toBe(400);
    const line = (await t.app.inject({ url: `/api/lines/${tn.line.id}`, headers: tn.userHeaders })).json();
    expect(line).toMatchObject({
      friendlyName: null,
      ingestionThresholdHours: null,
      feederLineIds: [],
      excludedPartIds: [],
    });
  });
});

describe("feeder lines", () => {
  it("takes any line of the customer, across plants, and answers them with the plants and their lines", async () => {
    const tn = await tenant();
    const other = await createPlant(t.database.db, tn.customer.id, { name: "ZZ Plant" });
    const far = await createLine(t.database.db, tn.customer.id, other.id, { name: "Far Line" });
    const near = await createLine(t.database.db, tn.customer.id, tn.plant.id, { name: "AA Near" });
    const res = await patch(tn, tn.line.id, { feederLineIds: [far.id, near.id] });
    expect(res.statusCode).toBe(200);
    expect([...res.json().feederLineIds].sort()).toEqual([far.id, near.id].sort());
    const info = await t.app.inject({
      url: `/api/lines/${tn.line.id}/feeder-lines`,
      headers: tn.userHeaders,
    });
    expect(info.statusCode).toBe(200);
    expect([...info.json().feederLineIds].sort()).toEqual([far.id, near.id].sort());
    expect(info.json().plants).toEqual([
      {
        id: tn.plant.id,
        name: tn.plant.name,
        lines: [
          { id: near.id, name: "AA Near", friendlyName: null },
          { id: tn.line.id, name: tn.line.name, friendlyName: null },
        ],
      },
      { id: other.id, name: "ZZ Plant", lines: [{ id: far.id, name: "Far Line", friendlyName: null }] },
    ]);
    // Replacing the set replaces it; an empty list clears it.
    expect((await patch(tn, tn.line.id, { feederLineIds: [near.id] })).json().feederLineIds).toEqual([
      near.id,
    ]);
    expect((await patch(tn, tn.line.id, { feederLineIds: [] })).json().feederLineIds).toEqual([]);
  });

  it("answers 409 with the circular-dependency text for a change that closes a cycle, and keeps the feeders as they were", async () => {
    const tn = await tenant();
    const db = t.database.db;
    const [a, b, c] = [
      tn.line,
      await createLine(db, tn.customer.id, tn.plant.id),
      await createLine(db, tn.customer.id, tn.plant.id),
    ];
    // a is fed by b, b is fed by c.
    expect((await patch(tn, a.id, { feederLineIds: [b.id] })).statusCode).toBe(200);
    expect((await patch(tn, b.id, { feederLineIds: [c.id] })).statusCode).toBe(200);
    for (const [line, feeders] of [
      [c.id, [a.id]], // c ← a ← b ← c
      [b.id, [c.id, a.id]], // b ← a ← b
      [a.id, [a.id]], // a line feeding itself
    ] as const) {
      const res = await patch(tn, line, { feederLineIds: feeders });
      expect(res.statusCode, `${line} ← ${feeders}`).toBe(409);
      expect(res.json()).toEqual({ message: LINE_MANAGEMENT_MESSAGES.circularDependency });
    }
    const got = async (id: string) =>
      (await t.app.inject({ url: `/api/lines/${id}`, headers: tn.userHeaders })).json().feederLineIds;
    expect(await got(a.id)).toEqual([b.id]);
    expect(await got(b.id)).toEqual([c.id]);
    expect(await got(c.id)).toEqual([]);
    // A diamond is no cycle: c feeds a directly as well.
    expect((await patch(tn, a.id, { feederLineIds: [b.id, c.id] })).statusCode).toBe(200);
  });

  it("never lets two updates sent at once close a cycle together", async () => {
    const tn = await tenant();
    for (let round = 0; round < 6; round++) {
      const x = await createLine(t.database.db, tn.customer.id, tn.plant.id);
      const y = await createLine(t.database.db, tn.customer.id, tn.plant.id);
      const [first, second] = await Promise.all([
        patch(tn, x.id, { feederLineIds: [y.id] }),
        patch(tn, y.id, { feederLineIds: [x.id] }),
      ]);
      const codes = [first.statusCode, second.statusCode].sort();
      expect(codes, `round ${round}`).toEqual([200, 409]);
      const fx = (await t.app.inject({ url: `/api/lines/${x.id}`, headers: tn.userHeaders })).json()
        .feederLineIds;
      const fy = (await t.app.inject({ url: `/api/lines/${y.id}`, headers: tn.userHeaders })).json()
        .feederLineIds;
      expect(fx.length + fy.length, `round ${round}`).toBe(1);
    }
  });
});

describe("the line's active flag", () => {
  it("deactivating stops the worker claiming the line's monitors, keeps them as they were, and reactivating restores them", async () => {
    const tn = await tenant();
    const db = t.database.db;
    const other = await createLine(db, tn.customer.id, tn.plant.id);
    const past = new Date(Date.now() - 60_000);
    const m = await createMonitorRow(db, { ...tn.line, customerId: tn.customer.id }, { nextRunAt: past });
    const keep = await createMonitorRow(db, { ...other, customerId: tn.customer.id }, { nextRunAt: past });
    const claim = () => claimDue(db, { owner: `t-${randomUUID()}`, now: new Date(), leaseMs: 1, limit: 100 });

    const off = await patch(tn, tn.line.id, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ active: false });
    const claimed = (await claim()).map((c) => c.id);
    expect(claimed).toContain(keep.id);
    expect(claimed).not.toContain(m.id);
    const [row] = await db.select().from(monitors).where(eq(monitors.id, m.id));
    expect(row?.active).toBe(true);

    const on = await patch(tn, tn.line.id, { active: true });
    expect(on.json()).toMatchObject({ active: true });
    expect((await claim()).map((c) => c.id)).toContain(m.id);
  });
});

describe("GET /api/plant/get-active-monitor-count", () => {
  it("answers each line of the plant with its active SVD and MVD monitors (cap and inactive ones not counted)", async () => {
    const tn = await tenant();
    const db = t.database.db;
    const second = await createLine(db, tn.customer.id, tn.plant.id, { name: "ZZZ" });
    const line = { ...tn.line, customerId: tn.customer.id };
    await createMonitorRow(db, line, { type: "mvd" });
    await createMonitorRow(db, line, { type: "svd" });
    await createMonitorRow(db, line, { type: "cap" });
    await createMonitorRow(db, line, { type: "svd", active: false });
    const res = await t.app.inject({
      url: `/api/plant/get-active-monitor-count?plantId=${tn.plant.id}`,
      headers: tn.userHeaders,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { lineId: tn.line.id, activeTaskCount: 2 },
      { lineId: second.id, activeTaskCount: 0 },
    ]);
    const bad = await t.app.inject({ url: "/api/plant/get-active-monitor-count", headers: tn.userHeaders });
    expect(bad.statusCode).toBe(400);
  });
});

describe("alert viewing window", () => {
  it("answers 90 days for a line never set, stores a new window, and the line answers it", async () => {
    const tn = await tenant();
    const url = `/api/notifications/notifications/plants/${tn.plant.id}/alert-viewing-window`;
    expect((await t.app.inject({ url, headers: tn.userHeaders })).json()).toEqual([
      { lineId: tn.line.id, alertViewingWindowDays: 90 },
    ]);
    const res = await putWindow(tn, tn.line.id, { alertViewingWindowDays: 7 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ lineId: tn.line.id, alertViewingWindowDays: 7 });
    expect((await t.app.inject({ url, headers: tn.userHeaders })).json()).toEqual([
      { lineId: tn.line.id, alertViewingWindowDays: 7 },
    ]);
    const line = await t.app.inject({ url: `/api/lines/${tn.line.id}`, headers: tn.userHeaders });
    expect(line.json().alertViewingWindowDays).toBe(7);
  });

  it("answers 400 'Must be between 1 and 90' outside 1 to 90 or for a fraction, and keeps the window", async () => {
    const tn = await tenant();
    for (const v of [0, 91, 2.5, "7", null]) {
      const res = await putWindow(tn, tn.line.id, { alertViewingWindowDays: v });
      expect(res.statusCode, String(v)).toBe(400);
      expect(res.json().message).toContain(LINE_MANAGEMENT_MESSAGES.alertFilterRange);
    }
    const line = await t.app.inject({ url: `/api/lines/${tn.line.id}`, headers: tn.userHeaders });
    expect(line.json().alertViewingWindowDays).toBe(90);
  });
});
