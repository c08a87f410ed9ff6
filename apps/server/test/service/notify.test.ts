import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client.js";
import {
  alertEvents,
  alerts,
  evaluations,
  monitors,
  notificationAttempts,
  notificationOutbox,
  relianceConfigs,
  teamsWebhooks,
} from "../../src/db/schema/index.js";
import { createSecretBox } from "../../src/lib/crypto.js";
import { notificationsSent } from "../../src/lib/metrics.js";
import { SECRET_PURPOSE } from "../../src/modules/notifications/notifications.service.js";
import { startNotifier } from "../../src/worker/notify/notifier.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { capturingLogger } from "../helpers/logger.js";

// ── A local fake of Teams and ETQ Reliance, scripted per path ──

type Step = { status: number; headers?: Record<string, string>; body?: string } | "hang";
const scripts = new Map<string, Step[]>();
const requests: { path: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
let documentSeq = 0;
let fake: http.Server;
let base = "";

function defaultStep(path: string): Step {
  if (path === "/token") {
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        access_token: `tok-${requests.length}`,
        token_type: "Bearer",
        expires_in: 3600,
      }),
    };
  }
  if (path === "/etq/documents") return { status: 201, body: JSON.stringify({ id: `DOC-${++documentSeq}` }) };
  return { status: 200, body: "1" };
}

const PUBLIC_URL = "https://linewatch.example.com";
const secrets = createSecretBox(randomBytes(32));
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const clock = { value: new Date("2026-11-22T10:00:00Z") };
const now = () => clock.value;
const advance = (ms: number) => {
  clock.value = new Date(clock.value.getTime() + ms);
};

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const path = req.url ?? "";
      requests.push({ path, body, headers: req.headers });
      const step = scripts.get(path)?.shift() ?? defaultStep(path);
      if (step === "hang") return; // never answers: the notifier's timeout ends it
      res.writeHead(step.status, step.headers).end(step.body ?? "");
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  database = await createTestDatabase();
  db = database.db;
});

afterAll(async () => {
  fake?.closeAllConnections();
  await new Promise((r) => fake?.close(r));
  await database?.close();
});

beforeEach(() => {
  scripts.clear();
  requests.length = 0;
});

const notifierOptions = {
  pollMs: 50,
  now,
  secrets,
  publicUrl: PUBLIC_URL,
  allowLoopbackOutbound: true,
  requestTimeoutMs: 300,
  autoStart: false,
};

let monitorSeq = 0;
/** A line with its integrations; alerts are made per test. */
async function setupLine(channels: { teams?: boolean; etq?: boolean }) {
  const customer = await createCustomer(db);
  const plant = await createPlant(db, customer.id);
  const line = await createLine(db, customer.id, plant.id);
  if (channels.teams) {
    await db.insert(teamsWebhooks).values({
      customerId: customer.id,
      plantId: plant.id,
      lineId: line.id,
      urlEncrypted: secrets.encrypt(`${base}/teams`, SECRET_PURPOSE.teamsUrl),
      urlHost: "127.0.0.1",
    });
  }
  if (channels.etq) {
    await db.insert(relianceConfigs).values({
      customerId: customer.id,
      lineId: line.id,
      apiHost: `${base}/etq`,
      clientId: "linewatch",
      clientSecretEncrypted: secrets.encrypt("etq-secret", SECRET_PURPOSE.relianceSecret),
      tokenEndpoint: `${base}/token`,
    });
  }
  return { customer, plant, line };
}

/** An open alert with an evaluation and outbox rows, as the alerts step writes them. */
async function createAlert(
  t: Awaited<ReturnType<typeof setupLine>>,
  channels: ("teams" | "etq")[],
  values: Partial<typeof alerts.$inferInsert> = {},
) {
  const [monitor] = await db
    .insert(monitors)
    .values({
      customerId: t.customer.id,
      plantId: t.plant.id,
      lineId: t.line.id,
      name: `Torque Monitor ${++monitorSeq}`,
      type: "mvd",
      frequency: 5,
      filter: {},
      filterMd5: `md5-${monitorSeq}`,
    })
    .returning();
  if (!monitor) throw new Error("no monitor");
  const [evaluation] = await db
    .insert(evaluations)
    .values({
      customerId: t.customer.id,
      monitorId: monitor.id,
      slot: now(),
      state: "BREACH",
      score: 0.9123,
      threshold: 0.5,
      details: {
        kind: "mvd",
        ucl: 14.1,
        p_value: 0.0003,
        alpha: 0.01,
        k: 8,
        m: 100,
        n: 25,
        p: 3,
        shrinkage: 0.05,
        signals: [],
        droppedSignals: [],
        leftOut: { training: 0, evaluation: 0 },
        worstRows: [
          {
            partId: "P-1",
            ts: null,
            t2: 40,
            topSignals: [
              { id: null, name: "Torque", contribution: 5 },
              { id: null, name: "Angle", contribution: 2 },
            ],
          },
          {
            partId: "P-2",
            ts: null,
            t2: 31,
            topSignals: [
              { id: null, name: "Angle", contribution: 4 },
              { id: null, name: "Speed", contribution: 1 },
            ],
          },
        ],
      },
    })
    .returning();
  const [alert] = await db
    .insert(alerts)
    .values({
      customerId: t.customer.id,
      lineId: t.line.id,
      monitorId: monitor.id,
      openedAt: now(),
      lastSeenAt: now(),
      rule: "Consecutive",
      score: 0.9123,
      threshold: 0.5,
      ...values,
    })
    .returning();
  if (!alert || !evaluation) throw new Error("no alert");
  await db
    .insert(alertEvents)
    .values({ alertId: alert.id, at: now(), kind: "OPENED", evaluationId: evaluation.id });
  if (channels.length) {
    await db.insert(notificationOutbox).values(
      channels.map((channel) => ({
        customerId: t.customer.id,
        alertId: alert.id,
        channel,
        nextAttemptAt: now(),
      })),
    );
  }
  return { alert, monitor };
}

async function outboxOf(alertId: string, channel: "teams" | "etq") {
  const [row] = await db
    .select()
    .from(notificationOutbox)
    .where(eq(notificationOutbox.alertId, alertId))
    .then((rows) => rows.filter((r) => r.channel === channel));
  if (!row) throw new Error("no outbox row");
  const attempts = await db
    .select()
    .from(notificationAttempts)
    .where(eq(notificationAttempts.outboxId, row.id))
    .orderBy(asc(notificationAttempts.at));
  return { row, attempts };
}

const successes = (path: string) =>
  requests.filter((r) => r.path === path).length - (scripts.get(path)?.length ?? 0);

describe("notifier", () => {
  it("500, 429 with Retry-After, timeout, then 200: exactly one delivery per channel, across a restart", async () => {
    const t = await setupLine({ teams: true, etq: true });
    const { alert } = await createAlert(t, ["teams", "etq"]);
    for (const path of ["/teams", "/etq/documents"]) {
      scripts.set(path, [
        { status: 500, body: "boom" },
        { status: 429, headers: { "retry-after": "7" } },
        "hang",
        path === "/teams" ? { status: 202 } : { status: 201, body: JSON.stringify({ id: "DOC-42" }) },
      ]);
    }

    let notifier = startNotifier({ db, ...notifierOptions });
    expect(await notifier.runOnce()).toBe(2); // 500
    expect(await notifier.runOnce()).toBe(0); // not due yet
    let teams = await outboxOf(alert.id, "teams");
    expect(teams.row).toMatchObject({ state: "PENDING", attempts: 1 });
    expect(teams.row.nextAttemptAt.getTime() - now().getTime()).toBe(5_000);

    advance(5_000);
    expect(await notifier.runOnce()).toBe(2); // 429, Retry-After: 7
    teams = await outboxOf(alert.id, "teams");
    expect(teams.row.nextAttemptAt.getTime() - now().getTime()).toBe(7_000);
    const tokensBeforeRestart = requests.filter((r) => r.path === "/token").length;
    expect(tokensBeforeRestart).toBe(1); // cached between the two document calls

    // The worker restarts: a new notifier on the same database carries on.
    await notifier.stop();
    notifier = startNotifier({ db, ...notifierOptions });
    advance(7_000);
    expect(await notifier.runOnce()).toBe(2); // no answer: timeout, retried
    teams = await outboxOf(alert.id, "teams");
    expect(teams.row).toMatchObject({ state: "PENDING", attempts: 3 });
    expect(teams.row.lastError).toContain("No answer within");
    expect(teams.row.nextAttemptAt.getTime() - now().getTime()).toBe(20_000); // 5 s × 2²

    advance(20_000);
    expect(await notifier.runOnce()).toBe(2); // 2xx
    advance(3_600_000);
    expect(await notifier.runOnce()).toBe(0);
    await notifier.stop();

    teams = await outboxOf(alert.id, "teams");
    const etq = await outboxOf(alert.id, "etq");
    for (const o of [teams, etq]) {
      expect(o.row).toMatchObject({ state: "DELIVERED", attempts: 4, lastError: null });
      expect(o.attempts.map((a) => a.httpStatus)).toEqual([500, 429, null, o === teams ? 202 : 201]);
      expect(o.attempts[2]?.error).toContain("No answer within");
    }
    expect(requests.filter((r) => r.path === "/teams")).toHaveLength(4);
    expect(requests.filter((r) => r.path === "/etq/documents")).toHaveLength(4);
    expect(successes("/teams")).toBe(4);
    const [stored] = await db.select().from(alerts).where(eq(alerts.id, alert.id));
    expect(stored?.relianceDocumentId).toBe("DOC-42");
    const [config] = await db.select().from(relianceConfigs).where(eq(relianceConfigs.lineId, t.line.id));
    expect(config?.connectionStatus).toBe("SUCCESS");
    // The new process had no token: one more token call, then cached.
    expect(requests.filter((r) => r.path === "/token")).toHaveLength(2);
  });

  it("sends an Adaptive Card with monitor, line, rule, score, top drivers and the alert link", async () => {
    const t = await setupLine({ teams: true, etq: true });
    const { alert, monitor } = await createAlert(t, ["teams", "etq"]);
    const notifier = startNotifier({ db, ...notifierOptions });
    await notifier.runOnce();
    const teams = requests.find((r) => r.path === "/teams");
    const message = JSON.parse(teams?.body ?? "{}");
    expect(message.type).toBe("message");
    expect(message.attachments).toHaveLength(1);
    const [attachment] = message.attachments;
    expect(attachment.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(attachment.contentUrl).toBeNull();
    const card = attachment.content;
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    const text = JSON.stringify(card);
    for (const s of [
      monitor.name,
      t.line.name,
      "Consecutive",
      // The app's wording: an MVD alert reads by its p-value against α.
      "p-value 0.0003 vs α 0.5, 8 of 25 parts above the UCL (mean T²/p 0.912)",
      "Angle",
      "Torque",
    ]) {
      expect(text).toContain(s);
    }
    // strongest driver first: Angle 6, Torque 5, Speed 1
    expect(text.indexOf("Angle (contribution 6)")).toBeLessThan(text.indexOf("Torque (contribution 5)"));
    const link = `${PUBLIC_URL}/lines/${t.line.id}?alert=${alert.id}`;
    expect(card.actions).toEqual([{ type: "Action.OpenUrl", title: "Open alert", url: link }]);

    const doc = requests.find((r) => r.path === "/etq/documents");
    expect(doc?.headers.authorization).toMatch(/^Bearer tok-/);
    expect(doc?.headers["idempotency-key"]).toBe(alert.id);
    expect(JSON.parse(doc?.body ?? "{}")).toMatchObject({ externalId: alert.id, link, rule: "Consecutive" });
    const token = new URLSearchParams(requests.find((r) => r.path === "/token")?.body);
    expect(Object.fromEntries(token)).toEqual({
      grant_type: "client_credentials",
      client_id: "linewatch",
      client_secret: "etq-secret",
    });
    await notifier.stop();
  });

  it("caches the ETQ token until 60 s before it expires", async () => {
    const t = await setupLine({ etq: true });
    await createAlert(t, ["etq"]);
    await createAlert(t, ["etq"]);
    const notifier = startNotifier({ db, ...notifierOptions });
    expect(await notifier.runOnce()).toBe(2);
    expect(requests.filter((r) => r.path === "/token")).toHaveLength(1);
    expect(requests.filter((r) => r.path === "/etq/documents")).toHaveLength(2);

    advance(3_600_000 - 61_000); // 61 s before expiry: still cached
    await createAlert(t, ["etq"]);
    await notifier.runOnce();
    expect(notifier.tokenFetches).toBe(1);

    advance(2_000); // 59 s before expiry: renewed
    await createAlert(t, ["etq"]);
    await notifier.runOnce();
    expect(notifier.tokenFetches).toBe(2);
    expect(requests.filter((r) => r.path === "/etq/documents")).toHaveLength(4);
    await notifier.stop();
  });

  it("never creates a second ETQ document for an alert that has one", async () => {
    const t = await setupLine({ etq: true });
    const { alert } = await createAlert(t, ["etq"], { relianceDocumentId: "DOC-EXISTING" });
    const notifier = startNotifier({ db, ...notifierOptions });
    expect(await notifier.runOnce()).toBe(1);
    const etq = await outboxOf(alert.id, "etq");
    expect(etq.row.state).toBe("DELIVERED");
    expect(etq.attempts).toHaveLength(1);
    expect(requests).toHaveLength(0);
    await notifier.stop();
  });

  it("logs each failed attempt at info with channel, integration and reason (never the webhook's address), the last at warn, and counts them", async () => {
    const t = await setupLine({ teams: true });
    const { alert } = await createAlert(t, ["teams"]);
    const [hook] = await db.select().from(teamsWebhooks).where(eq(teamsWebhooks.lineId, t.line.id));
    scripts.set("/teams", [
      { status: 500, body: "boom" },
      { status: 400, body: "Bad card" },
    ]);
    const count = async (outcome: string) =>
      (await notificationsSent.get()).values.find(
        (v) => v.labels.channel === "teams" && v.labels.outcome === outcome,
      )?.value ?? 0;
    const before = { retrying: await count("retrying"), failed: await count("failed") };
    const log = capturingLogger();
    const notifier = startNotifier({ db, ...notifierOptions, logger: log.logger });
    await notifier.runOnce();
    advance(5_000);
    await notifier.runOnce();
    await notifier.stop();
    const lines = log
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.alertId === alert.id);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, "notification failed, retrying in 5 s"],
      [40, "notification failed for good"],
    ]);
    for (const l of lines) expect(l).toMatchObject({ channel: "teams", integrationId: hook?.id });
    expect(lines[0]).toMatchObject({ httpStatus: 500 });
    expect(String(lines[1]?.reason)).toContain("answered 400");
    expect(log.text()).not.toContain(base);
    expect(await count("retrying")).toBe(before.retrying + 1);
    expect(await count("failed")).toBe(before.failed + 1);
  });

  it("fails at once on a 400", async () => {
    const t = await setupLine({ teams: true, etq: true });
    const { alert } = await createAlert(t, ["teams", "etq"]);
    scripts.set("/teams", [{ status: 400, body: "Bad card" }]);
    scripts.set("/etq/documents", [{ status: 400, body: '{"error":"invalid"}' }]);
    const notifier = startNotifier({ db, ...notifierOptions });
    await notifier.runOnce();
    advance(7_200_000);
    expect(await notifier.runOnce()).toBe(0);
    for (const channel of ["teams", "etq"] as const) {
      const o = await outboxOf(alert.id, channel);
      expect(o.row).toMatchObject({ state: "FAILED", attempts: 1 });
      expect(o.row.lastError).toContain("answered 400");
      expect(o.attempts.map((a) => a.httpStatus)).toEqual([400]);
    }
    const [config] = await db.select().from(relianceConfigs).where(eq(relianceConfigs.lineId, t.line.id));
    expect(config?.connectionStatus).toBe("ERROR");
    await notifier.stop();
  });

  it("fails at once when ETQ answers without a document id (a retry could create a second one)", async () => {
    const t = await setupLine({ etq: true });
    const { alert } = await createAlert(t, ["etq"]);
    scripts.set("/etq/documents", [{ status: 201, body: "{}" }]);
    const notifier = startNotifier({ db, ...notifierOptions });
    await notifier.runOnce();
    const o = await outboxOf(alert.id, "etq");
    expect(o.row).toMatchObject({
      state: "FAILED",
      lastError: "ETQ Reliance answered without a document id",
    });
    await notifier.stop();
  });

  it("gives up after 10 attempts with backoff up to an hour", async () => {
    const t = await setupLine({ teams: true });
    const { alert } = await createAlert(t, ["teams"]);
    scripts.set(
      "/teams",
      Array.from({ length: 12 }, () => ({ status: 503 })),
    );
    const notifier = startNotifier({ db, ...notifierOptions });
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      await notifier.runOnce();
      const { row } = await outboxOf(alert.id, "teams");
      if (row.state !== "PENDING") break;
      waits.push(row.nextAttemptAt.getTime() - now().getTime());
      advance(3_600_000);
    }
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280].map((s) => s * 1000));
    const o = await outboxOf(alert.id, "teams");
    expect(o.row).toMatchObject({ state: "FAILED", attempts: 10 });
    expect(o.attempts).toHaveLength(10);
    expect(requests).toHaveLength(10);
    await notifier.stop();
  });

  it("takes over a row whose worker died holding its lease", async () => {
    const t = await setupLine({ teams: true });
    const { alert } = await createAlert(t, ["teams"]);
    // Another worker claimed it and died.
    await db
      .update(notificationOutbox)
      .set({ leaseUntil: new Date(now().getTime() + 60_000) })
      .where(eq(notificationOutbox.alertId, alert.id));
    const notifier = startNotifier({ db, ...notifierOptions });
    expect(await notifier.runOnce()).toBe(0);
    advance(60_000);
    expect(await notifier.runOnce()).toBe(1);
    expect((await outboxOf(alert.id, "teams")).row.state).toBe("DELIVERED");
    expect(requests).toHaveLength(1);
    await notifier.stop();
  });

  it("refuses loopback without the explicit setting, without calling it", async () => {
    const t = await setupLine({ teams: true });
    const { alert } = await createAlert(t, ["teams"]);
    const notifier = startNotifier({ db, ...notifierOptions, allowLoopbackOutbound: false });
    await notifier.runOnce();
    const o = await outboxOf(alert.id, "teams");
    expect(o.row.state).toBe("FAILED");
    expect(o.row.lastError).toContain("https");
    expect(requests).toHaveLength(0);
    await notifier.stop();
  });

  it("a channel removed after the alert was written fails with the reason", async () => {
    const t = await setupLine({ teams: true });
    const { alert } = await createAlert(t, ["teams"]);
    await db.delete(teamsWebhooks).where(eq(teamsWebhooks.lineId, t.line.id));
    const notifier = startNotifier({ db, ...notifierOptions });
    await notifier.runOnce();
    const o = await outboxOf(alert.id, "teams");
    expect(o.row).toMatchObject({
      state: "FAILED",
      lastError: "No Microsoft Teams webhook is configured for this line",
    });
    await notifier.stop();
  });

  it("polls by itself when started", async () => {
    const t = await setupLine({ teams: true });
    const { alert } = await createAlert(t, ["teams"]);
    const notifier = startNotifier({ db, ...notifierOptions, autoStart: true, pollMs: 20 });
    // An upper bound on waiting for the condition, not a duration (the test's own timeout is 30 s).
    const deadline = Date.now() + 25_000;
    while ((await outboxOf(alert.id, "teams")).row.state === "PENDING" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await notifier.stop();
    expect((await outboxOf(alert.id, "teams")).row.state).toBe("DELIVERED");
  });
});
