// The embedded broker bounds packet sizes (issue 27 §3): before a client has authenticated, a
// packet announcing more than CONNECT_MAX_BYTES closes the connection before its body is read —
// an unauthenticated CONNECT of 250 MB used to be buffered whole — and after, a packet over
// MQTT_MAX_PACKET_BYTES does; an authenticated client still publishes large messages below it.
import { randomBytes } from "node:crypto";
import net from "node:net";
import { like, sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partRecords } from "../../src/db/schema/index.js";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { CONNECT_MAX_BYTES } from "../../src/ingest/packet-size.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logger.js";

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let ingest: Ingest;
let login: { username: string; password: string };
const log = capturingLogger();
const run = randomBytes(4).toString("hex");
const topic = `lwsize-${run}/Line/OP10`;
/** The largest packet of an authenticated client in this test (1 MiB). */
const MAX_PACKET = 1_048_576;

/** MQTT's remaining length: seven bits a byte, least significant first (§2.2.3). */
function remainingLength(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}

/**
 * A raw TCP client announcing one packet of `announced` bytes (fixed header `first`), then
 * sending its body as fast as the socket takes it, up to `upTo` bytes: how much it could write
 * before the broker closed the connection, or undefined when it was still open after `upTo`.
 */
async function sendAnnounced(first: number, announced: number, upTo: number): Promise<number | undefined> {
  const url = new URL(ingest.url);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let closed = false;
  socket.on("error", () => {}); // EPIPE / ECONNRESET once the broker has closed
  const isClosed = new Promise<void>((resolve) =>
    socket.once("close", () => {
      closed = true;
      resolve();
    }),
  );
  socket.write(Buffer.concat([Buffer.from([first]), remainingLength(announced)]));
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let written = 0;
  while (!closed && written < upTo) {
    written += chunk.length;
    if (!socket.write(chunk))
      await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), isClosed]);
  }
  if (closed) return written;
  socket.destroy();
  return undefined;
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/data-sources`,
    headers: tenant.adminHeaders,
    payload: { name: "Size test", topic: `lwsize-${run}/#` },
  });
  expect(res.statusCode, res.body).toBe(201);
  const pw = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/mqtt-credential/password`,
    headers: tenant.adminHeaders,
  });
  login = { username: pw.json().credential.username, password: pw.json().password };
  ingest = await startIngest({
    db: t.database.db,
    partRecords: t.services.partRecords,
    mqttPort: 0,
    maxPacketBytes: MAX_PACKET,
    logger: log.logger,
  });
});
afterAll(async () => {
  await ingest?.close();
  await closeTestApp(t);
});

describe("packet sizes on the embedded broker", () => {
  it("closes an unauthenticated connection whose CONNECT announces 250 MB before reading it", async () => {
    // The kernel's socket buffers take some megabytes before the client notices; the broker
    // itself stops at the header. Before the limit the whole 64 MiB went through.
    const written = await sendAnnounced(0x10, 250_000_000, 64 * 1_048_576);
    expect(written, "still connected after 64 MiB").toBeDefined();
    expect(written).toBeLessThan(32 * 1_048_576);
    expect(log.text()).toContain(`before it authenticated, more than ${CONNECT_MAX_BYTES}`);
  });

  it("closes an unauthenticated connection whose first packet, not a CONNECT, announces 250 MB", async () => {
    const written = await sendAnnounced(0x32, 250_000_000, 64 * 1_048_576);
    expect(written, "still connected after 64 MiB").toBeDefined();
    expect(written).toBeLessThan(32 * 1_048_576);
  });

  it(`takes a CONNECT of up to ${CONNECT_MAX_BYTES} bytes (a will message included) and closes a larger one`, async () => {
    /** Whether a client with a will message of this size gets its CONNACK or is closed. */
    const connectWithWill = async (willBytes: number) => {
      const client = mqtt.connect(ingest.url, {
        clientId: `lwsize-will-${run}-${willBytes}`,
        reconnectPeriod: 0,
        will: { topic, payload: Buffer.alloc(willBytes, 0x20), qos: 0, retain: false },
        ...login,
      });
      client.on("error", () => {});
      const outcome = await new Promise<string>((resolve) => {
        client.once("connect", () => resolve("connected"));
        client.once("close", () => resolve("closed"));
      });
      await client.endAsync(true);
      return outcome;
    };
    expect(await connectWithWill(CONNECT_MAX_BYTES - 1_000)).toBe("connected");
    expect(await connectWithWill(CONNECT_MAX_BYTES + 1_000)).toBe("closed");
  });

  it("lets an authenticated client publish a large message, and disconnects it for one over MQTT_MAX_PACKET_BYTES", async () => {
    const client = await mqtt.connectAsync(ingest.url, {
      clientId: `lwsize-${run}`,
      reconnectPeriod: 0,
      ...login,
    });
    // About 700 KB: far over what an unauthenticated client may send, under the 1 MiB limit.
    const records = Array.from({ length: 7_000 }, (_, i) => ({
      partId: `SIZE-${run}-${i}`,
      timestamp: new Date(Date.UTC(2026, 10, 22) + i * 1000).toISOString(),
      measurements: { Torque: i / 10 },
    }));
    const payload = JSON.stringify(records);
    expect(payload.length).toBeGreaterThan(CONNECT_MAX_BYTES);
    expect(payload.length).toBeLessThan(MAX_PACKET - 1_000);
    await client.publishAsync(topic, payload, { qos: 1 });
    const [row] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(partRecords)
      .where(like(partRecords.partId, `SIZE-${run}-%`));
    expect(row?.n).toBe(7_000);

    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.publish(topic, Buffer.alloc(MAX_PACKET + 1, 0x20), { qos: 1 });
    await closed;
    expect(log.text()).toContain(`more than MQTT_MAX_PACKET_BYTES (${MAX_PACKET})`);
    await client.endAsync(true);
  });
});
