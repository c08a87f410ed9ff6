import { randomUUID } from "node:crypto";
import { CSV_MESSAGES, CSV_REJECTED_MAX, ZCsvUploadResult } from "@linewatch/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, partRecords, signals, stations } from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

const url = (plantId: string, query = "") => `/api/plants/${plantId}/part-records/csv${query}`;
const upload = (csv: string | Buffer, opts: { plantId?: string; query?: string; headers?: object } = {}) =>
  t.app.inject({
    method: "POST",
    url: url(opts.plantId ?? a.plant.id, opts.query),
    headers: { "content-type": "text/csv", ...a.adminHeaders, ...opts.headers },
    payload: csv,
  });

/** The signals of a station of tenant a's plant, by name. */
async function signalsAt(lineName: string, stationName: string) {
  const rows = await t.database.db
    .select({ name: signals.name, entityType: signals.entityType, upper: signals.upperLimitSignalId })
    .from(signals)
    .innerJoin(stations, eq(stations.id, signals.stationId))
    .innerJoin(lines, eq(lines.id, stations.lineId))
    .where(and(eq(lines.plantId, a.plant.id), eq(lines.name, lineName), eq(stations.name, stationName)));
  return Object.fromEntries(rows.map((r) => [r.name, r]));
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

describe("POST /api/plants/:plantId/part-records/csv", () => {
  it("answers 401 without a session and 403 to a plain user, before reading the file", async () => {
    const csv = "partId,timestamp\nP1,2026-11-22T10:00:00Z\n";
    const anon = await t.app.inject({
      method: "POST",
      url: url(a.plant.id),
      headers: { "content-type": "text/csv" },
      payload: csv,
    });
    expect(anon.statusCode).toBe(401);
    const user = await upload(csv, { headers: a.userHeaders });
    expect(user.statusCode).toBe(403);
  });

  it("answers 404 for another customer's plant and stores nothing", async () => {
    const res = await upload("line,station,partId,timestamp\nL,S,P-404,2026-11-22T10:00:00Z\n", {
      headers: b.adminHeaders,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Plant not found" });
    const rows = await t.database.db.select().from(partRecords).where(eq(partRecords.partId, "P-404"));
    expect(rows).toHaveLength(0);
  });

  it("stores measurements, limits, results and attributes, and lists a rejected row with its line", async () => {
    const line = `CSV Line ${randomUUID().slice(0, 6)}`;
    const csv = [
      "line,station,partId,modelNumber,timestamp,op,Torque,lower:Torque,upper:Torque,result:Result,attr:Shift,Angle",
      `${line},OP20,SN-1,M-100,2026-11-22T10:15:03.120Z,1,12.31,11,13.5,PASS,A,45.1`,
      `${line},OP20,SN-2,M-100,2026-11-22T10:16:03Z,,12.5,11,13.5,FAIL,B,`,
      `${line},OP20,SN-3,M-100,2026-11-22T10:17:03Z,1,high,11,13.5,PASS,A,1`,
      "",
      `${line},OP20,SN-4,M-200,2026-11-22 10:18:03Z,2,12.1,,,PASS,"Shift ""A"", north",2`,
      `${line},OP20,SN-5,,yesterday,1,12,,,,,`,
    ].join("\n");
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = ZCsvUploadResult.parse(res.json());
    expect(body).toMatchObject({ stored: 3, duplicates: 0, rows: 5, rejectedMore: 0, error: null });
    expect(body.rejected).toEqual([
      { row: 4, reason: CSV_MESSAGES.notANumber("Torque", "high") },
      { row: 7, reason: expect.stringMatching(/^timestamp: "yesterday" is not an ISO 8601 date-time/) },
    ]);

    const sigs = await signalsAt(line, "OP20");
    expect(sigs.Torque?.entityType).toBe("MEASUREMENT");
    expect(sigs.Angle?.entityType).toBe("MEASUREMENT");
    expect(sigs["Torque Upper Limit"]?.entityType).toBe("UPPER_LIMIT");
    expect(sigs["Torque Lower Limit"]?.entityType).toBe("LOWER_LIMIT");
    expect(sigs.Result?.entityType).toBe("RESULT");
    expect(sigs.Shift?.entityType).toBe("PART_ATTRIBUTE");
    const stored = await t.database.db
      .select({ partId: partRecords.partId, op: partRecords.op, text: partRecords.textValues })
      .from(partRecords)
      .innerJoin(stations, eq(stations.id, partRecords.stationId))
      .innerJoin(lines, eq(lines.id, stations.lineId))
      .where(eq(lines.name, line));
    expect(stored.map((r) => `${r.partId}/${r.op}`).sort()).toEqual(["SN-1/1", "SN-2/1", "SN-4/2"]);
    // A quoted cell keeps its commas and doubled quotes.
    expect(stored.find((r) => r.partId === "SN-4")?.text).toContain('Shift "A", north');

    // The same file again: everything is a duplicate, nothing is stored twice.
    const again = ZCsvUploadResult.parse((await upload(csv)).json());
    expect(again).toMatchObject({ stored: 0, duplicates: 3 });
  });

  it("takes Line and Station from the query when the file has no such columns", async () => {
    const line = `Default Line ${randomUUID().slice(0, 6)}`;
    const query = `?line=${encodeURIComponent(line)}&station=OP90`;
    const res = await upload("\uFEFFPartId,Timestamp,Torque\r\nD-1,2026-11-22T10:00:00Z,1.5\r\n", { query });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ stored: 1, rejected: [] });
    expect(Object.keys(await signalsAt(line, "OP90"))).toEqual(["Torque"]);
  });

  it("answers 400 for a header that cannot make records, before storing anything", async () => {
    const cases: [string, string][] = [
      ["line,station,timestamp,Torque\nL,S,2026-11-22T10:00:00Z,1\n", CSV_MESSAGES.missingColumn("partId")],
      ["line,station,partId,Torque\nL,S,H-1,1\n", CSV_MESSAGES.missingColumn("timestamp")],
      ["station,partId,timestamp\nS,H-2,2026-11-22T10:00:00Z\n", CSV_MESSAGES.missingLine],
      ["line,partId,timestamp\nL,H-3,2026-11-22T10:00:00Z\n", CSV_MESSAGES.missingStation],
      [
        "line,station,partId,timestamp,,Torque\nL,S,H-4,2026-11-22T10:00:00Z,,1\n",
        CSV_MESSAGES.unnamedColumn(5),
      ],
      ["line,station,partId,timestamp,Torque,Torque\n", CSV_MESSAGES.duplicateColumn("Torque")],
      ["line,station,partId,timestamp,result:\n", CSV_MESSAGES.unnamedSignal("result:")],
      ["line;station;partId;timestamp\n", CSV_MESSAGES.notCommaSeparated],
      ["", CSV_MESSAGES.empty],
    ];
    for (const [csv, message] of cases) {
      const res = await upload(csv);
      expect(res.statusCode, csv).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    const broken = await upload('line,"station\nL,S\n');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^The header row could not be read/);
    const rows = await t.database.db.select().from(partRecords).where(eq(partRecords.partId, "H-1"));
    expect(rows).toHaveLength(0);
  });

  it("answers 400 for bad Line/Station query values and for a body that is not text/csv", async () => {
    const csv = "partId,timestamp\nQ-1,2026-11-22T10:00:00Z\n";
    expect((await upload(csv, { query: "?line=" })).statusCode).toBe(400);
    expect((await upload(csv, { query: "?lines=L" })).statusCode).toBe(400);
    expect((await upload(csv, { plantId: "not-a-uuid" })).statusCode).toBe(400);
    const json = await t.app.inject({
      method: "POST",
      url: url(a.plant.id),
      headers: a.adminHeaders,
      payload: { partId: "x" },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ message: CSV_MESSAGES.noBody });
  });

  it("rejects rows with too many cells and reports a file cut short by an open quote", async () => {
    const line = `Cut Line ${randomUUID().slice(0, 6)}`;
    const csv = [
      "line,station,partId,timestamp,Torque",
      `${line},S,C-1,2026-11-22T10:00:00Z,1`,
      `${line},S,C-2,2026-11-22T10:01:00Z,1,extra`,
      `${line},S,C-3,2026-11-22T10:02:00Z,1,`,
      `${line},S,"C-4,2026-11-22T10:03:00Z,1`,
      `${line},S,C-5,2026-11-22T10:04:00Z,1`,
    ].join("\n");
    const body = ZCsvUploadResult.parse((await upload(csv)).json());
    expect(body.stored).toBe(2);
    expect(body.rejected).toEqual([{ row: 3, reason: CSV_MESSAGES.cellCount(6, 5) }]);
    expect(body.error).toMatch(/^The file could not be read past line 4 \(Quote Not Closed/);
  });

  it(`lists at most ${CSV_REJECTED_MAX} rejected rows and counts the rest`, async () => {
    const bad = Array.from({ length: CSV_REJECTED_MAX + 5 }, (_, i) => `L,S,R-${i},not a time`);
    const body = ZCsvUploadResult.parse(
      (await upload(["line,station,partId,timestamp", ...bad].join("\n"))).json(),
    );
    expect(body.rows).toBe(CSV_REJECTED_MAX + 5);
    expect(body.rejected).toHaveLength(CSV_REJECTED_MAX);
    expect(body.rejected[0]?.row).toBe(2);
    expect(body.rejectedMore).toBe(5);
  });

  it("streams a file of several batches (larger than the JSON body limit) into the store", async () => {
    const line = `Big Line ${randomUUID().slice(0, 6)}`;
    const n = 12_000;
    const start = Date.UTC(2026, 10, 1);
    const rows = Array.from(
      { length: n },
      (_, i) =>
        `${line},OP10,B-${i},M-1,${new Date(start + i * 1000).toISOString()},1,${(i % 97) / 7},10,20,PASS,Shift ${i % 3},${"x".repeat(60)}`,
    );
    const csv = [
      "line,station,partId,modelNumber,timestamp,op,Torque,lower:Torque,upper:Torque,result:Result,attr:Shift,attr:Note",
      ...rows,
    ].join("\n");
    expect(Buffer.byteLength(csv)).toBeGreaterThan(1_048_576);
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      stored: n,
      duplicates: 0,
      rows: n,
      rejected: [],
      rejectedMore: 0,
      error: null,
      cancelledAfterLine: null,
    });
  });

  it("answers 413 for a declared size over 50 MB without storing anything", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: url(a.plant.id),
      headers: { "content-type": "text/csv", "content-length": String(51 * 1_048_576), ...a.adminHeaders },
      payload: "line,station,partId,timestamp\nL,S,Z-1,2026-11-22T10:00:00Z\n",
    });
    expect(res.statusCode).toBe(413);
  });
});
