import http from "node:http";
import { INGEST_FUTURE_TOLERANCE_MS, INGEST_MESSAGES } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  lines,
  modelNumbers,
  partAttributeValues,
  partRecords,
  signals,
  stations,
} from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let secret: string;

const record = (over: Record<string, unknown> = {}) => ({
  line: "Ingest Line",
  station: "OP20",
  partId: "SN-000123",
  modelNumber: "M-100",
  timestamp: "2026-11-22T10:15:03.120Z",
  op: 1,
  measurements: { Torque: 12.31, Angle: 45.1 },
  limits: { Torque: { lower: 11.0, upper: 13.5 } },
  results: { Result: "PASS" },
  attributes: { Shift: "A", "Material Lot": "L-77" },
  ...over,
});

const ingest = (body: unknown, token = secret) =>
  t.app.inject({
    method: "POST",
    url: "/api/ingest",
    headers: { authorization: `Bearer ${token}` },
    payload: body as object,
  });

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${a.plant.id}/ingest-tokens`,
    headers: a.adminHeaders,
    payload: { name: "Line PLC" },
  });
  expect(res.statusCode).toBe(201);
  secret = res.json().secret;
});
afterAll(() => closeTestApp(t));

describe("POST /api/ingest", () => {
  it("stores a record, creating its line, station and signals with the right types and associations", async () => {
    const res = await ingest([record()]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stored: 1, duplicates: 0, rejected: [] });
    const db = t.database.db;
    const [line] = await db.select().from(lines).where(eq(lines.name, "Ingest Line"));
    expect(line).toMatchObject({ plantId: a.plant.id, customerId: a.customer.id, isNewLine: true });
    expect(line?.lastIngestedTime?.toISOString()).toBe("2026-11-22T10:15:03.120Z");
    const sigs = await db
      .select({
        id: signals.id,
        name: signals.name,
        entityType: signals.entityType,
        up: signals.upperLimitSignalId,
        lo: signals.lowerLimitSignalId,
        res: signals.resultSignalId,
      })
      .from(signals)
      .innerJoin(stations, eq(stations.id, signals.stationId))
      .where(eq(stations.lineId, line?.id ?? ""));
    const byName = Object.fromEntries(sigs.map((s) => [s.name, s]));
    expect(byName.Torque?.entityType).toBe("MEASUREMENT");
    expect(byName["Torque Upper Limit"]?.entityType).toBe("UPPER_LIMIT");
    expect(byName["Torque Lower Limit"]?.entityType).toBe("LOWER_LIMIT");
    expect(byName.Result?.entityType).toBe("RESULT");
    expect(byName.Shift?.entityType).toBe("PART_ATTRIBUTE");
    expect(byName.Torque?.up).toBe(byName["Torque Upper Limit"]?.id);
    expect(byName.Torque?.lo).toBe(byName["Torque Lower Limit"]?.id);
    expect(byName.Torque?.res).toBe(byName.Result?.id);
    expect(byName.Angle?.res).toBe(byName.Result?.id);
    const models = await db
      .select()
      .from(modelNumbers)
      .where(eq(modelNumbers.lineId, line?.id ?? ""));
    expect(models.map((m) => m.value)).toEqual(["M-100"]);
    const attrs = await db
      .select()
      .from(partAttributeValues)
      .where(eq(partAttributeValues.signalId, byName.Shift?.id ?? ""));
    expect(attrs.map((x) => x.value)).toEqual(["A"]);
  });

  it("stores one compact row per record with values in the signals' slots", async () => {
    await ingest([record({ partId: "SN-slots", measurements: { Torque: 1.5, Angle: -2 } })]);
    const [row] = await t.database.db.select().from(partRecords).where(eq(partRecords.partId, "SN-slots"));
    const sigs = await t.database.db
      .select({ name: signals.name, slot: signals.slot, storage: signals.storage })
      .from(signals)
      .where(eq(signals.stationId, row?.stationId ?? ""));
    const slot = (n: string) => sigs.find((s) => s.name === n)?.slot ?? -1;
    expect(row?.numValues?.[slot("Torque")]).toBe(1.5);
    expect(row?.numValues?.[slot("Angle")]).toBe(-2);
    expect(row?.textValues?.[slot("Result")]).toBe("PASS");
  });

  it("stores a key once: a replay and a duplicate in the same batch change nothing", async () => {
    const r = record({ partId: "SN-replay" });
    expect((await ingest([r])).json()).toMatchObject({ stored: 1, duplicates: 0 });
    expect((await ingest([r, r])).json()).toMatchObject({ stored: 0, duplicates: 2 });
    const rows = await t.database.db.select().from(partRecords).where(eq(partRecords.partId, "SN-replay"));
    expect(rows).toHaveLength(1);
    // A retest (op 2) is another record.
    expect((await ingest([{ ...r, op: 2 }])).json()).toMatchObject({ stored: 1 });
  });

  it("rejects bad records with their reasons and stores the good ones around them", async () => {
    const res = await ingest([
      record({ partId: "SN-good-1" }),
      record({ partId: "SN-bad-time", timestamp: "yesterday" }),
      record({ partId: "SN-bad-value", measurements: { Torque: "high" } }),
      { partId: "SN-no-line", station: "OP20", timestamp: "2026-11-22T10:00:00Z" },
      record({ partId: "SN-extra", unexpected: 1 }),
      record({ partId: "SN-good-2" }),
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.stored).toBe(2);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4]);
    expect(body.rejected[0].reason).toMatch(/timestamp/);
    expect(body.rejected[1].reason).toMatch(/measurements\.Torque/);
    expect(body.rejected[2].reason).toMatch(/line is required/);
    expect(body.rejected[3].reason).toMatch(/unexpected/);
  });

  it("refuses a record dated more than 10 minutes ahead of the server's clock, so the line's last data and its monitors' newest record stay true", async () => {
    const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
    const line = "Clock Line";
    const res = await ingest([
      record({ line, partId: "SN-now", timestamp: inMinutes(0) }),
      // Ordinary drift passes.
      record({ line, partId: "SN-drift", timestamp: inMinutes(INGEST_FUTURE_TOLERANCE_MS / 60_000 - 2) }),
      record({ line, partId: "SN-hour", timestamp: inMinutes(60) }),
      record({ line, partId: "SN-2099", timestamp: "2099-01-01T00:00:00Z" }),
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.stored).toBe(2);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([2, 3]);
    expect(body.rejected[0].reason).toMatch(
      /^timestamp \S+ is 6\d minutes ahead of the server's clock; at most 10 minutes ahead is accepted/,
    );
    expect(body.rejected[1].reason).toMatch(/^timestamp 2099-01-01T00:00:00Z is [\d,]+ days ahead/);
    const [stored] = await t.database.db.select().from(lines).where(eq(lines.name, line));
    expect(stored?.lastIngestedTime?.getTime()).toBeLessThanOrEqual(Date.now() + INGEST_FUTURE_TOLERANCE_MS);
  });

  it("refuses a text value for a numeric signal", async () => {
    const res = await ingest([record({ partId: "SN-clash", results: { Torque: "PASS" }, measurements: {} })]);
    expect(res.json().rejected[0].reason).toMatch(/Torque.*holds numbers/);
  });

  it("answers 401 without a valid token, and a revoked token stops working", async () => {
    expect((await ingest([record()], "lwi_nope")).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/ingest", payload: [record()] })).statusCode).toBe(
      401,
    );
    // A session is not an ingest token.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/ingest",
          headers: a.adminHeaders,
          payload: [record()],
        })
      ).statusCode,
    ).toBe(401);
    const created = await t.app.inject({
      method: "POST",
      url: `/api/plants/${a.plant.id}/ingest-tokens`,
      headers: a.adminHeaders,
      payload: { name: "temp" },
    });
    const { token, secret: s2 } = created.json();
    expect((await ingest([record({ partId: "SN-t2" })], s2)).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "DELETE",
          url: `/api/ingest-tokens/${token.id}`,
          headers: a.adminHeaders,
        })
      ).statusCode,
    ).toBe(204);
    expect((await ingest([record({ partId: "SN-t3" })], s2)).statusCode).toBe(401);
  });

  it("answers 401 to a 32 MB body without a valid token while the client is still sending it", async () => {
    // A real socket: the client writes only as fast as the server reads (backpressure), so an
    // answer that comes before the last byte was handed over was given without reading the body.
    const url = new URL(await t.app.listen({ port: 0, host: "127.0.0.1" }));
    const total = 32_000_000;
    const spaces = Buffer.alloc(64 * 1024, 0x20);
    const result = await new Promise<{ status?: number; body: string; sentBeforeAnswer: number }>(
      (resolve, reject) => {
        let sent = 0;
        let answered = false;
        const req = http.request({
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: "/api/ingest",
          headers: {
            "content-type": "application/json",
            "content-length": String(total),
            authorization: "Bearer lwi_not-a-token",
          },
        });
        req.on("response", (res) => {
          answered = true;
          const sentBeforeAnswer = sent;
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            body += d;
          });
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode, body, sentBeforeAnswer });
          });
        });
        req.on("error", (err) => {
          if (!answered) reject(err);
        });
        // A valid JSON body: "[", spaces, "]".
        const pump = () => {
          while (!answered && sent < total) {
            const n = Math.min(spaces.length, total - sent);
            const part = Buffer.from(spaces.subarray(0, n));
            if (sent === 0) part[0] = 0x5b;
            if (sent + n === total) part[n - 1] = 0x5d;
            sent += n;
            if (!req.write(part)) return void req.once("drain", pump);
          }
          if (!answered) req.end();
        };
        pump();
      },
    );
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body)).toEqual({ message: INGEST_MESSAGES.invalidToken });
    expect(result.sentBeforeAnswer).toBeLessThan(total);
  });

  it("answers 400 to a body that is not a non-empty array of at most 10,000", async () => {
    expect((await ingest({ partId: "x" })).statusCode).toBe(400);
    expect((await ingest([])).statusCode).toBe(400);
    expect((await ingest(Array.from({ length: 10_001 }, () => ({})))).statusCode).toBe(400);
  });

  it("answers 400 to a body that is not JSON, empty, or poisons a prototype, as Fastify's own parser does", async () => {
    const raw = (payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/ingest",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        payload,
      });
    const notJson = "Body is not valid JSON but content-type is set to 'application/json'";
    for (const body of ["[", "[{}", "[{},]", "[{}] x", "{not json", '[{"partId":"a"}}']) {
      const res = await raw(body);
      expect([body, res.statusCode, res.json().message]).toEqual([body, 400, notJson]);
    }
    const empty = await raw("");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("Body cannot be empty when content-type is set to 'application/json'");
    for (const body of ['[{"__proto__":{"x":1}}]', '[{"constructor":{"prototype":{"x":1}}}]']) {
      const res = await raw(body);
      expect([body, res.statusCode]).toEqual([body, 400]);
    }
    // Spaces anywhere and strings holding the array's punctuation are read as JSON.
    const res = await raw(
      ` [ ${JSON.stringify(record({ partId: 'SN-[,]\\"' }))} ,\n ${JSON.stringify(record({ partId: "SN-2" }))} ] `,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ stored: 2, rejected: [] });
  });

  it("takes a batch of 10,000 records", async () => {
    const batch = Array.from({ length: 10_000 }, (_, i) =>
      record({ partId: `SN-big-${i}`, timestamp: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString() }),
    );
    const res = await ingest(batch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stored: 10_000, duplicates: 0, rejected: [] });
  });
});

describe("ingest tokens", () => {
  it("lists tokens without their secret, to administrators of the plant's customer only", async () => {
    const res = await t.app.inject({
      url: `/api/plants/${a.plant.id}/ingest-tokens`,
      headers: a.adminHeaders,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()[0]).not.toHaveProperty("secret");
    expect(JSON.stringify(res.json())).not.toContain(secret);
    expect(
      (await t.app.inject({ url: `/api/plants/${a.plant.id}/ingest-tokens`, headers: a.userHeaders }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/api/plants/${a.plant.id}/ingest-tokens`, headers: b.adminHeaders }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/api/plants/${a.plant.id}/ingest-tokens` })).statusCode).toBe(401);
    const tokenId = res.json()[0].id;
    expect(
      (
        await t.app.inject({
          method: "DELETE",
          url: `/api/ingest-tokens/${tokenId}`,
          headers: b.adminHeaders,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("validates the token name", async () => {
    const post = (payload: unknown) =>
      t.app.inject({
        method: "POST",
        url: `/api/plants/${a.plant.id}/ingest-tokens`,
        headers: a.adminHeaders,
        payload: payload as object,
      });
    expect((await post({ name: "" })).statusCode).toBe(400);
    expect((await post({ name: "x".repeat(101) })).statusCode).toBe(400);
    expect((await post({ name: "ok", extra: true })).statusCode).toBe(400);
  });
});
