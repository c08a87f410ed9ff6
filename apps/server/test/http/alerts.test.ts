import { randomUUID } from "node:crypto";
import { ALERT_MESSAGES, ALERT_NO_CAUSE, ZAlert, ZAlertDetail, ZAlertEvent } from "@linewatch/contracts";
import {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
} from "@linewatch/contracts/fixtures";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  alerts,
  notificationAttempts,
  notificationOutbox,
  resultClassifications,
  signals,
  stations,
  teamsWebhooks,
} from "../../src/db/schema/index.js";
import { applyEvaluation } from "../../src/worker/alerts/apply.js";
import { createEvaluation, createMonitorRow, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

type Tenant = Awaited<ReturnType<typeof createTenant>>;
const db = () => t.database.db;
const MIN = 60_000;

/** A tenant with a monitor whose evaluations `states` (15 min apart, ending now) went through the worker hook. */
async function tenantWithAlert(states = "OB", opts: { teams?: boolean; filter?: unknown } = {}) {
  const tn = await createTenant(t.app, db());
  const monitor = await createMonitorRow(db(), tn.line, opts.filter ? { filter: opts.filter } : {});
  if (opts.teams) {
    await db().insert(teamsWebhooks).values({
      customerId: tn.customer.id,
      plantId: tn.plant.id,
      lineId: tn.line.id,
      urlEncrypted: "x",
      urlHost: "example.webhook.office.com",
    });
  }
  const end = t.now.value.getTime();
  const STATE = { B: "BREACH", O: "OK", N: "NO_DATA" } as const;
  for (const [i, c] of [...states].entries()) {
    const slot = new Date(end - (states.length - 1 - i) * 15 * MIN);
    await db().transaction(async (tx) => {
      const ev = await createEvaluation(tx as never, monitor, {
        state: STATE[c as keyof typeof STATE],
        slot,
        score: 3 + i,
        threshold: 2.5,
      });
      await applyEvaluation(tx, ev, { now: slot });
    });
  }
  const [alert] = await db().select().from(alerts).where(eq(alerts.monitorId, monitor.id));
  if (!alert) throw new Error("no alert");
  return { ...tn, monitor, alert };
}

const url = {
  list: (lineId: string) => `/api/lines/${lineId}/alerts`,
  one: (id: string) => `/api/alerts/${id}`,
  causes: (id: string) => `/api/alerts/${id}/causes`,
  ack: (id: string) => `/api/alerts/${id}/acknowledge`,
  comments: (id: string) => `/api/alerts/${id}/comments`,
  resolve: (id: string) => `/api/alerts/${id}/resolve`,
};

const calls = (lineId: string, alertId: string) =>
  [
    { method: "GET", url: url.list(lineId) },
    { method: "GET", url: url.one(alertId) },
    { method: "GET", url: url.causes(alertId) },
    { method: "POST", url: url.ack(alertId) },
    { method: "POST", url: url.comments(alertId), payload: { comment: "Looked at it" } },
    { method: "POST", url: url.resolve(alertId), payload: { cause: "Torque low" } },
  ] as const;

describe("access", () => {
  it("answers 401 on every alerts route without a session", async () => {
    const tn = await tenantWithAlert();
    for (const c of calls(tn.line.id, tn.alert.id)) {
      const res = await t.app.inject(c);
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthorized" });
    }
  });

  it("answers 404 for another customer's line and alert, and changes nothing", async () => {
    const a = await tenantWithAlert();
    const b = await createTenant(t.app, db());
    for (const c of calls(a.line.id, a.alert.id)) {
      const res = await t.app.inject({ ...c, headers: b.userHeaders });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
    }
    const [row] = await db().select().from(alerts).where(eq(alerts.id, a.alert.id));
    expect(row?.state).toBe("OPEN");
    const res = await t.app.inject({ method: "GET", url: url.one(a.alert.id), headers: b.adminHeaders });
    expect(res.json()).toEqual({ message: ALERT_MESSAGES.notFound });
  });

  it("answers 404 for alerts and lines that do not exist", async () => {
    const tn = await tenantWithAlert();
    const missing = randomUUID();
    for (const c of calls(missing, missing)) {
      const res = await t.app.inject({ ...c, headers: tn.userHeaders });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
    }
  });

  it("any signed-in user of the customer may act, not only administrators", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({ method: "POST", url: url.ack(tn.alert.id), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
  });
});

describe("validation", () => {
  it("answers 400 for ids that are not uuids", async () => {
    const tn = await tenantWithAlert();
    for (const c of calls("not-a-uuid", "not-a-uuid")) {
      const res = await t.app.inject({ ...c, headers: tn.userHeaders });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(400);
    }
  });

  it.each([
    [{}, "missing comment"],
    [{ comment: "" }, "empty"],
    [{ comment: "   " }, "blank"],
    [{ comment: "x".repeat(1001) }, "too long"],
    [{ comment: 5 }, "not a string"],
    [{ comment: "ok", extra: 1 }, "unknown field"],
  ])("comment %o (%s) → 400", async (payload, _case) => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({
      method: "POST",
      url: url.comments(tn.alert.id),
      headers: tn.userHeaders,
      payload,
    });
    expect(res.statusCode).toBe(400);
  });

  it("names the comment bound in its message", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({
      method: "POST",
      url: url.comments(tn.alert.id),
      headers: tn.userHeaders,
      payload: { comment: "x".repeat(1001) },
    });
    expect(res.json().message).toContain(ALERT_MESSAGES.commentTooLong);
  });

  it("resolve without a cause → 400 naming what to do", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({
      method: "POST",
      url: url.resolve(tn.alert.id),
      headers: tn.userHeaders,
      payload: { comment: "Tool changed" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(ALERT_MESSAGES.causeRequired);
  });

  it.each([
    [{ cause: "x".repeat(201) }],
    [{ comment: "x".repeat(1001) }],
    [{ cause: 3 }],
    [{ cause: "x", reason: "x" }],
    [{}],
    [{ cause: "   " }],
    [{ comment: "Fixed" }],
  ])("resolve %o → 400, the alert stays open", async (payload) => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({
      method: "POST",
      url: url.resolve(tn.alert.id),
      headers: tn.userHeaders,
      payload,
    });
    expect(res.statusCode).toBe(400);
    const [row] = await db().select().from(alerts).where(eq(alerts.id, tn.alert.id));
    expect(row?.state).toBe("OPEN");
  });
});

describe("list", () => {
  it("lists the line's alerts newest first with monitor, times, count, rule, score and threshold", async () => {
    const tn = await tenantWithAlert("BB");
    const second = await createMonitorRow(db(), tn.line, { name: "Newer monitor", type: "svd" });
    await db().transaction(async (tx) => {
      const ev = await createEvaluation(tx as never, second, {
        state: "BREACH",
        slot: t.now.value,
        score: 9,
      });
      await applyEvaluation(tx, ev, { now: new Date(t.now.value.getTime() + 1000) });
    });
    const res = await t.app.inject({ method: "GET", url: url.list(tn.line.id), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    const list = res.json().map((a: unknown) => ZAlert.parse(a));
    expect(list.map((a: { monitor: { name: string } }) => a.monitor.name)).toEqual([
      "Newer monitor",
      tn.monitor.name,
    ]);
    expect(list[1]).toMatchObject({
      id: tn.alert.id,
      lineId: tn.line.id,
      state: "OPEN",
      monitor: { id: tn.monitor.id, name: tn.monitor.name, type: "mvd" },
      count: 2,
      rule: "breach",
      score: 4,
      threshold: 2.5,
      resolvedAt: null,
      cause: null,
    });
  });

  it("words each alert's score against its threshold by monitor type, an MVD by its p-value against α", async () => {
    const tn = await createTenant(t.app, db());
    const mvd = await createMonitorRow(db(), tn.line, { name: "Bore geometry", type: "mvd" });
    const svd = await createMonitorRow(db(), tn.line, { name: "Bore drift", type: "svd" });
    await db().transaction(async (tx) => {
      const m = await createEvaluation(tx as never, mvd, {
        state: "BREACH",
        slot: t.now.value,
        score: 13.788,
        threshold: 0.01,
        details: { ucl: 30, p: 2, p_value: 0.000153, k: 9, n: 25 },
      });
      await applyEvaluation(tx, m, { now: t.now.value });
      const s = await createEvaluation(tx as never, svd, {
        state: "BREACH",
        slot: t.now.value,
        score: 0.91,
        threshold: 0.62,
      });
      await applyEvaluation(tx, s, { now: t.now.value });
    });
    // Evaluations of the calibrated methods: MVD −log₁₀ p against −log₁₀ α, CAP Ppk's bound.
    const mvd2 = await createMonitorRow(db(), tn.line, { name: "Torque and angle", type: "mvd" });
    const cap = await createMonitorRow(db(), tn.line, { name: "Press force", type: "cap" });
    await db().transaction(async (tx) => {
      const m = await createEvaluation(tx as never, mvd2, {
        state: "BREACH",
        slot: t.now.value,
        score: 3.1,
        threshold: 2,
        details: mvdDetailsFixture(),
      });
      await applyEvaluation(tx, m, { now: t.now.value });
      const c = await createEvaluation(tx as never, cap, {
        state: "BREACH",
        slot: t.now.value,
        score: 1.1,
        threshold: 1.33,
        details: capDetailsFixture({ controlHitCount: 1 }),
      });
      await applyEvaluation(tx, c, { now: t.now.value });
    });
    const res = await t.app.inject({ method: "GET", url: url.list(tn.line.id), headers: tn.userHeaders });
    const byName = Object.fromEntries(
      res.json().map((a: { monitor: { name: string }; summary: string }) => [a.monitor.name, a.summary]),
    );
    expect(byName).toEqual({
      "Bore geometry": "p-value 0.000153 vs α 0.01, 9 of 25 parts above the UCL (mean T²/p 13.8)",
      "Bore drift": "Distance 0.91 σ vs threshold 0.62 σ",
      "Torque and angle":
        "p-value 0.0008 vs α 0.01: means moved 1.8 σ (Mahalanobis), p = 0.0004; parts fit the training pattern worse than usual, p = 0.2",
      "Press force": "Ppk 0.8, upper 99 % bound 1.1 vs target 1.33, 1 new point fired a control rule",
    });
  });

  it("answers an alert's evaluations with their details as the contracts read them: older stored shapes normalised, unreadable ones null", async () => {
    const tn = await createTenant(t.app, db());
    const monitor = await createMonitorRow(db(), tn.line, { name: "Bore geometry", type: "mvd" });
    let alertId = "";
    await db().transaction(async (tx) => {
      // Stored by the uncorrected method, before details carried `method`.
      const old = await createEvaluation(tx as never, monitor, {
        state: "BREACH",
        slot: new Date(t.now.value.getTime() - 60_000),
        score: 13.8,
        threshold: 0.01,
        details: storedUncorrectedDetails.mvd,
      });
      const applied = await applyEvaluation(tx, old, { now: t.now.value });
      if (applied.kind === "opened") alertId = applied.alertId;
      // Details no version of the product wrote.
      const odd = await createEvaluation(tx as never, monitor, {
        state: "BREACH",
        slot: t.now.value,
        score: 14,
        threshold: 0.01,
        details: { kind: "mvd", method: "calibrated", p_value: "low" },
      });
      await applyEvaluation(tx, odd, { now: t.now.value });
    });
    const res = await t.app.inject({ url: url.one(alertId), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    const detail = ZAlertDetail.parse(res.json());
    expect(detail.evaluations.map((e) => e.details?.kind ?? null)).toEqual(["mvd", null]);
    expect(detail.evaluations[0]?.details).toMatchObject({
      kind: "mvd",
      method: "uncorrected",
      p_value: 0.002,
    });
  });

  it("keeps to the line's alert viewing window; alerts still open always show", async () => {
    const tn = await tenantWithAlert("B");
    const old = (days: number) => new Date(t.now.value.getTime() - days * 86_400_000);
    const other = await createMonitorRow(db(), tn.line);
    const third = await createMonitorRow(db(), tn.line);
    const base = { customerId: tn.customer.id, lineId: tn.line.id, rule: "breach" };
    const [resolvedOld] = await db()
      .insert(alerts)
      .values({
        ...base,
        monitorId: other.id,
        state: "RESOLVED",
        openedAt: old(100),
        lastSeenAt: old(95),
        resolvedAt: old(94),
      })
      .returning();
    const [resolvedRecent] = await db()
      .insert(alerts)
      .values({
        ...base,
        monitorId: other.id,
        state: "RESOLVED",
        openedAt: old(100),
        lastSeenAt: old(85),
        resolvedAt: old(80),
      })
      .returning();
    const [openOld] = await db()
      .insert(alerts)
      .values({
        ...base,
        monitorId: third.id,
        state: "ACKNOWLEDGED",
        openedAt: old(200),
        lastSeenAt: old(150),
      })
      .returning();
    const ids = async () =>
      (await t.app.inject({ method: "GET", url: url.list(tn.line.id), headers: tn.userHeaders }))
        .json()
        .map((a: { id: string }) => a.id);
    expect(await ids()).toEqual([tn.alert.id, resolvedRecent?.id, openOld?.id]);
    expect(await ids()).not.toContain(resolvedOld?.id);
  });

  it("is empty for a line without alerts", async () => {
    const tn = await createTenant(t.app, db());
    const res = await t.app.inject({ method: "GET", url: url.list(tn.line.id), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});

describe("get one", () => {
  it("answers the alert with its events, evaluations (oldest first) and notification attempts", async () => {
    const tn = await tenantWithAlert("NOBB", { teams: true });
    const [outbox] = await db()
      .select({ id: notificationOutbox.id })
      .from(notificationOutbox)
      .where(eq(notificationOutbox.alertId, tn.alert.id));
    await db()
      .insert(notificationAttempts)
      .values({ outboxId: outbox?.id as string, httpStatus: 502, error: "Bad gateway", durationMs: 120 });
    const res = await t.app.inject({ method: "GET", url: url.one(tn.alert.id), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    const detail = ZAlertDetail.parse(res.json());
    expect(detail).toMatchObject({ id: tn.alert.id, count: 2, state: "OPEN" });
    expect(detail.events.map((e) => e.kind)).toEqual(["OPENED", "FIRED"]);
    expect(detail.events[0]?.evaluationId).toBeTruthy();
    expect(detail.evaluations.map((e) => e.state)).toEqual(["NO_DATA", "OK", "BREACH", "BREACH"]);
    expect(detail.notifications).toEqual([
      {
        channel: "teams",
        state: "PENDING",
        deliveredAt: null,
        lastError: null,
        attempts: [{ at: expect.any(String), httpStatus: 502, error: "Bad gateway", durationMs: 120 }],
      },
    ]);
  });

  it("a resolved alert's evaluations stop at its resolution", async () => {
    const tn = await tenantWithAlert("BOOO");
    await db().transaction(async (tx) => {
      const ev = await createEvaluation(tx as never, tn.monitor, {
        state: "OK",
        slot: new Date(t.now.value.getTime() + 15 * MIN),
      });
      await applyEvaluation(tx, ev, { now: ev.slot });
    });
    const detail = ZAlertDetail.parse(
      (await t.app.inject({ method: "GET", url: url.one(tn.alert.id), headers: tn.userHeaders })).json(),
    );
    expect(detail.state).toBe("RESOLVED");
    expect(detail.events.map((e) => e.kind)).toEqual(["OPENED", "AUTO_RESOLVED"]);
    expect(detail.evaluations).toHaveLength(4);
    expect(detail.notifications).toEqual([]);
  });
});

describe("acknowledge, comment, resolve", () => {
  it("acknowledges an open alert once, recording user and time; again → 409", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({ method: "POST", url: url.ack(tn.alert.id), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    expect(ZAlert.parse(res.json()).state).toBe("ACKNOWLEDGED");
    const again = await t.app.inject({ method: "POST", url: url.ack(tn.alert.id), headers: tn.userHeaders });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: ALERT_MESSAGES.alreadyAcknowledged });
    const detail = ZAlertDetail.parse(
      (await t.app.inject({ method: "GET", url: url.one(tn.alert.id), headers: tn.userHeaders })).json(),
    );
    const ack = detail.events.find((e) => e.kind === "ACKNOWLEDGED");
    expect(ack).toMatchObject({
      userId: tn.user.id,
      userEmail: tn.user.email,
      at: t.now.value.toISOString(),
    });
  });

  it("comments with the trimmed text, also on a resolved alert (201)", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({
      method: "POST",
      url: url.comments(tn.alert.id),
      headers: tn.adminHeaders,
      payload: { comment: "  Checked the fixture  " },
    });
    expect(res.statusCode).toBe(201);
    expect(ZAlertEvent.parse(res.json())).toMatchObject({
      kind: "COMMENTED",
      comment: "Checked the fixture",
      userId: tn.admin.id,
      userEmail: tn.admin.email,
    });
    await t.app.inject({
      method: "POST",
      url: url.resolve(tn.alert.id),
      headers: tn.userHeaders,
      payload: { cause: ALERT_NO_CAUSE },
    });
    const after = await t.app.inject({
      method: "POST",
      url: url.comments(tn.alert.id),
      headers: tn.userHeaders,
      payload: { comment: "x".repeat(1000) },
    });
    expect(after.statusCode).toBe(201);
  });

  it("resolves an acknowledged alert with a cause and a comment; resolving again → 409", async () => {
    const tn = await tenantWithAlert();
    t.now.value = new Date(t.now.value.getTime() + 1000);
    await t.app.inject({ method: "POST", url: url.ack(tn.alert.id), headers: tn.userHeaders });
    t.now.value = new Date(t.now.value.getTime() + 60_000);
    const res = await t.app.inject({
      method: "POST",
      url: url.resolve(tn.alert.id),
      headers: tn.userHeaders,
      payload: { cause: " Torque low ", comment: "Tool changed" },
    });
    expect(res.statusCode).toBe(200);
    expect(ZAlert.parse(res.json())).toMatchObject({
      state: "RESOLVED",
      cause: "Torque low",
      resolvedAt: t.now.value.toISOString(),
    });
    const again = await t.app.inject({
      method: "POST",
      url: url.resolve(tn.alert.id),
      headers: tn.userHeaders,
      payload: { cause: ALERT_NO_CAUSE },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: ALERT_MESSAGES.alreadyResolved });
    const ack = await t.app.inject({ method: "POST", url: url.ack(tn.alert.id), headers: tn.userHeaders });
    expect(ack.statusCode).toBe(409);
    const detail = ZAlertDetail.parse(
      (await t.app.inject({ method: "GET", url: url.one(tn.alert.id), headers: tn.userHeaders })).json(),
    );
    expect(detail.events.map((e) => e.kind)).toEqual(["OPENED", "ACKNOWLEDGED", "RESOLVED"]);
    expect(detail.events[2]).toMatchObject({
      userId: tn.user.id,
      cause: "Torque low",
      comment: "Tool changed",
    });
  });

  it("resolves with the explicit 'no cause'; the next firing opens a new alert", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({
      method: "POST",
      url: url.resolve(tn.alert.id),
      headers: tn.userHeaders,
      payload: { cause: ALERT_NO_CAUSE },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: "RESOLVED", cause: ALERT_NO_CAUSE });
    await db().transaction(async (tx) => {
      const ev = await createEvaluation(tx as never, tn.monitor, {
        state: "BREACH",
        slot: new Date(t.now.value.getTime() + 15 * MIN),
      });
      await applyEvaluation(tx, ev, { now: ev.slot });
    });
    const list = (
      await t.app.inject({ method: "GET", url: url.list(tn.line.id), headers: tn.userHeaders })
    ).json();
    expect(list.map((a: { state: string }) => a.state)).toEqual(["OPEN", "RESOLVED"]);
  });
});

describe("causes", () => {
  async function signalsFor(tn: Tenant) {
    const { customer, line } = tn;
    const [station] = await db()
      .insert(stations)
      .values({ customerId: customer.id, lineId: line.id, name: "OP10" })
      .returning();
    let slot = 0;
    const signal = async (name: string, entityType: "RESULT" | "MEASUREMENT", resultSignalId?: string) => {
      const [row] = await db()
        .insert(signals)
        .values({
          customerId: customer.id,
          lineId: line.id,
          stationId: station?.id as string,
          name,
          entityType,
          storage: entityType === "RESULT" ? "text" : "num",
          slot: slot++,
          resultSignalId,
        })
        .returning();
      return row as { id: string };
    };
    const classify = (signalId: string, rows: [string, string | null][]) =>
      db()
        .insert(resultClassifications)
        .values(
          rows.map(([value, failureMode]) => ({
            customerId: customer.id,
            signalId,
            value,
            result: failureMode ? ("fail" as const) : ("pass" as const),
            failureMode,
          })),
        );
    const result1 = await signal("Result 1", "RESULT");
    const result2 = await signal("Result 2", "RESULT");
    await classify(result1.id, [
      ["OK", null],
      ["NOK", "Torque low"],
      ["NOK2", "Angle high"],
      ["NOK3", "Torque low"],
      ["BLANK", "  "],
    ]);
    await classify(result2.id, [["E1", "Leak"]]);
    const torque = await signal("Torque", "MEASUREMENT", result1.id);
    const angle = await signal("Angle", "MEASUREMENT");
    return { torque, angle };
  }

  it("offers the distinct non-empty failure modes of the monitor's signals' result signals, sorted", async () => {
    const tn = await createTenant(t.app, db());
    const s = await signalsFor(tn);
    const monitor = await createMonitorRow(db(), tn.line, {
      filter: { signal_uuids: [s.torque.id, s.angle.id], signal_group_uuids: [] },
    });
    const [alert] = await db()
      .insert(alerts)
      .values({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        monitorId: monitor.id,
        openedAt: t.now.value,
        lastSeenAt: t.now.value,
        rule: "breach",
      })
      .returning();
    const res = await t.app.inject({
      method: "GET",
      url: url.causes(alert?.id as string),
      headers: tn.userHeaders,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ causes: ["Angle high", "Torque low"] });
  });

  it("falls back to the line's failure modes when the monitor's signals have no result signal", async () => {
    const tn = await createTenant(t.app, db());
    const s = await signalsFor(tn);
    const monitor = await createMonitorRow(db(), tn.line, {
      filter: { signal_uuids: [s.angle.id], signal_group_uuids: [] },
    });
    const [alert] = await db()
      .insert(alerts)
      .values({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        monitorId: monitor.id,
        openedAt: t.now.value,
        lastSeenAt: t.now.value,
        rule: "breach",
      })
      .returning();
    const res = await t.app.inject({
      method: "GET",
      url: url.causes(alert?.id as string),
      headers: tn.userHeaders,
    });
    expect(res.json()).toEqual({ causes: ["Angle high", "Leak", "Torque low"] });
  });

  it("is empty when the line has no failure modes", async () => {
    const tn = await tenantWithAlert();
    const res = await t.app.inject({ method: "GET", url: url.causes(tn.alert.id), headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ causes: [] });
  });
});
