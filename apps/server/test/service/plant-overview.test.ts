// The plant overview (issue 18 §3): per line its open alerts by monitor type with the oldest's
// opening time, its monitors' last states worst first, records per hour over the plant's last 24
// hours (an hour without records is a 0), No Ingestion; the plant's newest alerts. Another
// customer's rows never count, and another customer's plant is a 404.
import { PLANT_MESSAGES, PLANT_OVERVIEW_NEWEST_ALERTS, ZPlantOverview } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, stations } from "../../src/db/schema/index.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createPartRecordsRepo } from "../../src/modules/part-records/part-records.repo.js";
import { createCustomer, createLine, createMonitorRow, createPlant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
const HOUR = 3_600_000;
const db = () => t.database.db;
// 14:20 UTC is 19:50 in Kolkata (UTC+5:30): the plant's current hour began at 19:00 there, 13:30
// UTC, so the buckets run from 14:30 UTC yesterday to 14:30 UTC today.
const NOW = new Date("2026-05-12T14:20:00Z");
const FROM = "2026-05-11T14:30:00.000Z";
const at = (hoursAfterFrom: number, minutes = 10) =>
  new Date(Date.parse(FROM) + hoursAfterFrom * HOUR + minutes * 60_000);

async function tenant() {
  const customer = await createCustomer(db());
  const plant = await createPlant(db(), customer.id, { timeZone: "Asia/Kolkata" });
  const ctx = { customerId: customer.id } as AuthContext;
  return { customer, plant, ctx };
}

async function station(line: { id: string; customerId: string }, name = "Station 1") {
  const [row] = await db()
    .insert(stations)
    .values({ customerId: line.customerId, lineId: line.id, name })
    .returning();
  if (!row) throw new Error("no station");
  return row;
}

// Through the one writer of part records, which keeps the counts the overview reads.
const records = (stationId: string, times: Date[], prefix = "P") =>
  createPartRecordsRepo(db()).insertRecords(
    times.map((ts, i) => ({ stationId, ts, partId: `${prefix}${i}` })),
  );

async function alert(
  line: { id: string; customerId: string },
  values: Partial<typeof alerts.$inferInsert> & { openedAt: Date },
) {
  const [row] = await db()
    .insert(alerts)
    .values({
      customerId: line.customerId,
      lineId: line.id,
      lastSeenAt: values.openedAt,
      rule: "breach",
      ...values,
    })
    .returning();
  if (!row) throw new Error("no alert");
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
  t.now.value = NOW;
});
afterAll(() => closeTestApp(t));

describe("plant overview", () => {
  it("counts open alerts by monitor type with the oldest's opening, never resolved ones", async () => {
    const a = await tenant();
    const line = await createLine(db(), a.customer.id, a.plant.id, { name: "Assembly" });
    const svd1 = await createMonitorRow(db(), line, { type: "svd" });
    const svd2 = await createMonitorRow(db(), line, { type: "svd" });
    const mvd = await createMonitorRow(db(), line, { type: "mvd" });
    await alert(line, { monitorId: svd1.id, openedAt: new Date(NOW.getTime() - 3 * HOUR) });
    await alert(line, {
      monitorId: svd2.id,
      state: "ACKNOWLEDGED",
      openedAt: new Date(NOW.getTime() - 1 * HOUR),
    });
    await alert(line, {
      monitorId: mvd.id,
      state: "RESOLVED",
      openedAt: new Date(NOW.getTime() - 5 * HOUR),
      resolvedAt: NOW,
    });
    await alert(line, { kind: "no_data", rule: "no_data", openedAt: new Date(NOW.getTime() - 30 * HOUR) });

    const o = await t.services.plantOverview.get(a.ctx, a.plant.id);
    expect(ZPlantOverview.parse(o)).toEqual(o);
    expect(o.lines[0]?.status).toBe("ALERTING");
    expect(o.lines[0]?.openAlerts).toEqual([
      { type: "svd", count: 2, oldestOpenedAt: new Date(NOW.getTime() - 3 * HOUR).toISOString() },
      { type: "no_data", count: 1, oldestOpenedAt: new Date(NOW.getTime() - 30 * HOUR).toISOString() },
    ]);
  });

  it("lists each line's monitors with their last states, active ones and the worst state first", async () => {
    const a = await tenant();
    const line = await createLine(db(), a.customer.id, a.plant.id);
    const evaluatedAt = new Date(NOW.getTime() - 10 * 60_000);
    await createMonitorRow(db(), line, {
      name: "Torque",
      type: "svd",
      lastState: "OK",
      lastEvaluatedAt: evaluatedAt,
    });
    await createMonitorRow(db(), line, {
      name: "Angle",
      type: "svd",
      lastState: "BREACH",
      lastEvaluatedAt: evaluatedAt,
    });
    await createMonitorRow(db(), line, { name: "New one", type: "mvd" });
    await createMonitorRow(db(), line, { name: "Stopped", type: "cap", active: false, lastState: "ERROR" });

    const [l] = (await t.services.plantOverview.get(a.ctx, a.plant.id)).lines;
    expect(l?.monitors.map((m) => [m.name, m.type, m.active, m.lastState])).toEqual([
      ["Angle", "svd", true, "BREACH"],
      ["Torque", "svd", true, "OK"],
      ["New one", "mvd", true, null],
      ["Stopped", "cap", false, "ERROR"],
    ]);
    expect(l?.monitors[0]?.lastEvaluatedAt).toBe(evaluatedAt.toISOString());
  });

  it("counts records per hour of the plant's clock, oldest first, an hour without records as 0", async () => {
    const a = await tenant();
    const line = await createLine(db(), a.customer.id, a.plant.id);
    const s1 = await station(line);
    const s2 = await station(line, "Station 2");
    await records(s1.id, [
      at(-1), // before the first bucket: not counted
      at(0, 0), // the first bucket's first instant
      at(0, 59),
      at(1),
      at(23, 19), // the current hour, before now
    ]);
    await records(s2.id, [at(1, 30), at(24, 0)]); // the second at `to`: the next hour, not counted

    const o = await t.services.plantOverview.get(a.ctx, a.plant.id);
    expect(o.hoursFrom).toBe(FROM);
    const hours = o.lines[0]?.recordsPerHour ?? [];
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe(2);
    expect(hours[1]).toBe(2);
    expect(hours[2]).toBe(0);
    expect(hours[23]).toBe(1);
    expect(hours.reduce((x, y) => x + y, 0)).toBe(5);
  });

  it("shows a record stored late into an older hour at once, and moves every bucket as the hour turns", async () => {
    const a = await tenant();
    const line = await createLine(db(), a.customer.id, a.plant.id);
    const s1 = await station(line);
    await records(s1.id, [at(5), at(22, 40), at(23, 1)]);
    const hoursNow = async () =>
      (await t.services.plantOverview.get(a.ctx, a.plant.id)).lines[0]?.recordsPerHour;
    expect((await hoursNow())?.filter((n) => n > 0)).toEqual([1, 1, 1]);

    // New records in the current hour, batched into the previous one and late into hour 5 (a
    // CSV upload, a backlog after an outage) all show on the next request.
    await records(s1.id, [at(23, 2), at(22, 50), at(5, 30)], "late");
    const before = await hoursNow();
    expect(before?.[23]).toBe(2);
    expect(before?.[22]).toBe(2);
    expect(before?.[5]).toBe(2);

    // An hour later every bucket moves one left.
    try {
      t.now.value = new Date(NOW.getTime() + HOUR);
      const after = await hoursNow();
      expect(after?.[4]).toBe(2);
      expect(after?.[21]).toBe(2);
      expect(after?.[22]).toBe(2);
      expect(after?.[23]).toBe(0);
    } finally {
      t.now.value = NOW;
    }
  });

  it("says No Ingestion by the line list's rule and gives a line without anything empty lists", async () => {
    const a = await tenant();
    await createLine(db(), a.customer.id, a.plant.id, {
      name: "A quiet",
      ingestionThresholdHours: 2,
      lastIngestedTime: new Date(NOW.getTime() - 3 * HOUR),
    });
    await createLine(db(), a.customer.id, a.plant.id, {
      name: "B busy",
      ingestionThresholdHours: 2,
      lastIngestedTime: new Date(NOW.getTime() - 1 * HOUR),
    });
    await createLine(db(), a.customer.id, a.plant.id, { name: "C new", isNewLine: true });
    const o = await t.services.plantOverview.get(a.ctx, a.plant.id);
    expect(o.lines.map((l) => [l.name, l.noIngestion, l.isNewLine, l.status])).toEqual([
      ["A quiet", true, false, "OK"],
      ["B busy", false, false, "OK"],
      ["C new", false, true, "NO_DATA_YET"],
    ]);
    expect(o.lines[2]).toMatchObject({ openAlerts: [], monitors: [], recordsPerHour: new Array(24).fill(0) });
    expect(o.newestAlerts).toEqual([]);
  });

  it("lists the plant's newest alerts across lines, any state, newest first, at most ten", async () => {
    const a = await tenant();
    const l1 = await createLine(db(), a.customer.id, a.plant.id);
    const l2 = await createLine(db(), a.customer.id, a.plant.id);
    const m = await createMonitorRow(db(), l1, { name: "Torque", type: "svd" });
    const made = [];
    for (let i = 0; i < 12; i++) {
      const line = i % 2 ? l2 : l1;
      made.push(
        await alert(line, {
          kind: "no_data",
          rule: "no_data",
          state: "RESOLVED",
          openedAt: new Date(NOW.getTime() - (i + 2) * HOUR),
        }),
      );
    }
    const newest = await alert(l1, { monitorId: m.id, openedAt: new Date(NOW.getTime() - HOUR) });
    const o = await t.services.plantOverview.get(a.ctx, a.plant.id);
    expect(o.newestAlerts).toHaveLength(PLANT_OVERVIEW_NEWEST_ALERTS);
    expect(o.newestAlerts[0]).toEqual({
      id: newest.id,
      lineId: l1.id,
      kind: "monitor",
      state: "OPEN",
      monitor: { id: m.id, name: "Torque", type: "svd" },
      openedAt: newest.openedAt.toISOString(),
      lastSeenAt: newest.lastSeenAt.toISOString(),
      count: 1,
    });
    expect(o.newestAlerts.slice(1).map((x) => x.id)).toEqual(made.slice(0, 9).map((x) => x.id));
    expect(o.newestAlerts[1]).toMatchObject({ monitor: null, kind: "no_data", state: "RESOLVED" });
  });

  it("leaves out a deactivated line with its monitors, records and alerts, as the top bar hides it", async () => {
    const a = await tenant();
    const on = await createLine(db(), a.customer.id, a.plant.id, { name: "On" });
    const off = await createLine(db(), a.customer.id, a.plant.id, { name: "Off", active: false });
    const m = await createMonitorRow(db(), off, { type: "svd" });
    await alert(off, { monitorId: m.id, openedAt: new Date(NOW.getTime() - HOUR) });
    await records((await station(off)).id, [at(3)]);
    const o = await t.services.plantOverview.get(a.ctx, a.plant.id);
    expect(o.lines.map((l) => l.id)).toEqual([on.id]);
    expect(o.newestAlerts).toEqual([]);
  });

  it("never counts another customer's rows, and answers 404 for another customer's plant", async () => {
    const a = await tenant();
    const b = await tenant();
    const la = await createLine(db(), a.customer.id, a.plant.id);
    const lb = await createLine(db(), b.customer.id, b.plant.id);
    const mb = await createMonitorRow(db(), lb, { type: "svd", lastState: "BREACH" });
    await alert(lb, { monitorId: mb.id, openedAt: new Date(NOW.getTime() - HOUR) });
    await records((await station(lb)).id, [at(5)]);

    const oa = await t.services.plantOverview.get(a.ctx, a.plant.id);
    expect(oa.lines.map((l) => l.id)).toEqual([la.id]);
    expect(oa.lines[0]).toMatchObject({ openAlerts: [], monitors: [] });
    expect(oa.lines[0]?.recordsPerHour.every((n) => n === 0)).toBe(true);
    expect(oa.newestAlerts).toEqual([]);
    await expect(t.services.plantOverview.get(a.ctx, b.plant.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: PLANT_MESSAGES.notFound,
    });
    // A plant id no one has: the same answer.
    const unknownPlant = await createPlant(db(), b.customer.id);
    await expect(t.services.plantOverview.get(a.ctx, unknownPlant.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
