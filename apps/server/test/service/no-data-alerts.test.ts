// No-data alerts (Line Management's No Data Alert hours): raised when a line's last ingested time
// plus its hours has passed, in the monitors' alert lifecycle (list, acknowledge, resolve), sent
// to the line's channels through the outbox, resolved by itself when records arrive again.
import { NO_DATA_ALERT_TEXTS, ZAlert } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertEvents, alerts, lines, notificationOutbox, teamsWebhooks } from "../../src/db/schema/index.js";
import { checkNoData, NO_DATA_CHECK_MS, noDataCheckInterval } from "../../src/worker/alerts/no-data.js";
import { startWorker } from "../../src/worker/worker.js";
import { createLine, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

const HOUR = 3_600_000;
const db = () => t.database.db;
const hoursAgo = (h: number, now = t.now.value) => new Date(now.getTime() - h * HOUR);
const noDataAlertsOf = (lineId: string) =>
  db()
    .select()
    .from(alerts)
    .where(eq(alerts.lineId, lineId))
    .then((rows) => rows.filter((a) => a.kind === "no_data"));

/** A new tenant whose line has these No Data Alert hours and its last record `silentFor` hours ago. */
async function tenantWithSilentLine(hours: number, silentFor: number) {
  const tn = await createTenant(t.app, db());
  await db()
    .update(lines)
    .set({ ingestionThresholdHours: hours, lastIngestedTime: hoursAgo(silentFor) })
    .where(eq(lines.id, tn.line.id));
  return tn;
}

describe("the no-data check's interval", () => {
  it("is half a minute of the worker's clock: 30 s on the real one, scaled with WORKER_MINUTE_MS", () => {
    expect(noDataCheckInterval(60_000)).toBe(NO_DATA_CHECK_MS);
    expect(NO_DATA_CHECK_MS).toBe(30_000);
    // The end-to-end tests' 1 s minute: a silent line's alert within half a second of polls.
    expect(noDataCheckInterval(1_000)).toBe(500);
    expect(noDataCheckInterval(1_500)).toBe(750);
  });
});

describe("no-data alerts", () => {
  it("opens one alert for a line past its No Data Alert hours, notified to its Teams channel, and shows it in the line's alerts", async () => {
    const tn = await tenantWithSilentLine(2, 3);
    await db().insert(teamsWebhooks).values({
      customerId: tn.customer.id,
      plantId: tn.plant.id,
      lineId: tn.line.id,
      urlEncrypted: "x",
      urlHost: "example.webhook.office.com",
    });
    const first = await checkNoData(db(), t.now.value);
    const [alert] = await noDataAlertsOf(tn.line.id);
    expect(first.opened.map((a) => a.id)).toContain(alert?.id);
    expect(alert).toMatchObject({ state: "OPEN", monitorId: null, rule: "no_data", threshold: 2 });
    // Checked again (another worker, the next poll): still one alert.
    expect((await checkNoData(db(), t.now.value)).opened.map((a) => a.id)).not.toContain(alert?.id);
    expect(await noDataAlertsOf(tn.line.id)).toHaveLength(1);
    const outbox = await db()
      .select()
      .from(notificationOutbox)
      .where(eq(notificationOutbox.alertId, alert?.id ?? ""));
    expect(outbox.map((o) => o.channel)).toEqual(["teams"]);
    const events = await db()
      .select()
      .from(alertEvents)
      .where(eq(alertEvents.alertId, alert?.id ?? ""));
    expect(events.map((e) => e.kind)).toEqual(["OPENED"]);

    const res = await t.app.inject({ url: `/api/lines/${tn.line.id}/alerts`, headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    const listed = res.json().find((a: { id: string }) => a.id === alert?.id);
    expect(ZAlert.strict().parse(listed)).toMatchObject({
      kind: "no_data",
      monitor: null,
      summary: NO_DATA_ALERT_TEXTS.summary(3, 2),
    });
    // The same lifecycle as a monitor's alert: the detail, acknowledge, resolve.
    const detail = await t.app.inject({ url: `/api/alerts/${alert?.id}`, headers: tn.userHeaders });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ kind: "no_data", evaluations: [] });
    const ack = await t.app.inject({
      method: "POST",
      url: `/api/alerts/${alert?.id}/acknowledge`,
      headers: tn.userHeaders,
    });
    expect(ack.statusCode).toBe(200);
    expect(ack.json().state).toBe("ACKNOWLEDGED");
  });

  it("resolves itself when records arrive again", async () => {
    const tn = await tenantWithSilentLine(1, 2);
    await checkNoData(db(), t.now.value);
    const [open] = await noDataAlertsOf(tn.line.id);
    expect(open?.state).toBe("OPEN");
    await db().update(lines).set({ lastIngestedTime: t.now.value }).where(eq(lines.id, tn.line.id));
    const out = await checkNoData(db(), t.now.value);
    expect(out.resolved.map((a) => a.id)).toContain(open?.id);
    const [resolved] = await noDataAlertsOf(tn.line.id);
    expect(resolved?.state).toBe("RESOLVED");
    const events = await db()
      .select()
      .from(alertEvents)
      .where(eq(alertEvents.alertId, open?.id ?? ""));
    expect(events.map((e) => e.kind).sort()).toEqual(["AUTO_RESOLVED", "OPENED"]);
  });

  it("keeps a silent line's open alert current: hours since its last record, seen at the check", async () => {
    const tn = await tenantWithSilentLine(1, 2);
    await checkNoData(db(), t.now.value);
    const later = new Date(t.now.value.getTime() + 2 * HOUR);
    const out = await checkNoData(db(), later);
    const [alert, ...more] = await noDataAlertsOf(tn.line.id);
    expect(more).toEqual([]);
    expect(out.opened.map((a) => a.lineId)).not.toContain(tn.line.id);
    expect(alert).toMatchObject({ state: "OPEN", score: 4, threshold: 1, lastSeenAt: later });
  });

  it("raises none with 0 hours, no hours, no records yet, or on an inactive line", async () => {
    const tn = await createTenant(t.app, db());
    const old = hoursAgo(1000);
    const quiet = [
      await createLine(db(), tn.customer.id, tn.plant.id, {
        ingestionThresholdHours: 0,
        lastIngestedTime: old,
      }),
      await createLine(db(), tn.customer.id, tn.plant.id, {
        ingestionThresholdHours: null,
        lastIngestedTime: old,
      }),
      await createLine(db(), tn.customer.id, tn.plant.id, {
        ingestionThresholdHours: 1,
        lastIngestedTime: null,
      }),
      await createLine(db(), tn.customer.id, tn.plant.id, {
        ingestionThresholdHours: 1,
        lastIngestedTime: old,
        active: false,
      }),
    ];
    await checkNoData(db(), t.now.value);
    for (const l of quiet) expect(await noDataAlertsOf(l.id)).toEqual([]);
  });

  it("is checked by the worker's poll", async () => {
    const tn = await tenantWithSilentLine(5, 6);
    const worker = startWorker({
      db: db(),
      now: () => t.now.value,
      pollMs: 1000,
      leaseMs: 60_000,
      autoStart: false,
    });
    await worker.tick();
    await worker.stop();
    expect(await noDataAlertsOf(tn.line.id)).toHaveLength(1);
  });

  it("opens one alert when two workers check at once", async () => {
    const tn = await tenantWithSilentLine(1, 2);
    const results = await Promise.allSettled([
      checkNoData(db(), t.now.value),
      checkNoData(db(), t.now.value),
    ]);
    // Neither check fails: the second finds the alert the first opened and leaves it.
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    const opened = results.flatMap((r) => (r.status === "fulfilled" ? r.value.opened : []));
    const [alert, ...more] = await noDataAlertsOf(tn.line.id);
    expect(more).toEqual([]);
    expect(opened.filter((a) => a.lineId === tn.line.id)).toEqual([{ id: alert?.id, lineId: tn.line.id }]);
    const events = await db()
      .select()
      .from(alertEvents)
      .where(eq(alertEvents.alertId, alert?.id ?? ""));
    expect(events.map((e) => e.kind)).toEqual(["OPENED"]);
  });
});
