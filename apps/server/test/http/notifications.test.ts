import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ETQ_MESSAGES, LINE_MESSAGES, TEAMS_MESSAGES } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  alerts,
  notificationAttempts,
  notificationOutbox,
  relianceConfigs,
  teamsWebhooks,
} from "../../src/db/schema/index.js";
import { type App, buildApp } from "../../src/http/app.js";
import { createSecretBox } from "../../src/lib/crypto.js";
import { createServices } from "../../src/services.js";
import { createLine, createMonitorRow, createPlant, createTenant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const WEBHOOK_SIG = `sig-${randomBytes(8).toString("hex")}`;
const WEBHOOK_URL = `https://prod-01.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=${WEBHOOK_SIG}`;
const CLIENT_SECRET = `secret-${randomBytes(8).toString("hex")}`;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: App;
let a: Tenant;
let b: Tenant;
/** Every answer body, to prove no secret ever leaves. */
const bodies: string[] = [];

// A local fake of Teams and ETQ (loopback is allowed by the explicit setting below).
let fake: http.Server;
let fakeUrl = "";
const received: { url: string; body: string; auth?: string }[] = [];
let teamsStatus = 200;

async function call(method: string, url: string, headers?: { cookie: string }, payload?: unknown) {
  const res = await app.inject({
    method: method as "GET",
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  bodies.push(res.body);
  return res;
}

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ url: req.url ?? "", body, auth: req.headers.authorization });
      if (req.url === "/hook") return res.writeHead(teamsStatus).end(teamsStatus >= 400 ? "bad card" : "");
      if (req.url === "/token") {
        const p = new URLSearchParams(body);
        if (p.get("client_secret") !== CLIENT_SECRET)
          return res.writeHead(401).end('{"error":"invalid_client"}');
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ access_token: "tok", expires_in: 3600 }));
      }
      if (req.url === "/api")
        return res.writeHead(req.headers.authorization === "Bearer tok" ? 200 : 401).end("{}");
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;

  database = await createTestDatabase();
  const services = createServices({
    db: database.db,
    publicUrl: "http://localhost:8080",
    notifications: {
      secrets: createSecretBox(randomBytes(32)),
      allowLoopbackOutbound: true,
      requestTimeoutMs: 2000,
    },
  });
  app = await buildApp({ services, cookieSecure: "auto" });
  await app.ready();
  a = await createTenant(app, database.db);
  b = await createTenant(app, database.db);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  fake?.closeAllConnections();
  await new Promise((r) => fake?.close(r));
  // The secrets were accepted, stored and used above, but never answered.
  for (const body of bodies) {
    expect(body).not.toContain(WEBHOOK_SIG);
    expect(body).not.toContain(CLIENT_SECRET);
  }
});

const teamsList = (t: Tenant) => `/api/notifications/teams-webhooks/plants/${t.plant.id}`;
const teamsPut = (t: Tenant, lineId = t.line.id) =>
  `/api/notifications/teams-webhooks/plants/${t.plant.id}/lines/${lineId}`;
const etqList = (t: Tenant) => `/api/reliance-configuration/plants/${t.plant.id}`;
const etqLine = (lineId: string) => `/api/reliance-configuration/lines/${lineId}`;
const etqBody = {
  apiHost: "https://etq.example.com/reliance/rest",
  clientId: "linewatch",
  tokenEndpoint: "https://login.example.com/oauth2/token",
  clientSecret: CLIENT_SECRET,
};

const healthUrl = (t: Tenant, channel: string) =>
  `/api/notifications/delivery-health/plants/${t.plant.id}?channel=${channel}`;

describe("access", () => {
  it("lets every user of the customer read the lists and delivery health, with a session (401)", async () => {
    for (const url of [teamsList(a), etqList(a), healthUrl(a, "teams"), healthUrl(a, "etq")]) {
      expect((await call("GET", url)).statusCode, url).toBe(401);
      expect((await call("GET", url, a.userHeaders)).statusCode, url).toBe(200);
      expect((await call("GET", url, b.userHeaders)).statusCode, url).toBe(404);
    }
  });

  it("needs an administrator (403) to change or test an integration", async () => {
    const id = randomUUID();
    const routes: [string, string, unknown?][] = [
      ["PUT", teamsPut(a), { url: WEBHOOK_URL }],
      ["DELETE", `/api/notifications/teams-webhooks/${id}`],
      ["POST", `/api/notifications/teams-webhooks/${id}/test`],
      ["POST", etqLine(a.line.id), etqBody],
      ["DELETE", etqLine(a.line.id)],
      ["POST", `${etqLine(a.line.id)}/test`],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      const res = await call(method, url, a.userHeaders, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe("Forbidden resource");
    }
  });
});

describe("Teams webhooks", () => {
  it("refuses a blank, non-https or non-Workflows URL", async () => {
    for (const payload of [{}, { url: "" }, { url: "   " }]) {
      const res = await call("PUT", teamsPut(a), a.adminHeaders, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(TEAMS_MESSAGES.urlBlank);
    }
    const cases: [string, string][] = [
      ["http://prod-01.westeurope.logic.azure.com/workflows/x", TEAMS_MESSAGES.notHttps],
      ["https://example.com/hook", TEAMS_MESSAGES.notWorkflows],
      ["https://logic.azure.com.evil.example/hook", TEAMS_MESSAGES.notWorkflows],
      ["https://10.0.0.1/hook", TEAMS_MESSAGES.notWorkflows],
      [
        "https://acme.webhook.office.com/webhookb2/abc@def/IncomingWebhook/x/y",
        TEAMS_MESSAGES.retiredConnector,
      ],
      ["https://outlook.office.com/webhook/abc/IncomingWebhook/x/y", TEAMS_MESSAGES.retiredConnector],
      ["not a url", TEAMS_MESSAGES.saveFailed],
    ];
    for (const [url, message] of cases) {
      const res = await call("PUT", teamsPut(a), a.adminHeaders, { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toBe(message);
    }
    const extra = await call("PUT", teamsPut(a), a.adminHeaders, { url: WEBHOOK_URL, admin: true });
    expect(extra.statusCode).toBe(400);
  });

  it("saves, lists (host only), updates and deletes a webhook", async () => {
    const put = await call("PUT", teamsPut(a), a.adminHeaders, { url: WEBHOOK_URL });
    expect(put.statusCode).toBe(200);
    const saved = put.json();
    expect(saved).toMatchObject({ lineId: a.line.id, urlHost: "prod-01.westeurope.logic.azure.com" });
    expect(Object.keys(saved).sort()).toEqual([
      "id",
      "lastModifiedDateTime",
      "lastTest",
      "lineId",
      "urlHost",
    ]);
    expect(saved.lastTest).toBeNull();

    // Stored encrypted.
    const [row] = await database.db.select().from(teamsWebhooks);
    expect(row?.urlEncrypted).not.toContain(WEBHOOK_SIG);

    const again = await call("PUT", teamsPut(a), a.adminHeaders, {
      url: "https://x.environment.api.powerplatform.com/workflows/2",
    });
    expect(again.json()).toMatchObject({ id: saved.id, urlHost: "x.environment.api.powerplatform.com" });

    const list = await call("GET", teamsList(a), a.adminHeaders);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([again.json()]);
    expect((await call("GET", teamsList(b), b.adminHeaders)).json()).toEqual([]);

    expect(
      (await call("DELETE", `/api/notifications/teams-webhooks/${saved.id}`, a.adminHeaders)).statusCode,
    ).toBe(204);
    const gone = await call("DELETE", `/api/notifications/teams-webhooks/${saved.id}`, a.adminHeaders);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(TEAMS_MESSAGES.notFound);
  });

  it("answers 404 across customers and for a line of another plant", async () => {
    const own = await call("PUT", teamsPut(a), a.adminHeaders, { url: WEBHOOK_URL });
    const id = own.json().id;
    expect((await call("GET", teamsList(a), b.adminHeaders)).statusCode).toBe(404);
    const cross = await call("PUT", teamsPut(a), b.adminHeaders, { url: WEBHOOK_URL });
    expect(cross.statusCode).toBe(404);
    // b's plant with a's line, and a's plant with b's line
    expect((await call("PUT", teamsPut(b, a.line.id), b.adminHeaders, { url: WEBHOOK_URL })).statusCode).toBe(
      404,
    );
    expect((await call("PUT", teamsPut(a, b.line.id), a.adminHeaders, { url: WEBHOOK_URL })).statusCode).toBe(
      404,
    );
    const plant2 = await createPlant(database.db, a.customer.id);
    const line2 = await createLine(database.db, a.customer.id, plant2.id);
    const wrongPlant = await call("PUT", teamsPut(a, line2.id), a.adminHeaders, { url: WEBHOOK_URL });
    expect(wrongPlant.statusCode).toBe(404);
    expect(wrongPlant.json().message).toBe(LINE_MESSAGES.notFound);
    expect((await call("DELETE", `/api/notifications/teams-webhooks/${id}`, b.adminHeaders)).statusCode).toBe(
      404,
    );
    expect(
      (await call("POST", `/api/notifications/teams-webhooks/${id}/test`, b.adminHeaders)).statusCode,
    ).toBe(404);
    expect((await call("GET", teamsList(a), a.adminHeaders)).json()).toHaveLength(1);
  });

  it("sends a test message and reports the far end's answer", async () => {
    const put = await call("PUT", teamsPut(a), a.adminHeaders, { url: `${fakeUrl}/hook` });
    expect(put.statusCode).toBe(200);
    const id = put.json().id;
    received.length = 0;
    teamsStatus = 202;
    const ok = await call("POST", `/api/notifications/teams-webhooks/${id}/test`, a.adminHeaders);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, httpStatus: 202, message: TEAMS_MESSAGES.testSent });
    const sent = JSON.parse(received[0]?.body ?? "{}");
    expect(sent.type).toBe("message");
    expect(sent.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(sent.attachments[0].content.version).toBe("1.4");

    // The outcome is kept on the row, for every user to see.
    const [listed] = (await call("GET", teamsList(a), a.userHeaders)).json();
    expect(listed.lastTest).toMatchObject({ ok: true, httpStatus: 202, message: TEAMS_MESSAGES.testSent });

    teamsStatus = 400;
    const bad = await call("POST", `/api/notifications/teams-webhooks/${id}/test`, a.adminHeaders);
    expect(bad.json()).toMatchObject({ ok: false, httpStatus: 400 });
    expect(bad.json().message).toContain("400");
    const [failed] = (await call("GET", teamsList(a), a.userHeaders)).json();
    expect(failed.lastTest).toMatchObject({ ok: false, httpStatus: 400, message: bad.json().message });
    teamsStatus = 200;

    // Saving the URL again forgets the outcome: the new URL has not been tested.
    await call("PUT", teamsPut(a), a.adminHeaders, { url: `${fakeUrl}/hook` });
    expect((await call("GET", teamsList(a), a.userHeaders)).json()[0].lastTest).toBeNull();
  });
});

describe("ETQ Reliance configuration", () => {
  it("requires all four fields ('required') and https URLs", async () => {
    const missing = await call("POST", etqLine(a.line.id), a.adminHeaders, {});
    expect(missing.statusCode).toBe(400);
    for (const f of ["apiHost", "clientId", "tokenEndpoint"]) {
      expect(missing.json().message).toContain(`body.${f}: ${ETQ_MESSAGES.required}`);
    }
    for (const f of ["apiHost", "clientId", "tokenEndpoint", "clientSecret"]) {
      const res = await call("POST", etqLine(a.line.id), a.adminHeaders, { ...etqBody, [f]: " " });
      expect(res.statusCode, f).toBe(400);
      expect(res.json().message, f).toBe(`body.${f}: ${ETQ_MESSAGES.required}`);
    }
    // A new configuration needs its secret.
    const { clientSecret: _, ...noSecret } = etqBody;
    const res = await call("POST", etqLine(a.line.id), a.adminHeaders, noSecret);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`body.clientSecret: ${ETQ_MESSAGES.required}`);

    const http1 = await call("POST", etqLine(a.line.id), a.adminHeaders, {
      ...etqBody,
      tokenEndpoint: "http://login.example.com/token",
    });
    expect(http1.statusCode).toBe(400);
    expect(http1.json().message).toBe(ETQ_MESSAGES.notHttps("Token URL"));
    const meta = await call("POST", etqLine(a.line.id), a.adminHeaders, {
      ...etqBody,
      apiHost: "169.254.169.254",
    });
    expect(meta.statusCode).toBe(400);
    expect(meta.json().message).toContain("metadata");
  });

  it("saves (secret write-only), lists by line, keeps the secret when omitted, deletes", async () => {
    const save = await call("POST", etqLine(a.line.id), a.adminHeaders, etqBody);
    expect(save.statusCode).toBe(200);
    const { clientSecret: _, ...visible } = etqBody;
    expect(save.json()).toMatchObject({
      ...visible,
      lineId: a.line.id,
      connectionStatus: null,
      hasClientSecret: true,
    });
    expect(save.json()).not.toHaveProperty("clientSecret");
    const [row] = await database.db.select().from(relianceConfigs);
    expect(row?.clientSecretEncrypted).not.toContain(CLIENT_SECRET);

    const list = await call("GET", etqList(a), a.adminHeaders);
    expect(list.statusCode).toBe(200);
    expect(Object.keys(list.json())).toEqual([a.line.id]);
    expect(list.json()[a.line.id]).toEqual(save.json());

    const update = await call("POST", etqLine(a.line.id), a.adminHeaders, { ...visible, clientId: "other" });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({ id: save.json().id, clientId: "other" });
    const [after] = await database.db.select().from(relianceConfigs);
    expect(after?.clientSecretEncrypted).toBe(row?.clientSecretEncrypted);

    expect((await call("DELETE", etqLine(a.line.id), a.adminHeaders)).statusCode).toBe(204);
    const gone = await call("DELETE", etqLine(a.line.id), a.adminHeaders);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(ETQ_MESSAGES.notFound);
    expect((await call("GET", etqList(a), a.adminHeaders)).json()).toEqual({});
  });

  it("answers 404 across customers", async () => {
    await call("POST", etqLine(a.line.id), a.adminHeaders, etqBody);
    expect((await call("GET", etqList(a), b.adminHeaders)).statusCode).toBe(404);
    expect((await call("POST", etqLine(a.line.id), b.adminHeaders, etqBody)).statusCode).toBe(404);
    expect((await call("DELETE", etqLine(a.line.id), b.adminHeaders)).statusCode).toBe(404);
    expect((await call("POST", `${etqLine(a.line.id)}/test`, b.adminHeaders)).statusCode).toBe(404);
    expect((await call("POST", etqLine(randomUUID()), a.adminHeaders, etqBody)).statusCode).toBe(404);
    expect((await call("GET", etqList(b), b.adminHeaders)).json()).toEqual({});
    expect(Object.keys((await call("GET", etqList(a), a.adminHeaders)).json())).toEqual([a.line.id]);
  });

  it("tests the connection and sets its status", async () => {
    const body = { ...etqBody, apiHost: `${fakeUrl}/api`, tokenEndpoint: `${fakeUrl}/token` };
    expect((await call("POST", etqLine(a.line.id), a.adminHeaders, body)).statusCode).toBe(200);
    const ok = await call("POST", `${etqLine(a.line.id)}/test`, a.adminHeaders);
    expect(ok.json()).toEqual({ ok: true, httpStatus: 200, message: ETQ_MESSAGES.connected });
    const tested = (await call("GET", etqList(a), a.userHeaders)).json()[a.line.id];
    expect(tested.connectionStatus).toBe("SUCCESS");
    expect(tested.lastTest).toMatchObject({ ok: true, httpStatus: 200, message: ETQ_MESSAGES.connected });

    await call("POST", etqLine(a.line.id), a.adminHeaders, { ...body, clientSecret: "wrong" });
    // A changed configuration is untested again: no status, no outcome.
    const resaved = (await call("GET", etqList(a), a.userHeaders)).json()[a.line.id];
    expect(resaved).toMatchObject({ connectionStatus: null, lastTest: null });
    const bad = await call("POST", `${etqLine(a.line.id)}/test`, a.adminHeaders);
    expect(bad.json()).toMatchObject({ ok: false, httpStatus: 401 });
    const failed = (await call("GET", etqList(a), a.adminHeaders)).json()[a.line.id];
    expect(failed.connectionStatus).toBe("ERROR");
    expect(failed.lastTest).toMatchObject({ ok: false, httpStatus: 401 });
  });
});

describe("delivery health", () => {
  const HOUR = 3_600_000;

  /** An alert of `t`'s line (a new monitor each) with its outbox row on `channel` and attempts. */
  async function alertWithAttempts(
    t: Tenant,
    channel: "teams" | "etq",
    o: {
      state?: "OPEN" | "RESOLVED";
      outbox?: "PENDING" | "DELIVERED" | "FAILED";
      attempts: { hoursAgo: number; httpStatus: number | null; error: string | null }[];
    },
  ) {
    const db = database.db;
    const monitor = await createMonitorRow(db, t.line);
    const [alert] = await db
      .insert(alerts)
      .values({
        customerId: t.customer.id,
        lineId: t.line.id,
        monitorId: monitor.id,
        state: o.state ?? "OPEN",
        openedAt: new Date(),
        lastSeenAt: new Date(),
        rule: "breach",
      })
      .returning();
    if (!alert) throw new Error("no alert");
    const [outbox] = await db
      .insert(notificationOutbox)
      .values({
        customerId: t.customer.id,
        alertId: alert.id,
        channel,
        state: o.outbox ?? "PENDING",
        attempts: o.attempts.length,
      })
      .returning();
    if (!outbox) throw new Error("no outbox row");
    for (const at of o.attempts) {
      await db.insert(notificationAttempts).values({
        outboxId: outbox.id,
        at: new Date(Date.now() - at.hoursAgo * HOUR),
        httpStatus: at.httpStatus,
        error: at.error,
        durationMs: 5,
      });
    }
  }

  it("answers each line's last delivery, failures in 24 hours and open alerts still being retried", async () => {
    const t = await createTenant(app, database.db);
    const quiet = await createLine(database.db, t.customer.id, t.plant.id);
    expect((await call("GET", healthUrl(t, "teams"), t.userHeaders)).json()).toEqual([]);

    // Delivered long ago, then one failing alert still in retry, and an old failure outside 24 h.
    await alertWithAttempts(t, "teams", {
      state: "RESOLVED",
      outbox: "DELIVERED",
      attempts: [
        { hoursAgo: 30, httpStatus: 500, error: "Microsoft Teams answered 500" },
        { hoursAgo: 29, httpStatus: 202, error: null },
      ],
    });
    await alertWithAttempts(t, "teams", {
      attempts: [
        { hoursAgo: 2, httpStatus: 429, error: "Microsoft Teams answered 429" },
        { hoursAgo: 1, httpStatus: 503, error: "Microsoft Teams answered 503" },
      ],
    });
    // A resolved alert still pending is not an open alert being retried; ETQ is another channel.
    await alertWithAttempts(t, "teams", {
      state: "RESOLVED",
      attempts: [{ hoursAgo: 3, httpStatus: 500, error: "Microsoft Teams answered 500" }],
    });
    await alertWithAttempts(t, "etq", {
      outbox: "DELIVERED",
      attempts: [{ hoursAgo: 1, httpStatus: 201, error: null }],
    });

    const teams = (await call("GET", healthUrl(t, "teams"), t.userHeaders)).json();
    expect(teams).toEqual([
      {
        lineId: t.line.id,
        lastAttempt: {
          at: expect.any(String),
          ok: false,
          httpStatus: 503,
          error: "Microsoft Teams answered 503",
        },
        failuresLast24h: 3,
        retryingAlerts: 1,
      },
    ]);
    expect(teams.some((h: { lineId: string }) => h.lineId === quiet.id)).toBe(false);

    const etq = (await call("GET", healthUrl(t, "etq"), t.adminHeaders)).json();
    expect(etq).toEqual([
      {
        lineId: t.line.id,
        lastAttempt: { at: expect.any(String), ok: true, httpStatus: 201, error: null },
        failuresLast24h: 0,
        retryingAlerts: 0,
      },
    ]);
  });

  it("refuses an unknown channel (400) and another customer's plant (404)", async () => {
    const bad = await call("GET", healthUrl(a, "email"), a.adminHeaders);
    expect(bad.statusCode).toBe(400);
    expect((await call("GET", healthUrl(a, "teams"), b.adminHeaders)).statusCode).toBe(404);
    expect(
      (await call("GET", `/api/notifications/delivery-health/plants/${a.plant.id}`, a.adminHeaders))
        .statusCode,
    ).toBe(400);
  });
});
