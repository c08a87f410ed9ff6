// Health and metrics (issue 28 §4) as an operator meets them: /health, /ready and /metrics on the
// API's port past its guards and its web-app fallback; /metrics only with METRICS_TOKEN's bearer;
// /ready 503 naming the database when it is gone; the counters and histograms an ingest, a dead
// letter and an evaluation move; an opened and a resolved alert logged at info.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { IPublishPacket } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, notificationOutbox, partRecords, signals, stations } from "../../src/db/schema/index.js";
import { createIngestBatcher } from "../../src/ingest/batcher.js";
import { createSourceDirectory } from "../../src/ingest/sources.js";
import { registry, watchWorkerBacklog } from "../../src/lib/metrics.js";
import type { EvaluationResult } from "../../src/modules/evaluation/evaluate.js";
import { createOnEvaluated } from "../../src/worker/alerts/apply.js";
import { createOutboxRepo } from "../../src/worker/notify/outbox.repo.js";
import { overdue } from "../../src/worker/schedule/schedule.js";
import { startWorker } from "../../src/worker/worker.js";
import { createMonitorRow, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logger.js";

const TOKEN = `metrics-${randomBytes(16).toString("hex")}`;

/** The sum of a metric's samples whose labels include `labels` (`suffix` picks a histogram's _count, _sum). */
async function sampleOf(name: string, labels: Record<string, string> = {}, suffix = ""): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return values
    .filter((v) => !suffix || (v as { metricName?: string }).metricName === `${name}${suffix}`)
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let dist: string;
beforeAll(async () => {
  // A built web app, so the test shows its fallback does not answer the three paths.
  dist = mkdtempSync(path.join(tmpdir(), "linewatch-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Linewatch</title>");
  t = await createTestApp({ metricsToken: TOKEN, webDist: dist });
  tenant = await createTenant(t.app, t.database.db);
});
afterAll(async () => {
  await closeTestApp(t);
  rmSync(dist, { recursive: true, force: true });
});

const scrape = (authorization?: string) =>
  t.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });

describe("GET /health, /ready, /metrics on the API's port", () => {
  it("/health and /ready answer JSON, not the web app's page, uncached, from a browser of another site too", async () => {
    const health = await t.app.inject({ method: "GET", url: "/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    expect(health.headers["cache-control"]).toBe("no-store");
    const ready = await t.app.inject({
      method: "GET",
      url: "/ready",
      headers: { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" },
    });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready", checks: { database: "ok" } });
    // The old path stays.
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).json()).toEqual({ status: "ok" });
  });

  it("/metrics: 401 without the bearer or with another token, Prometheus text with METRICS_TOKEN", async () => {
    const missing = await scrape();
    expect(missing.statusCode).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN.slice(0, -1)}`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
    const ok = await scrape(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers["cache-control"]).toBe("no-store");
    // Node's own metrics with our prefix, and the requests above by their route pattern.
    expect(ok.body).toMatch(/^linewatch_process_cpu_seconds_total /m);
    expect(ok.body).toMatch(/^linewatch_nodejs_eventloop_lag_seconds /m);
    expect(ok.body).toMatch(
      /^linewatch_http_requests_total\{route="\/health",method="GET",status="200"\} \d+/m,
    );
    expect(ok.body).toMatch(
      /^linewatch_http_requests_total\{route="\/metrics",method="GET",status="401"\} \d+/m,
    );
    expect(ok.body).toMatch(/^linewatch_http_request_seconds_count\{route="\/ready",method="GET"\} \d+/m);
  });

  it("an HTTP request is counted by its route pattern, never its URL", async () => {
    const url = `/api/lines/${tenant.line.id}`;
    await t.app.inject({ method: "GET", url, headers: tenant.userHeaders });
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toContain('route="/api/lines/:lineId"');
    expect(text).not.toContain(tenant.line.id);
  });

  it("/metrics answers 404 while METRICS_TOKEN is unset, whatever the bearer", async () => {
    const other = await createTestApp();
    try {
      for (const authorization of [undefined, "Bearer ", `Bearer ${TOKEN}`]) {
        const res = await other.app.inject({
          method: "GET",
          url: "/metrics",
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain("linewatch_");
      }
    } finally {
      await closeTestApp(other);
    }
  });

  it("/ready answers 503 naming the database once the database is gone; /health still answers", async () => {
    const other = await createTestApp();
    try {
      await other.database.close();
      const res = await other.app.inject({ method: "GET", url: "/ready" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: "not ready", notReady: ["database"] });
      // Anyone reads which check fails, not why (an address, a refusal): that is in the log.
      expect(res.json().checks).toEqual({ database: "failing" });
      expect((await other.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    } finally {
      await other.app.close();
    }
  });
});

describe("ingest metrics", () => {
  const run = randomBytes(4).toString("hex");
  const topic = `lwmetrics-${run}/line/OP10`;
  const packet = (payload: string): IPublishPacket => ({
    cmd: "publish",
    qos: 1,
    dup: false,
    retain: false,
    topic,
    payload: Buffer.from(payload),
    messageId: 1,
  });
  let seq = 0;
  const record = () => ({
    partId: `P-${run}-${++seq}`,
    timestamp: new Date(Date.UTC(2026, 10, 22, 8) + seq * 1000).toISOString(),
    measurements: { M: seq },
  });

  it("POST /api/ingest counts its stored and rejected records under transport http", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/ingest-tokens`,
      headers: tenant.adminHeaders,
      payload: { name: "Metrics" },
    });
    const secret = res.json().secret as string;
    const stored = await sampleOf("linewatch_ingest_records_total", { transport: "http", outcome: "stored" });
    const rejected = await sampleOf("linewatch_ingest_records_total", {
      transport: "http",
      outcome: "rejected",
    });
    const answer = await t.app.inject({
      method: "POST",
      url: "/api/ingest",
      headers: { authorization: `Bearer ${secret}` },
      payload: [
        { line: "L", station: "S", ...record() },
        { line: "L", station: "S", ...record() },
        { line: "L", station: "S", partId: "no timestamp" },
      ],
    });
    expect(answer.json()).toMatchObject({ stored: 2 });
    expect(await sampleOf("linewatch_ingest_records_total", { transport: "http", outcome: "stored" })).toBe(
      stored + 2,
    );
    expect(await sampleOf("linewatch_ingest_records_total", { transport: "http", outcome: "rejected" })).toBe(
      rejected + 1,
    );
  });

  it("an MQTT batch counts its records, its messages and its latency; a bad message its dead letter with the reason, logged at info", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/data-sources`,
      headers: tenant.adminHeaders,
      payload: { name: "Metrics test", topic: `lwmetrics-${run}/#` },
    });
    expect(res.statusCode).toBe(201);
    const directory = createSourceDirectory(t.database.db);
    await directory.refresh();
    const log = capturingLogger();
    const batcher = createIngestBatcher({
      partRecords: t.services.partRecords,
      directory,
      logger: log.logger,
    });
    const before = {
      stored: await sampleOf("linewatch_ingest_records_total", { transport: "mqtt", outcome: "stored" }),
      notJson: await sampleOf("linewatch_ingest_dead_letters_total", { reason: "not_json" }),
      invalid: await sampleOf("linewatch_ingest_dead_letters_total", { reason: "invalid_record" }),
      messages: await sampleOf("linewatch_ingest_messages_total"),
      batches: await sampleOf("linewatch_ingest_batch_seconds", { lane: "shared" }, "_count"),
    };
    const acks = [
      batcher.add(packet(JSON.stringify([record(), record(), record()])), directory.resolve(topic)),
      batcher.add(packet("{not json"), directory.resolve(topic)),
      batcher.add(packet(JSON.stringify({ partId: "no timestamp" })), directory.resolve(topic)),
    ];
    // Taken, not yet stored (the batch starts at the next turn of the event loop).
    expect(await sampleOf("linewatch_ingest_waiting_messages")).toBe(3);
    await Promise.all(acks);
    expect(await sampleOf("linewatch_ingest_waiting_messages")).toBe(0);
    await batcher.close();
    expect(await sampleOf("linewatch_ingest_records_total", { transport: "mqtt", outcome: "stored" })).toBe(
      before.stored + 3,
    );
    expect(await sampleOf("linewatch_ingest_dead_letters_total", { reason: "not_json" })).toBe(
      before.notJson + 1,
    );
    expect(await sampleOf("linewatch_ingest_dead_letters_total", { reason: "invalid_record" })).toBe(
      before.invalid + 1,
    );
    expect(await sampleOf("linewatch_ingest_messages_total")).toBe(before.messages + 3);
    expect(await sampleOf("linewatch_ingest_batch_seconds", { lane: "shared" }, "_count")).toBeGreaterThan(
      before.batches,
    );
    // One info line per dead letter: reason, data source and topic, never the payload.
    const lines = log
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => String(l.msg).startsWith("dead letter"));
    expect(lines.map((l) => [l.level, l.reason, l.topic]).sort()).toEqual([
      [30, "invalid_record", topic],
      [30, "not_json", topic],
    ]);
    expect(log.text()).not.toContain("{not json");
  });
});

describe("evaluation metrics and alert logs", () => {
  const MIN = 60_000;
  const T0 = new Date(Date.UTC(2026, 10, 22, 8));

  it("an evaluation counts by type and outcome, with its duration and how late its slot was evaluated", async () => {
    const db = t.database.db;
    const { line } = tenant;
    const [st] = await db
      .insert(stations)
      .values({ customerId: line.customerId, lineId: line.id, name: "OP-metrics", nextNumSlot: 1 })
      .returning();
    const signalId = randomUUID();
    await db.insert(signals).values({
      id: signalId,
      customerId: line.customerId,
      lineId: line.id,
      stationId: st?.id ?? "",
      name: "Torque",
      entityType: "MEASUREMENT",
      storage: "num",
      slot: 0,
    });
    await db.insert(partRecords).values(
      Array.from({ length: 200 }, (_, i) => ({
        stationId: st?.id ?? "",
        ts: new Date(T0.getTime() - (200 - i) * 1000),
        partId: `E-${i}`,
        numValues: [10 + Math.sin(i * 1.7) + Math.cos(i * 0.37)],
      })),
    );
    await createMonitorRow(db, line, {
      type: "svd",
      frequency: 5,
      filter: { signal_uuids: [signalId], sample_size: 200, evaluation_ratio: 0.25 },
      // Due 90 s ago: its slot is evaluated 90 s late.
      nextRunAt: new Date(T0.getTime() - 90_000),
    });
    const count = (outcome?: string) =>
      sampleOf("linewatch_evaluations_total", outcome ? { type: "svd", outcome } : { type: "svd" });
    const before = {
      all: await count(),
      seconds: await sampleOf("linewatch_evaluation_seconds", { type: "svd" }, "_count"),
      lag: await sampleOf("linewatch_evaluation_lag_seconds", { type: "svd" }, "_count"),
      lagSum: await sampleOf("linewatch_evaluation_lag_seconds", { type: "svd" }, "_sum"),
    };
    const worker = startWorker({
      db,
      now: () => T0,
      pollMs: 10,
      leaseMs: MIN,
      autoStart: false,
      noDataCheckMs: 0,
      owner: "metrics-test",
    });
    expect(await worker.tick()).toBe(1);
    await worker.stop();
    expect(await count()).toBe(before.all + 1);
    // The state it stored is the outcome it was counted under.
    const outcomes = await Promise.all(["ok", "breach", "no_data", "error"].map((o) => count(o)));
    expect(outcomes.reduce((a, b) => a + b, 0)).toBe(before.all + 1);
    expect(await sampleOf("linewatch_evaluation_seconds", { type: "svd" }, "_count")).toBe(
      before.seconds + 1,
    );
    expect(await sampleOf("linewatch_evaluation_lag_seconds", { type: "svd" }, "_count")).toBe(
      before.lag + 1,
    );
    expect(await sampleOf("linewatch_evaluation_lag_seconds", { type: "svd" }, "_sum")).toBe(
      before.lagSum + 90,
    );
  });

  it("an alert opened and resolved by the worker is logged at info with its monitor, line and id, and counted", async () => {
    const db = t.database.db;
    const monitor = await createMonitorRow(db, tenant.line, { type: "cap", nextRunAt: T0 });
    const clock = { now: T0 };
    let state: EvaluationResult["state"] = "BREACH";
    const log = capturingLogger();
    const opened = await sampleOf("linewatch_alerts_total", { type: "cap", event: "opened" });
    const resolved = await sampleOf("linewatch_alerts_total", { type: "cap", event: "resolved" });
    const worker = startWorker({
      db,
      now: () => clock.now,
      pollMs: 10,
      leaseMs: MIN,
      autoStart: false,
      noDataCheckMs: 0,
      owner: "metrics-alerts",
      logger: log.logger,
      onEvaluated: createOnEvaluated({ now: () => clock.now }),
      // Only this monitor is due at T0 + k·15 min in this test's clock.
      evaluate: async (_db, claims) =>
        claims.map(() => ({
          state,
          reason: null,
          score: state === "BREACH" ? 9 : 1,
          threshold: 5,
          trainingSize: 100,
          evaluationSize: 25,
          lastRecordTs: null,
          details: null,
        })),
    });
    const logged = () =>
      log
        .text()
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.monitorId === monitor.id && String(l.msg).startsWith("alert "));
    await worker.tick();
    const [open] = logged();
    expect(open).toMatchObject({
      level: 30,
      monitorId: monitor.id,
      lineId: tenant.line.id,
      type: "cap",
      msg: `alert opened: ${monitor.name}`,
    });
    expect(open?.alertId).toEqual(expect.any(String));
    expect(await sampleOf("linewatch_alerts_total", { type: "cap", event: "opened" })).toBe(opened + 1);
    // Three clean evaluations in a row resolve it.
    state = "OK";
    for (let i = 1; i <= 3; i++) {
      clock.now = new Date(T0.getTime() + i * 15 * MIN);
      await worker.tick();
    }
    await worker.stop();
    const close = logged().at(-1);
    expect(close).toMatchObject({
      level: 30,
      alertId: open?.alertId,
      msg: `alert resolved: ${monitor.name}`,
    });
    expect(await sampleOf("linewatch_alerts_total", { type: "cap", event: "resolved" })).toBe(resolved + 1);
  });
});

describe("the worker's backlog, read when scraped", () => {
  it("shows the overdue monitors with the age of the oldest slot, and the pending notifications by channel", async () => {
    const db = t.database.db;
    // A clock of its own, years before the other tests' slots: only this monitor is due then.
    const NOW = new Date(Date.UTC(2020, 0, 1, 12));
    const monitor = await createMonitorRow(db, tenant.line, {
      type: "svd",
      nextRunAt: new Date(NOW.getTime() - 600_000),
    });
    const [alert] = await db
      .insert(alerts)
      .values({
        customerId: tenant.customer.id,
        lineId: tenant.line.id,
        monitorId: monitor.id,
        state: "OPEN",
        openedAt: NOW,
        lastSeenAt: NOW,
        count: 1,
        rule: "breach",
      })
      .returning({ id: alerts.id });
    await db.insert(notificationOutbox).values([
      { customerId: tenant.customer.id, alertId: alert?.id ?? "", channel: "teams", nextAttemptAt: NOW },
      {
        customerId: tenant.customer.id,
        alertId: alert?.id ?? "",
        channel: "etq",
        nextAttemptAt: NOW,
        state: "DELIVERED",
      },
    ]);
    const outbox = createOutboxRepo(db);
    watchWorkerBacklog({
      notificationsPending: () => outbox.pendingByChannel(),
      overdue: () => overdue(db, NOW),
    });
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toMatch(/^linewatch_evaluation_overdue_monitors 1$/m);
    expect(text).toMatch(/^linewatch_evaluation_overdue_seconds 600$/m);
    expect(text).toMatch(/^linewatch_notifications_pending\{channel="teams"\} 1$/m);
    expect(text).toMatch(/^linewatch_notifications_pending\{channel="etq"\} 0$/m);
  });
});
