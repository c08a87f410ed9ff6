// The embedded broker reached from the plant's machines (issue 28 §5): MQTT_HOST puts it on an
// address other than loopback, and MQTT_TLS_CERT / MQTT_TLS_KEY add an MQTT-over-TLS listener that
// takes the plant's login and stores its records like plain MQTT.
import { randomBytes } from "node:crypto";
import { networkInterfaces } from "node:os";
import mqtt from "mqtt";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { freePort } from "../helpers/ingest-process.js";
import { storedCount, torqueRecord } from "../helpers/mqtt.js";

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let login: { username: string; password: string };
let ingest: Ingest;
let ca: string;
const clients: mqtt.MqttClient[] = [];
const run = randomBytes(4).toString("hex");
const topic = `lwtls-${run}`;

/** This machine's first IPv4 address that is not loopback, if it has one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

const stored = (partId: string) => storedCount(t.database.db, partId);

const record = torqueRecord;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
  const source = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/data-sources`,
    headers: tenant.adminHeaders,
    payload: { name: "Over TLS", topic: `${topic}/#` },
  });
  expect(source.statusCode, source.body).toBe(201);
  const password = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/mqtt-credential/password`,
    headers: tenant.adminHeaders,
  });
  login = { username: password.json().credential.username, password: password.json().password };
  // A certificate for this machine, as a plant's IT would issue one for the Linewatch host.
  const pems = await generate([{ name: "commonName", value: "linewatch.test" }], {
    keySize: 2048,
    extensions: [
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          ...(lanAddress ? [{ type: 7 as const, ip: lanAddress }] : []),
        ],
      },
    ],
  });
  ca = pems.cert;
  ingest = await startIngest({
    db: t.database.db,
    partRecords: t.services.partRecords,
    mqttPort: 0,
    mqttHost: "0.0.0.0",
    mqttTls: { cert: pems.cert, key: pems.private, port: 0 },
    refreshMs: 300,
  });
});
afterAll(async () => {
  for (const c of clients) await c.endAsync(true).catch(() => {});
  await ingest?.close();
  await closeTestApp(t);
});

async function connect(url: string, opts: mqtt.IClientOptions) {
  const client = await mqtt.connectAsync(url, {
    clientId: `lwtls-${run}-${clients.length}`,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...opts,
  });
  clients.push(client);
  return client;
}

describe("the embedded broker over TLS", () => {
  it("stores a record published over TLS with the plant's login, the certificate checked", async () => {
    expect(ingest.tlsPort).toBeGreaterThan(0);
    const client = await connect(`mqtts://127.0.0.1:${ingest.tlsPort}`, {
      ...login,
      ca,
      rejectUnauthorized: true,
    });
    await client.publishAsync(`${topic}/Line A/OP10`, record(`TLS-${run}`), { qos: 1 });
    // The embedded broker acknowledges a QoS 1 publish after the commit.
    expect(await stored(`TLS-${run}`)).toBe(1);
  });

  it("refuses a wrong password over TLS as over plain MQTT (CONNACK 4)", async () => {
    const err = await connect(`mqtts://127.0.0.1:${ingest.tlsPort}`, {
      username: login.username,
      password: "lwm_wrong",
      ca,
      rejectUnauthorized: true,
    }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(err?.code).toBe(4);
  });

  it("a client that does not trust the certificate does not connect", async () => {
    const err = await connect(`mqtts://127.0.0.1:${ingest.tlsPort}`, {
      ...login,
      rejectUnauthorized: true,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/self[- ]signed|certificate/i);
  });

  it.runIf(!!lanAddress)(
    "with MQTT_HOST 0.0.0.0, machines on the network reach it at the host's address",
    async () => {
      const client = await connect(`mqtt://${lanAddress}:${new URL(ingest.url).port}`, login);
      await client.publishAsync(`${topic}/Line A/OP10`, record(`LAN-${run}`), { qos: 1 });
      expect(await stored(`LAN-${run}`)).toBe(1);
      const secure = await connect(`mqtts://${lanAddress}:${ingest.tlsPort}`, {
        ...login,
        ca,
        rejectUnauthorized: true,
      });
      await secure.publishAsync(`${topic}/Line A/OP10`, record(`LANTLS-${run}`), { qos: 1 });
      expect(await stored(`LANTLS-${run}`)).toBe(1);
    },
  );
});

describe("MQTT_HOST and MQTT_TLS_* settings", () => {
  it("keep the broker on loopback by default, and take the certificate and key only together", async () => {
    expect(loadConfig({}, []).mqttHost).toBe("127.0.0.1");
    expect(loadConfig({}, []).mqttTls).toBeUndefined();
    expect(() => loadConfig({ MQTT_TLS_CERT: "cert.pem" }, [])).toThrow(
      /MQTT_TLS_CERT and MQTT_TLS_KEY go together/,
    );
    const both = loadConfig(
      { MQTT_TLS_CERT: "/etc/lw/cert.pem", MQTT_TLS_KEY: "/etc/lw/key.pem" },
      [],
    ).mqttTls;
    expect(both).toEqual({ certFile: "/etc/lw/cert.pem", keyFile: "/etc/lw/key.pem", port: 8883 });
    expect(() => loadConfig({ MQTT_TLS_CERT: "a", MQTT_TLS_KEY: "b", MQTT_TLS_PORT: "x" }, [])).toThrow(
      /MQTT_TLS_PORT/,
    );
  });

  it("a taken TLS port stops the broker with a message naming MQTT_TLS_PORT", async () => {
    const port = await freePort();
    const holder = (await import("node:net")).createServer().listen(port, "127.0.0.1");
    await new Promise((r) => holder.once("listening", r));
    try {
      const pems = await generate([{ name: "commonName", value: "linewatch.test" }], { keySize: 2048 });
      const started = startIngest({
        db: t.database.db,
        partRecords: t.services.partRecords,
        mqttPort: 0,
        mqttTls: { cert: pems.cert, key: pems.private, port },
      });
      await expect(started).rejects.toThrow(/MQTT_TLS_PORT/);
    } finally {
      holder.close();
    }
  });
});
