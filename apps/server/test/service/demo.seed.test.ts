import { SIGNAL_ENTITY_TYPES } from "@linewatch/contracts";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../../src/db/client.js";
import {
  challengeParts,
  customers,
  ingestors,
  lines,
  modelNumbers,
  partAttributeValues,
  partRecords,
  plants,
  resultClassifications,
  signalGroupMembers,
  signalGroups,
  signals,
  stations,
  users,
} from "../../src/db/schema/index.js";
import { generateDemoRecords } from "../../src/modules/demo/demo.records.js";
import {
  DEMO_CUSTOMER_NAME,
  DEMO_DAYS,
  DEMO_DRIFT,
  DEMO_LINES,
  DEMO_PLANTS,
  DEMO_SEED,
  DEMO_STEP_CHANGE,
  DEMO_USERS,
  PROVIDER_CUSTOMER_NAME,
  seedDemoIfEmpty,
} from "../../src/modules/demo/demo.seed.js";
import { createServices } from "../../src/services.js";
import { createTestDatabase } from "../helpers/db.js";

const HOUR = 3_600_000;
// A fixed end, so the stored rows can be compared with a fresh generation.
const END = new Date("2026-03-10T12:00:00.000Z");

let database: Database;
let db: Db;
let seeded: Awaited<ReturnType<typeof seedDemoIfEmpty>>;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  seeded = await seedDemoIfEmpty(db, { now: END });
  console.log(`demo seed: ${seeded?.ms} ms, ${seeded?.partRecords} part records (${database.kind})`);
}, 120_000);
afterAll(() => database?.close());

const count = async (table: PgTable) => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row?.n ?? 0;
};

async function lineByName(name: string) {
  const [line] = await db.select().from(lines).where(eq(lines.name, name));
  if (!line) throw new Error(`no line ${name}`);
  return line;
}

async function signalOf(lineName: string, stationName: string, signalName: string) {
  const line = await lineByName(lineName);
  const [row] = await db
    .select({ stationId: stations.id, slot: signals.slot, storage: signals.storage })
    .from(signals)
    .innerJoin(stations, eq(stations.id, signals.stationId))
    .where(and(eq(stations.lineId, line.id), eq(stations.name, stationName), eq(signals.name, signalName)));
  if (!row) throw new Error(`no signal ${signalName}`);
  return row;
}

/** Mean of a numeric signal over [from, to), first operations only. */
async function mean(s: { stationId: string; slot: number }, from: Date, to: Date) {
  const [row] = await db
    .select({ m: sql<number>`avg(${partRecords.numValues}[${sql.raw(String(s.slot + 1))}])::float8` })
    .from(partRecords)
    .where(
      and(
        eq(partRecords.stationId, s.stationId),
        eq(partRecords.op, 1),
        gte(partRecords.ts, from),
        lt(partRecords.ts, to),
      ),
    );
  return Number(row?.m);
}

describe("demo seed", () => {
  it("seeds an empty database once; a second call returns null and changes nothing", async () => {
    expect(seeded).not.toBeNull();
    expect(seeded?.partRecords).toBe(await count(partRecords));
    const tables = [customers, plants, lines, stations, signals, partRecords, users, modelNumbers] as const;
    const before = await Promise.all(tables.map((t) => count(t)));
    expect(await seedDemoIfEmpty(db, { now: new Date() })).toBeNull();
    expect(await Promise.all(tables.map((t) => count(t)))).toEqual(before);
  });

  it("creates the demo and provider customers, two plants in different time zones with ingestors, three lines", async () => {
    const cs = await db.select().from(customers);
    expect(cs.find((c) => c.name === DEMO_CUSTOMER_NAME)?.isDemo).toBe(true);
    expect(cs.find((c) => c.name === PROVIDER_CUSTOMER_NAME)?.isProvider).toBe(true);
    const ps = await db.select().from(plants);
    expect(ps.map((p) => [p.name, p.timeZone]).sort()).toEqual(
      [DEMO_PLANTS.detroit, DEMO_PLANTS.stuttgart].map((p) => [p.name, p.timeZone]).sort(),
    );
    expect(await count(ingestors)).toBe(2);
    const ls = await db.select().from(lines);
    expect(ls.map((l) => l.name).sort()).toEqual(Object.values(DEMO_LINES).sort());
    expect(ls.filter((l) => l.isNewLine).map((l) => l.name)).toEqual([DEMO_LINES.brake]);
    expect(ls.some((l) => l.ingestionThresholdHours != null)).toBe(true);
    expect(ls.some((l) => l.ingestionThresholdHours == null)).toBe(true);
  });

  it("has signals of every entity type, associations to signals of the right type, final stations with a result", async () => {
    const all = await db.select().from(signals);
    expect(new Set(all.map((s) => s.entityType))).toEqual(new Set(SIGNAL_ENTITY_TYPES));
    const byId = new Map(all.map((s) => [s.id, s]));
    const links = [
      ["upperLimitSignalId", "UPPER_LIMIT"],
      ["lowerLimitSignalId", "LOWER_LIMIT"],
      ["resultSignalId", "RESULT"],
    ] as const;
    for (const [field, type] of links) {
      const linked = all.filter((s) => s[field] != null);
      expect(linked.length, field).toBeGreaterThan(0);
      for (const s of linked) {
        const target = byId.get(s[field] as string);
        expect(s.entityType).toBe("MEASUREMENT");
        expect(target?.entityType, `${s.name}.${field}`).toBe(type);
        expect(target?.stationId).toBe(s.stationId);
      }
    }
    // Slots are unique per station and storage, and below the station's next free slot.
    const sts = await db.select().from(stations);
    for (const st of sts) {
      const mine = all.filter((s) => s.stationId === st.id);
      const nums = mine.filter((s) => s.storage === "num").map((s) => s.slot);
      const texts = mine.filter((s) => s.storage === "text").map((s) => s.slot);
      expect(nums.sort((a, b) => a - b)).toEqual([...Array(st.nextNumSlot).keys()]);
      expect(texts.sort((a, b) => a - b)).toEqual([...Array(st.nextTextSlot).keys()]);
    }
    const finals = sts.filter((st) => st.final);
    expect(finals.length).toBeGreaterThan(0);
    for (const st of finals)
      expect(all.some((s) => s.stationId === st.id && s.entityType === "RESULT")).toBe(true);
  });

  it("classifies every result signal's values as pass, fail or other, with failure modes", async () => {
    const results = await db.select().from(signals).where(eq(signals.entityType, "RESULT"));
    const rcs = await db.select().from(resultClassifications);
    for (const r of results) {
      const mine = rcs.filter((c) => c.signalId === r.id);
      expect(mine.some((c) => c.result === "pass")).toBe(true);
      expect(mine.some((c) => c.result === "fail" && c.failureMode)).toBe(true);
    }
    expect(rcs.some((c) => c.result === "other")).toBe(true);
  });

  it("has signal groups with members, part attribute values, model numbers and challenge parts", async () => {
    expect(await count(signalGroups)).toBeGreaterThanOrEqual(3);
    expect(await count(signalGroupMembers)).toBeGreaterThanOrEqual(6);
    const values = await db
      .select({ signalId: signals.id, name: signals.name, value: partAttributeValues.value })
      .from(partAttributeValues)
      .innerJoin(signals, eq(signals.id, partAttributeValues.signalId));
    const valuesOf = (signalId: string) =>
      new Set(values.filter((v) => v.signalId === signalId).map((v) => v.value));
    const attributes = await db.select().from(signals).where(eq(signals.entityType, "PART_ATTRIBUTE"));
    const withRecords = new Set([
      (await lineByName(DEMO_LINES.axle)).id,
      (await lineByName(DEMO_LINES.valve)).id,
    ]);
    for (const name of ["Shift", "Material Lot", "Operator", "Fixture"]) {
      expect(
        attributes.some((a) => a.name === name && withRecords.has(a.lineId)),
        name,
      ).toBe(true);
    }
    for (const a of attributes.filter((x) => withRecords.has(x.lineId))) {
      // A handful of values each: shifts, lots changing every two days, operators, fixtures.
      expect(valuesOf(a.id).size, a.name).toBeGreaterThanOrEqual(2);
      expect(valuesOf(a.id).size, a.name).toBeLessThanOrEqual(8);
      if (a.name === "Shift") expect(valuesOf(a.id)).toEqual(new Set(["A", "B", "C"]));
    }
    const models = await db.select().from(modelNumbers);
    expect(models.filter((m) => m.isChallenge).length).toBeGreaterThanOrEqual(1);
    expect(models.filter((m) => !m.isChallenge).length).toBeGreaterThanOrEqual(2);
    const parts = await db.select().from(challengeParts);
    expect(parts.length).toBeGreaterThanOrEqual(1);
    // Challenge parts and every model number actually occur in the records.
    const [seen] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(partRecords)
      .where(eq(partRecords.partId, parts[0]?.partId ?? ""));
    expect(seen?.n).toBeGreaterThan(0);
    const used = await db.selectDistinct({ m: partRecords.modelNumber }).from(partRecords);
    for (const u of used) expect(models.map((m) => m.value)).toContain(u.m);
  });

  it("covers 14 days ending now for two lines at about one part a minute per station", async () => {
    const perStation = await db
      .select({
        line: lines.name,
        station: stations.name,
        n: sql<number>`count(*)::int`,
        first: sql<string>`min(${partRecords.ts})`,
        last: sql<string>`max(${partRecords.ts})`,
      })
      .from(partRecords)
      .innerJoin(stations, eq(stations.id, partRecords.stationId))
      .innerJoin(lines, eq(lines.id, stations.lineId))
      .where(eq(partRecords.op, 1))
      .groupBy(lines.name, stations.name);
    expect(new Set(perStation.map((r) => r.line))).toEqual(new Set([DEMO_LINES.axle, DEMO_LINES.valve]));
    expect(perStation.length).toBe(6);
    const minutes = DEMO_DAYS * 1440;
    for (const r of perStation) {
      expect(r.n).toBeGreaterThan(minutes * 0.99);
      expect(r.n).toBeLessThanOrEqual(minutes);
      expect(new Date(r.first).getTime()).toBeLessThan(END.getTime() - DEMO_DAYS * 24 * HOUR + HOUR);
      expect(new Date(r.last).getTime()).toBeGreaterThan(END.getTime() - 10 * 60_000);
      expect(new Date(r.last).getTime()).toBeLessThanOrEqual(END.getTime());
    }
    // Retests of failed final tests carry operation count 2.
    const [retests] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(partRecords)
      .where(eq(partRecords.op, 2));
    expect(retests?.n).toBeGreaterThan(0);
    for (const name of [DEMO_LINES.axle, DEMO_LINES.valve]) {
      const line = await lineByName(name);
      const last = perStation.filter((r) => r.line === name).map((r) => new Date(r.last).getTime());
      expect(line.lastIngestedTime?.getTime()).toBeGreaterThanOrEqual(Math.max(...last));
    }
  });

  it("generates the same values from the same seed, other values from another, and stores them as generated", {
    timeout: 60_000,
  }, async () => {
    const a = generateDemoRecords({ seed: DEMO_SEED, end: END });
    const b = generateDemoRecords({ seed: DEMO_SEED, end: END });
    expect(b).toEqual(a);
    // Values depend on the seed only, not on when the seed runs.
    const later = generateDemoRecords({ seed: DEMO_SEED, end: new Date(END.getTime() + 5 * HOUR) });
    expect(later[0]?.records[1234]?.numValues).toEqual(a[0]?.records[1234]?.numValues);
    const other = generateDemoRecords({ seed: DEMO_SEED + 1, end: END });
    expect(other[0]?.records[1234]?.numValues).not.toEqual(a[0]?.records[1234]?.numValues);

    const total = a.reduce((n, l) => n + l.records.length, 0);
    expect(await count(partRecords)).toBe(total);
    const line = await lineByName(DEMO_LINES.valve);
    const sample = (a.find((l) => l.line === DEMO_LINES.valve)?.records ?? []).filter(
      (_, i) => i % 997 === 0,
    );
    for (const r of sample) {
      const [row] = await db
        .select({ num: partRecords.numValues, text: partRecords.textValues, model: partRecords.modelNumber })
        .from(partRecords)
        .innerJoin(stations, eq(stations.id, partRecords.stationId))
        .where(
          and(
            eq(stations.lineId, line.id),
            eq(stations.name, r.station),
            eq(partRecords.partId, r.partId),
            eq(partRecords.ts, r.ts),
            eq(partRecords.op, r.op),
          ),
        );
      expect(row).toEqual({ num: r.numValues, text: r.textValues, model: r.modelNumber });
    }
  });

  it("shows the step change on torque (and not on angle) and the slow drift on the bore", async () => {
    const stepAt = END.getTime() - DEMO_STEP_CHANGE.hoursBeforeEnd * HOUR;
    const window = 48 * HOUR;
    const torque = await signalOf(DEMO_STEP_CHANGE.line, DEMO_STEP_CHANGE.station, DEMO_STEP_CHANGE.signal);
    const before = await mean(torque, new Date(stepAt - window), new Date(stepAt));
    const after = await mean(torque, new Date(stepAt), new Date(stepAt + window));
    expect(after - before).toBeGreaterThan(DEMO_STEP_CHANGE.delta - 0.1);
    expect(after - before).toBeLessThan(DEMO_STEP_CHANGE.delta + 0.1);
    const angle = await signalOf(DEMO_STEP_CHANGE.line, DEMO_STEP_CHANGE.station, "Angle");
    const angleShift =
      (await mean(angle, new Date(stepAt), new Date(stepAt + window))) -
      (await mean(angle, new Date(stepAt - window), new Date(stepAt)));
    expect(Math.abs(angleShift)).toBeLessThan(0.2);

    const driftAt = END.getTime() - DEMO_DRIFT.hoursBeforeEnd * HOUR;
    const bore = await signalOf(DEMO_DRIFT.line, DEMO_DRIFT.station, DEMO_DRIFT.signal);
    const start = await mean(bore, new Date(driftAt - window), new Date(driftAt));
    const middle = await mean(
      bore,
      new Date(driftAt + (DEMO_DRIFT.hoursBeforeEnd / 2 - 3) * HOUR),
      new Date(driftAt + (DEMO_DRIFT.hoursBeforeEnd / 2 + 3) * HOUR),
    );
    const end = await mean(bore, new Date(END.getTime() - 6 * HOUR), END);
    expect(middle - start).toBeCloseTo(DEMO_DRIFT.total / 2, 3);
    expect(end - start).toBeCloseTo(DEMO_DRIFT.total, 3);
  });

  it("signs in the demo administrator, the demo user and provider support through the auth service", async () => {
    const services = createServices({ db, publicUrl: "http://localhost:8080" });
    for (const u of Object.values(DEMO_USERS)) {
      const { token } = await services.auth.login({ email: u.email, password: u.password });
      const ctx = await services.auth.resolve(token);
      expect(ctx?.email).toBe(u.email);
      expect(ctx?.isAdministrator, u.email).toBe(u.isAdministrator);
      expect(ctx?.isProviderStaff, u.email).toBe(u.isProviderStaff);
      if (!ctx) continue;
      const me = await services.auth.me(ctx);
      expect(me.homeCustomer.name).toBe(u.isProviderStaff ? PROVIDER_CUSTOMER_NAME : DEMO_CUSTOMER_NAME);
      if (!u.isProviderStaff) {
        expect(ctx.locationPlantId).not.toBeNull();
        expect([DEMO_PLANTS.detroit.name, DEMO_PLANTS.stuttgart.name]).toContain(ctx.locationName);
      }
    }
    await expect(
      services.auth.login({ email: DEMO_USERS.admin.email, password: "not-the-password" }),
    ).rejects.toThrow();
  });
});

describe("demo monitors", () => {
  it("seeds two active monitors of each type across the two lines with records, once", async () => {
    const { createTestDatabase } = await import("../helpers/db.js");
    const { seedDemoIfEmpty } = await import("../../src/modules/demo/demo.seed.js");
    const { seedDemoMonitors } = await import("../../src/modules/demo/demo.monitors.js");
    const { monitors: monitorsTable } = await import("../../src/db/schema/index.js");
    const d = await createTestDatabase();
    try {
      await seedDemoIfEmpty(d.db, { days: 1 });
      const rows = await d.db.select().from(monitorsTable);
      const byType = (t: string) => rows.filter((r) => r.type === t);
      for (const t of ["svd", "mvd", "cap"]) {
        expect(byType(t), t).toHaveLength(2);
        expect(new Set(byType(t).map((r) => r.lineId)).size, t).toBe(2);
      }
      expect(rows.every((r) => r.active && r.nextRunAt != null)).toBe(true);
      expect(await seedDemoMonitors(d.db)).toBe(0);
    } finally {
      await d.close();
    }
  });
});
