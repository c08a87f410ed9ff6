import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import {
  alertEvents,
  alerts,
  monitorRules,
  notificationOutbox,
  relianceConfigs,
  teamsWebhooks,
} from "../../src/db/schema/index.js";
import { applyEvaluation, createOnEvaluated } from "../../src/worker/alerts/apply.js";
import type { WorkerOptions } from "../../src/worker/worker.js";
import { createCustomer, createEvaluation, createLine, createMonitorRow, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const T0 = Date.parse("2026-03-01T00:00:00Z");
const MIN = 60_000;
const STATE = { B: "BREACH", O: "OK", N: "NO_DATA", E: "ERROR" } as const;

async function setup(opts: { teams?: boolean; etq?: boolean } = {}) {
  const db = database.db;
  const customer = await createCustomer(db);
  const plant = await createPlant(db, customer.id);
  const line = await createLine(db, customer.id, plant.id);
  const monitor = await createMonitorRow(db, line);
  if (opts.teams) {
    await db.insert(teamsWebhooks).values({
      customerId: customer.id,
      plantId: plant.id,
      lineId: line.id,
      urlEncrypted: "x",
      urlHost: "example.webhook.office.com",
    });
  }
  if (opts.etq) {
    await db.insert(relianceConfigs).values({
      customerId: customer.id,
      lineId: line.id,
      apiHost: "https://etq.example.com",
      clientId: "c",
      clientSecretEncrypted: "x",
      tokenEndpoint: "https://etq.example.com/token",
    });
  }
  let i = 0;
  /** Stores and applies one evaluation per letter, 15 min apart, as the worker does (one transaction each). */
  async function run(states: string) {
    const outcomes = [];
    for (const c of states) {
      const slot = new Date(T0 + i++ * 15 * MIN);
      const outcome = await db.transaction(async (tx) => {
        const ev = await createEvaluation(tx as never, monitor, {
          state: STATE[c as keyof typeof STATE],
          slot,
          score: 10 + i,
          threshold: 5,
        });
        return applyEvaluation(tx, ev, { now: new Date(slot.getTime() + 30_000) });
      });
      outcomes.push(outcome.kind);
    }
    return outcomes;
  }
  const alertsOf = () =>
    db.select().from(alerts).where(eq(alerts.monitorId, monitor.id)).orderBy(asc(alerts.openedAt));
  const eventsOf = (alertId: string) =>
    db
      .select({ kind: alertEvents.kind, at: alertEvents.at, evaluationId: alertEvents.evaluationId })
      .from(alertEvents)
      .where(eq(alertEvents.alertId, alertId))
      .orderBy(asc(alertEvents.at));
  const outboxOf = (alertId: string) =>
    db
      .select({ channel: notificationOutbox.channel, state: notificationOutbox.state })
      .from(notificationOutbox)
      .where(eq(notificationOutbox.alertId, alertId))
      .orderBy(asc(notificationOutbox.channel));
  const setRule = (values: Omit<typeof monitorRules.$inferInsert, "monitorId">) =>
    db.insert(monitorRules).values({ monitorId: monitor.id, ...values });
  return { customer, line, monitor, run, alertsOf, eventsOf, outboxOf, setRule };
}

describe("applyEvaluation: opening and grouping", () => {
  it("opens an alert on the first breach when no rule is enabled, with an OPENED event", async () => {
    const s = await setup();
    expect(await s.run("OB")).toEqual(["none", "opened"]);
    const [a] = await s.alertsOf();
    expect(a).toMatchObject({
      state: "OPEN",
      count: 1,
      rule: "breach",
      score: 12,
      threshold: 5,
      cleanStreak: 0,
      lineId: s.line.id,
      customerId: s.customer.id,
    });
    expect(a?.openedAt.toISOString()).toBe(new Date(T0 + 15 * MIN + 30_000).toISOString());
    const events = await s.eventsOf(a?.id as string);
    expect(events.map((e) => e.kind)).toEqual(["OPENED"]);
    expect(events[0]?.evaluationId).toBeTruthy();
  });

  it("adds further firings to the open alert instead of opening another (count, last seen, score, FIRED)", async () => {
    const s = await setup();
    expect(await s.run("BBOB")).toEqual(["opened", "fired", "clean", "fired"]);
    const list = await s.alertsOf();
    expect(list).toHaveLength(1);
    const a = list[0];
    expect(a).toMatchObject({ state: "OPEN", count: 3, score: 14, cleanStreak: 0 });
    expect(a?.lastSeenAt.toISOString()).toBe(new Date(T0 + 45 * MIN + 30_000).toISOString());
    expect((await s.eventsOf(a?.id as string)).map((e) => e.kind)).toEqual(["OPENED", "FIRED", "FIRED"]);
  });

  it("adds firings to an acknowledged alert too", async () => {
    const s = await setup();
    await s.run("B");
    const [a] = await s.alertsOf();
    await database.db
      .update(alerts)
      .set({ state: "ACKNOWLEDGED" })
      .where(eq(alerts.id, a?.id as string));
    expect(await s.run("B")).toEqual(["fired"]);
    const list = await s.alertsOf();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ state: "ACKNOWLEDGED", count: 2 });
  });

  it("opens only when a rule fires: Consecutive(3) across NO_DATA gaps", async () => {
    const s = await setup();
    await s.setRule({ type: "Consecutive", active: true, breaches: 3 });
    expect(await s.run("BBOBNB")).toEqual(["none", "none", "none", "none", "none", "none"]);
    expect(await s.run("NNB")).toEqual(["none", "none", "opened"]);
    const [a] = await s.alertsOf();
    expect(a?.rule).toBe("Consecutive");
  });

  it("reports the rule that fired: ExceedanceRuns(2 of 3)", async () => {
    const s = await setup();
    await s.setRule({ type: "Consecutive", active: true, breaches: 5 });
    await s.setRule({ type: "ExceedanceRuns", active: true, breaches: 2, runs: 3 });
    expect(await s.run("BOOBEOB")).toEqual(["none", "none", "none", "none", "none", "none", "opened"]);
    expect((await s.alertsOf())[0]?.rule).toBe("ExceedanceRuns");
  });

  it("ExceedanceTime(2 in 30 min) reads the evaluations' slots", async () => {
    const s = await setup();
    await s.setRule({ type: "ExceedanceTime", active: true, breaches: 2, seconds: 1800 });
    expect(await s.run("BOOBNB")).toEqual(["none", "none", "none", "none", "none", "opened"]);
    expect((await s.alertsOf())[0]?.rule).toBe("ExceedanceTime");
  });

  it("disabled rules are ignored: every breach fires", async () => {
    const s = await setup();
    await s.setRule({ type: "Consecutive", active: false, breaches: 9 });
    expect(await s.run("B")).toEqual(["opened"]);
  });

  it("ignores a monitor that no longer exists", async () => {
    const s = await setup();
    const outcome = await applyEvaluation(
      database.db,
      {
        id: "00000000-0000-4000-8000-000000000000",
        monitorId: "00000000-0000-4000-8000-000000000001",
        slot: new Date(),
        state: "BREACH",
        score: 1,
        threshold: 0,
      },
      { now: new Date() },
    );
    expect(outcome).toEqual({ kind: "none" });
    expect(await s.alertsOf()).toHaveLength(0);
  });
});

describe("applyEvaluation: outbox", () => {
  it.each([
    [{}, []],
    [{ teams: true }, ["teams"]],
    [{ etq: true }, ["etq"]],
    [{ teams: true, etq: true }, ["etq", "teams"]],
  ])(
    "writes one PENDING row per configured channel %o when an alert opens, none when it groups",
    async (cfg, channels) => {
      const s = await setup(cfg);
      await s.run("BB");
      const [a] = await s.alertsOf();
      const rows = await s.outboxOf(a?.id as string);
      expect(rows.map((r) => r.channel)).toEqual(channels);
      expect(rows.every((r) => r.state === "PENDING")).toBe(true);
    },
  );

  it("writes nothing when the transaction that stored the evaluation rolls back", async () => {
    const s = await setup({ teams: true });
    await expect(
      database.db.transaction(async (tx) => {
        const ev = await createEvaluation(tx as never, s.monitor, { state: "BREACH", slot: new Date(T0) });
        await applyEvaluation(tx, ev, { now: new Date(T0) });
        throw new Error("worker crashed");
      }),
    ).rejects.toThrow("worker crashed");
    expect(await s.alertsOf()).toHaveLength(0);
  });

  it("a new alert after a resolved one gets its own outbox rows", async () => {
    const s = await setup({ teams: true });
    await s.run("BOOOB");
    const list = await s.alertsOf();
    expect(list.map((a) => a.state)).toEqual(["RESOLVED", "OPEN"]);
    for (const a of list) expect((await s.outboxOf(a.id)).map((r) => r.channel)).toEqual(["teams"]);
  });
});

describe("applyEvaluation: resolving by itself", () => {
  it("resolves after 3 evaluations in a row without a breach, with an AUTO_RESOLVED event", async () => {
    const s = await setup();
    expect(await s.run("BOOO")).toEqual(["opened", "clean", "clean", "auto-resolved"]);
    const [a] = await s.alertsOf();
    expect(a).toMatchObject({ state: "RESOLVED", cleanStreak: 3 });
    expect(a?.resolvedAt?.toISOString()).toBe(new Date(T0 + 45 * MIN + 30_000).toISOString());
    expect((await s.eventsOf(a?.id as string)).map((e) => e.kind)).toEqual(["OPENED", "AUTO_RESOLVED"]);
  });

  it("a firing resets the clean streak", async () => {
    const s = await setup();
    expect(await s.run("BOOBOO")).toEqual(["opened", "clean", "clean", "fired", "clean", "clean"]);
    expect((await s.alertsOf())[0]).toMatchObject({ state: "OPEN", cleanStreak: 2, count: 2 });
  });

  it("a breach that does not fire also resets the clean streak", async () => {
    const s = await setup();
    await s.run("B"); // no rule: opens
    await s.setRule({ type: "Consecutive", active: true, breaches: 3 });
    expect(await s.run("OOBOO")).toEqual(["clean", "clean", "clean", "clean", "clean"]);
    expect((await s.alertsOf())[0]).toMatchObject({ state: "OPEN", count: 1, cleanStreak: 2 });
    expect(await s.run("O")).toEqual(["auto-resolved"]);
  });

  it("NO_DATA and ERROR neither count towards nor reset the clean streak", async () => {
    const s = await setup();
    expect(await s.run("BONNENO")).toEqual(["opened", "clean", "none", "none", "none", "none", "clean"]);
    expect((await s.alertsOf())[0]).toMatchObject({ state: "OPEN", cleanStreak: 2 });
    expect(await s.run("NO")).toEqual(["none", "auto-resolved"]);
  });

  it("a long NO_DATA gap alone never resolves an alert", async () => {
    const s = await setup();
    await s.run(`B${"N".repeat(10)}`);
    expect((await s.alertsOf())[0]).toMatchObject({ state: "OPEN", cleanStreak: 0 });
  });

  it("after resolving, the next firing opens a new alert", async () => {
    const s = await setup();
    expect(await s.run("BOOOBB")).toEqual(["opened", "clean", "clean", "auto-resolved", "opened", "fired"]);
    const list = await s.alertsOf();
    expect(list.map((a) => [a.state, a.count])).toEqual([
      ["RESOLVED", 1],
      ["OPEN", 2],
    ]);
  });

  it("clean evaluations without an open alert change nothing", async () => {
    const s = await setup();
    expect(await s.run("OONE")).toEqual(["none", "none", "none", "none"]);
    expect(await s.alertsOf()).toHaveLength(0);
  });
});

describe("createOnEvaluated", () => {
  it("binds applyEvaluation to a clock for the worker's onEvaluated hook", async () => {
    const s = await setup();
    const clock = new Date("2026-05-05T05:05:05Z");
    // Typed as the worker's hook: createOnEvaluated is what main.ts passes as onEvaluated.
    const onEvaluated: NonNullable<WorkerOptions["onEvaluated"]> = createOnEvaluated({ now: () => clock });
    const outcome = await database.db.transaction(async (tx) => {
      const ev = await createEvaluation(tx as never, s.monitor, { state: "BREACH", slot: new Date(T0) });
      await onEvaluated(tx, ev);
    });
    expect(outcome).toBeUndefined();
    const [a] = await database.db
      .select({ openedAt: alerts.openedAt })
      .from(alerts)
      .where(and(eq(alerts.monitorId, s.monitor.id)));
    expect(a?.openedAt.toISOString()).toBe(clock.toISOString());
  });
});
