import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../../src/db/client.js";
import {
  deadLetters,
  lines,
  partRecords,
  resultClassifications,
  signals,
  stations,
} from "../../src/db/schema/index.js";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { DEMO_CATALOG } from "../../src/modules/demo/demo.catalog.js";
import { DEMO_LINES, DEMO_STATIONS } from "../../src/modules/demo/demo.constants.js";
import { type LineSimulatorHandle, startLineSimulator } from "../../src/modules/demo/demo.live.mqtt.js";
import {
  DEMO_LIVE_SCHEDULE,
  DISTURBANCE_KINDS,
  type DisturbanceKind,
  disturbancesAt,
  type ScheduledDisturbance,
} from "../../src/modules/demo/demo.live.schedule.js";
import { startDemoLive } from "../../src/modules/demo/demo.live.server.js";
import { seedDemoIfEmpty } from "../../src/modules/demo/demo.seed.js";
import { createServices } from "../../src/services.js";
import { createTestDatabase } from "../helpers/db.js";
import { eventually } from "../helpers/mqtt.js";

const MINUTE = 60_000;
/** Simulated ms per real ms: 26 simulated minutes take about 5 s. */
const SCALE = 300;
/** Parts a minute per station: 10 s apart on the simulated clock. */
const RATE = 6;
const RUN_MINUTES = 26;
// The seeded day ends 40 simulated minutes ago, so no live record is stamped in the future.
const SEED_END = new Date(Date.now() - 40 * MINUTE);

let database: Database;
let db: Db;
let ingest: Ingest;
let simulator: LineSimulatorHandle;
let startedAt: number;
/** Part records before the simulator started: what the simulator stored is the rest. */
let seededCount: number;
const recordCount = async () =>
  (await db.select({ n: sql<number>`count(*)::int` }).from(partRecords))[0]?.n ?? 0;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const services = createServices({ db, publicUrl: "http://localhost:8080" });
  await seedDemoIfEmpty(db, { now: SEED_END, days: 1 });
  seededCount = await recordCount();
  ingest = await startIngest({ db, partRecords: services.partRecords, mqttPort: 0, refreshMs: 300 });
  // The simulated clock stands at SEED_END until the simulator has started, then runs 300 times
  // real time: a slow start (a busy machine) must not age the first live record.
  let realStart: number | null = null;
  const clock = () => SEED_END.getTime() + (realStart == null ? 0 : (Date.now() - realStart) * SCALE);
  const started = await startDemoLive({
    db,
    url: ingest.url,
    loginFor: ingest.internalLogin,
    rate: RATE,
    now: clock,
    tickMs: 20,
  });
  if (!started) throw new Error("simulator not started");
  realStart = Date.now();
  simulator = started;
  startedAt = simulator.startedAt;
  await eventually(async () => clock() >= startedAt + RUN_MINUTES * MINUTE, 20_000);
  await simulator.stop(5_000);
}, 180_000);
afterAll(async () => {
  await simulator?.stop();
  await ingest?.close();
  await database?.close();
});

const at = (minutes: number) => new Date(startedAt + minutes * MINUTE);
const scheduled = (kind: DisturbanceKind) => {
  const d = DEMO_LIVE_SCHEDULE.disturbances.find((x) => x.kind === kind);
  if (!d) throw new Error(`no ${kind} in the schedule`);
  return d as ScheduledDisturbance;
};
/** The disturbance's window, less a margin for parts still moving through the line (10 s apart). */
const during = (kind: DisturbanceKind): [Date, Date] => {
  const d = scheduled(kind);
  return [at(d.startMinute + 0.5), at(d.startMinute + d.minutes - 0.5)];
};

async function stationOf(lineName: string, stationName: string) {
  const [row] = await db
    .select({ id: stations.id })
    .from(stations)
    .innerJoin(lines, eq(lines.id, stations.lineId))
    .where(and(eq(lines.name, lineName), eq(stations.name, stationName)));
  if (!row) throw new Error(`no station ${stationName}`);
  return row.id;
}

/** Values of the named signals in first operations at a station, in [from, to). */
async function valuesOf(lineName: string, stationName: string, names: string[], from: Date, to: Date) {
  const stationId = await stationOf(lineName, stationName);
  const sigs = await db
    .select({ name: signals.name, slot: signals.slot, storage: signals.storage })
    .from(signals)
    .where(and(eq(signals.stationId, stationId), inArray(signals.name, names)));
  const rows = await db
    .select({
      ts: partRecords.ts,
      partId: partRecords.partId,
      num: partRecords.numValues,
      text: partRecords.textValues,
    })
    .from(partRecords)
    .where(
      and(
        eq(partRecords.stationId, stationId),
        eq(partRecords.op, 1),
        gte(partRecords.ts, from),
        lt(partRecords.ts, to),
      ),
    )
    .orderBy(asc(partRecords.ts));
  return rows.map((r) => {
    const out: Record<string, number | string | null> = { partId: r.partId, ts: r.ts.getTime() };
    for (const s of sigs) out[s.name] = (s.storage === "num" ? r.num : r.text)?.[s.slot] ?? null;
    return out;
  });
}

const nums = (rows: Record<string, unknown>[], name: string) =>
  rows.map((r) => r[name]).filter((v): v is number => typeof v === "number");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const correlation = (xs: number[], ys: number[]) => {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  for (let i = 0; i < xs.length; i++) sxy += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
  return sxy / (xs.length - 1) / (sd(xs) * sd(ys));
};

describe("the disturbance schedule", () => {
  it("begins every kind within the first 15 minutes and repeats it every cycle", () => {
    const firstSeen = new Map<DisturbanceKind, number>();
    for (let ms = 0; ms < 15 * MINUTE; ms += 5_000) {
      for (const d of disturbancesAt(ms)) if (!firstSeen.has(d.kind)) firstSeen.set(d.kind, ms);
    }
    expect([...firstSeen.keys()].sort()).toEqual([...DISTURBANCE_KINDS].sort());
    expect(disturbancesAt(-1)).toEqual([]);
    const cycle = DEMO_LIVE_SCHEDULE.cycleMinutes * MINUTE;
    for (const ms of [0, 3 * MINUTE, 9 * MINUTE, 15 * MINUTE, 40 * MINUTE]) {
      expect(disturbancesAt(ms + 2 * cycle).map((d) => d.kind)).toEqual(
        disturbancesAt(ms).map((d) => d.kind),
      );
    }
    // Quiet at the end of a cycle, so every cycle starts from an undisturbed process.
    expect(disturbancesAt(cycle - 1)).toEqual([]);
  });

  it("names stations, signals and fail values that exist in the demo catalog", async () => {
    const failValues = new Map<string, Set<string>>();
    for (const c of await db
      .select({
        signal: signals.name,
        value: resultClassifications.value,
        result: resultClassifications.result,
      })
      .from(resultClassifications)
      .innerJoin(signals, eq(signals.id, resultClassifications.signalId))) {
      if (c.result !== "fail") continue;
      failValues.set(c.signal, (failValues.get(c.signal) ?? new Set()).add(c.value));
    }
    for (const d of DEMO_LIVE_SCHEDULE.disturbances) {
      const line = DEMO_CATALOG.flatMap((p) => p.lines).find((l) => l.name === d.line);
      expect(line, d.what).toBeDefined();
      if (d.kind === "pause") continue;
      const station = line?.stations.find((s) => s.name === d.station);
      const names = new Set(station?.signals.map((s) => s.name));
      if (d.kind === "failure_burst") {
        expect(names.has(d.result)).toBe(true);
        for (const [value, cause] of Object.entries(d.causes)) {
          expect(failValues.get(d.result)?.has(value), value).toBe(true);
          expect(names.has(cause)).toBe(true);
        }
        continue;
      }
      const signal = d.kind === "correlation_break" ? d.signals[1] : d.signal;
      expect(names.has(signal), d.what).toBe(true);
      const resultSignal = station?.signals.find((s) => s.name === signal)?.result;
      if (d.failResult) expect(failValues.get(resultSignal ?? "")?.has(d.failResult), d.what).toBe(true);
    }
  });
});

describe("the live line simulator over MQTT", () => {
  it("publishes records for every demo line with records, at every station", async () => {
    for (const plant of DEMO_CATALOG) {
      for (const line of plant.lines.filter((l) => l.hasRecords)) {
        for (const station of line.stations) {
          const rows = await valuesOf(line.name, station.name, [], SEED_END, at(RUN_MINUTES));
          // About RATE a minute, less the pause on the paused line.
          expect(rows.length, `${line.name} ${station.name}`).toBeGreaterThan(RATE * 10);
        }
      }
    }
    // Every acknowledged record is stored (the embedded broker acknowledges after the commit).
    expect(simulator.stats().published).toBe((await recordCount()) - seededCount);
    expect(simulator.stats().dropped).toBe(0);
    expect(await db.select().from(deadLetters)).toEqual([]);
  });

  it("continues from the last seeded record: later, within two seeded intervals, next part number", async () => {
    for (const [line, station, prefix] of [
      [DEMO_LINES.axle, DEMO_STATIONS.axle.press, "AXL-"],
      [DEMO_LINES.valve, DEMO_STATIONS.valve.boring, "VB7-"],
    ] as const) {
      const afterSeed = new Date(SEED_END.getTime() + 1);
      const seeded = await valuesOf(line, station, [], at(-60), afterSeed);
      const live = await valuesOf(line, station, [], afterSeed, at(RUN_MINUTES));
      const lastSeeded = seeded.at(-1);
      const firstLive = live[0];
      if (!lastSeeded || !firstLive) throw new Error(`no records at ${station}`);
      const gap = Number(firstLive.ts) - Number(lastSeeded.ts);
      expect(gap).toBeGreaterThan(0);
      expect(gap).toBeLessThan(2 * MINUTE);
      // Production parts are numbered on; every 480th part is a challenge (master) part instead.
      const numbers = (rows: Record<string, unknown>[]) =>
        rows
          .map((r) => String(r.partId))
          .filter((id) => id.startsWith(prefix))
          .map((id) => Number(id.slice(prefix.length)));
      const last = Math.max(...numbers(seeded));
      const next = (last + 1) % 480 === 0 ? last + 2 : last + 1;
      expect(Math.min(...numbers(live))).toBe(next);
    }
  });

  it("shifts the mean of the shifted signal by about its delta, far beyond the noise", async () => {
    const d = scheduled("mean_shift");
    if (d.kind !== "mean_shift") throw new Error("not a mean shift");
    const before = nums(await valuesOf(d.line, d.station, [d.signal], at(-6 * 60), at(0)), d.signal);
    const shifted = nums(await valuesOf(d.line, d.station, [d.signal], ...during("mean_shift")), d.signal);
    expect(shifted.length).toBeGreaterThan(50);
    const diff = mean(shifted) - mean(before);
    expect(diff).toBeGreaterThan(d.delta - 0.006);
    expect(diff).toBeLessThan(d.delta + 0.006);
    expect(diff / (sd(before) / Math.sqrt(shifted.length))).toBeGreaterThan(10);
  });

  it("breaks the correlation between the two signals and widens the spread of the third", async () => {
    const b = scheduled("correlation_break");
    if (b.kind !== "correlation_break") throw new Error("not a correlation break");
    const [x, y] = b.signals;
    const pairs = (rows: Record<string, unknown>[]) => {
      const ok = rows.filter((r) => typeof r[x] === "number" && typeof r[y] === "number");
      return correlation(nums(ok, x), nums(ok, y));
    };
    expect(pairs(await valuesOf(b.line, b.station, [x, y], at(-6 * 60), at(0)))).toBeGreaterThan(0.7);
    expect(pairs(await valuesOf(b.line, b.station, [x, y], ...during("correlation_break")))).toBeLessThan(
      -0.6,
    );

    const s = scheduled("spread");
    if (s.kind !== "spread") throw new Error("not a spread");
    const before = nums(await valuesOf(s.line, s.station, [s.signal], at(-3 * 60), at(0)), s.signal);
    const wide = nums(await valuesOf(s.line, s.station, [s.signal], ...during("spread")), s.signal);
    expect(sd(wide) / sd(before)).toBeGreaterThan(1.6);
  });

  it("stores fail values of the result's classifications during the failing-results burst", async () => {
    const d = scheduled("failure_burst");
    if (d.kind !== "failure_burst") throw new Error("not a failure burst");
    const fails = new Set(Object.keys(d.causes));
    const share = (rows: Record<string, unknown>[]) =>
      rows.filter((r) => fails.has(String(r[d.result]))).length / rows.length;
    const burst = await valuesOf(d.line, d.station, [d.result], ...during("failure_burst"));
    expect(burst.length).toBeGreaterThan(15);
    expect(share(burst)).toBeGreaterThan(0.35);
    expect(share(await valuesOf(d.line, d.station, [d.result], at(-6 * 60), at(0)))).toBeLessThan(0.05);
  });

  it("sends no records of the paused line during its pause, and resumes after it", async () => {
    const d = scheduled("pause");
    const stationNames = DEMO_CATALOG.flatMap((p) => p.lines).find((l) => l.name === d.line)?.stations ?? [];
    const end = d.startMinute + d.minutes;
    for (const st of stationNames) {
      expect(await valuesOf(d.line, st.name, [], at(d.startMinute), at(end)), st.name).toEqual([]);
      expect(
        (await valuesOf(d.line, st.name, [], at(d.startMinute - 2), at(d.startMinute))).length,
      ).toBeGreaterThan(0);
    }
    const after = await valuesOf(d.line, DEMO_STATIONS.axle.press, [], at(end), at(RUN_MINUTES));
    expect(after.length).toBeGreaterThan(0);
    // The other line runs on.
    const other = await valuesOf(
      DEMO_LINES.valve,
      DEMO_STATIONS.valve.boring,
      [],
      at(d.startMinute),
      at(end),
    );
    expect(other.length).toBeGreaterThan(RATE * d.minutes * 0.8);
  });

  it("keeps running without a broker, queues what it cannot send and stops promptly", async () => {
    const logged: string[] = [];
    const sim = startLineSimulator({
      url: "mqtt://127.0.0.1:1",
      rate: 600,
      log: (m) => logged.push(m),
      reportMs: 150,
    });
    await eventually(async () => sim.stats().queued > 0 && logged.length > 0, 5_000);
    expect(sim.stats().published).toBe(0);
    expect(logged.join("\n")).toMatch(/waiting for the broker at mqtt:\/\/127\.0\.0\.1:1/);
    // Stopping does not wait for the broker that never answers (the test's timeout bounds it).
    await sim.stop();
    expect(sim.stats().published).toBe(0);
  });

  it("says at once when the embedded broker refuses its login, and publishes nothing", async () => {
    for (const [login, refusal] of [
      [{}, "Not authorized"],
      [{ username: "nobody", password: "wrong" }, "Bad username or password"],
    ] as const) {
      const logged: string[] = [];
      const sim = startLineSimulator({
        url: ingest.url,
        rate: 600,
        log: (m) => logged.push(m),
        ...login,
      });
      await eventually(async () => logged.some((m) => m.includes(refusal)), 10_000);
      expect(logged.join("\n")).toContain(`the broker at ${ingest.url} refused the login`);
      expect(sim.stats().published).toBe(0);
      await sim.stop();
    }
  });
});
