import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import {
  CSV_BATCH_SIZE,
  CSV_MESSAGES,
  SERVER_MESSAGES,
  ZCsvUploadProgress,
  ZCsvUploadResult,
} from "@linewatch/contracts";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { lines, partRecords, stations } from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// Issue 32 §4: a running CSV upload shows rows read and stored, and Cancel stops it.
let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

type Headers = Record<string, string>;
const base = (plantId: string, uploadId: string) => `/api/plants/${plantId}/part-records/csv/${uploadId}`;
/** `null` headers: no session. */
const progress = (uploadId: string, headers: Headers | null = a.adminHeaders, plantId = a.plant.id) =>
  t.app.inject({ method: "GET", url: `${base(plantId, uploadId)}/progress`, headers: headers ?? {} });
const cancel = (uploadId: string, headers: Headers | null = a.adminHeaders, plantId = a.plant.id) =>
  t.app.inject({ method: "POST", url: `${base(plantId, uploadId)}/cancel`, headers: headers ?? {} });

const HEADER = "line,station,partId,timestamp,Torque\n";
const rows = (line: string, from: number, n: number) =>
  Array.from(
    { length: n },
    (_, k) =>
      `${line},OP10,U-${from + k},${new Date(Date.UTC(2026, 10, 1) + (from + k) * 1000).toISOString()},1.5\n`,
  ).join("");

/**
 * Sends a step of the file. csv-parse ends a row only once a few more bytes follow its line end (to
 * rule out a longer delimiter, \r\n): three blank lines (skipped) after each step let it finish the
 * step's last row, as the next step's bytes would.
 */
const feed = (body: PassThrough, text: string) => body.write(`${text}\n\n\n`);

/** Starts an upload whose body the test writes step by step; the answer comes once it ends. */
function startUpload(uploadId: string) {
  const body = new PassThrough();
  const answer = t.app.inject({
    method: "POST",
    url: `/api/plants/${a.plant.id}/part-records/csv?upload=${uploadId}`,
    headers: { "content-type": "text/csv", ...a.adminHeaders },
    payload: body,
  });
  return { body, answer };
}

/** Waits until the upload's progress satisfies `ready` (polls the endpoint; no fixed sleep). */
async function progressWhen(
  uploadId: string,
  ready: (p: ReturnType<typeof ZCsvUploadProgress.parse>) => boolean,
) {
  return vi.waitFor(
    async () => {
      const res = await progress(uploadId);
      expect(res.statusCode, res.body).toBe(200);
      const p = ZCsvUploadProgress.parse(res.json());
      expect(ready(p), JSON.stringify(p)).toBe(true);
      return p;
    },
    { timeout: 30_000, interval: 20 },
  );
}

async function storedPartIds(line: string) {
  const found = await t.database.db
    .select({ partId: partRecords.partId })
    .from(partRecords)
    .innerJoin(stations, eq(stations.id, partRecords.stationId))
    .innerJoin(lines, eq(lines.id, stations.lineId))
    .where(and(eq(lines.plantId, a.plant.id), inArray(lines.name, [line])));
  return new Set(found.map((r) => r.partId));
}

describe("CSV upload progress and Cancel", { timeout: 120_000 }, () => {
  it("reports rows read and stored while the upload runs, and 404 once it has ended", async () => {
    const line = `Progress ${randomUUID().slice(0, 6)}`;
    const uploadId = randomUUID();
    const { body, answer } = startUpload(uploadId);
    const first = CSV_BATCH_SIZE + 10;
    feed(body, HEADER + rows(line, 0, first));
    // The first batch is stored, the 10 rows after it are read and wait for the next batch.
    const mid = await progressWhen(uploadId, (p) => p.rowsRead === first && p.stored === CSV_BATCH_SIZE);
    expect(mid).toEqual({
      rowsRead: first,
      stored: CSV_BATCH_SIZE,
      duplicates: 0,
      rejected: 0,
      isRunning: true,
    });

    feed(body, `${line},OP10,U-bad,yesterday,1\n`);
    await progressWhen(uploadId, (p) => p.rowsRead === first + 1 && p.rejected === 1);

    body.end(rows(line, first, 5));
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    expect(ZCsvUploadResult.parse(res.json())).toMatchObject({
      rows: first + 6,
      stored: first + 5,
      cancelledAfterLine: null,
      error: null,
    });
    const after = await progress(uploadId);
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual({ message: CSV_MESSAGES.uploadNotFound });
  });

  it("Cancel stops reading: the rows read before it are stored and stay, the rest is not read", async () => {
    const line = `Cancel ${randomUUID().slice(0, 6)}`;
    const uploadId = randomUUID();
    const { body, answer } = startUpload(uploadId);
    const first = CSV_BATCH_SIZE + 500;
    feed(body, HEADER + rows(line, 0, first));
    await progressWhen(uploadId, (p) => p.rowsRead === first && p.stored === CSV_BATCH_SIZE);

    // The same id cannot start a second upload while the first runs.
    const twice = startUpload(uploadId);
    twice.body.end(HEADER);
    const refused = await twice.answer;
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: CSV_MESSAGES.uploadIdTaken });

    const cancelled = await cancel(uploadId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(ZCsvUploadProgress.parse(cancelled.json())).toMatchObject({ isRunning: false });

    // Rows sent after Cancel are not read.
    body.end(rows(line, first, 300));
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    const result = ZCsvUploadResult.parse(res.json());
    // The batch in hand (the 500 rows read after the first batch) is stored too: line 1 is the header.
    expect(result).toEqual({
      stored: first,
      duplicates: 0,
      rows: first,
      rejected: [],
      rejectedMore: 0,
      error: null,
      cancelledAfterLine: first + 1,
    });
    const stored = await storedPartIds(line);
    expect(stored.size).toBe(first);
    expect(stored.has("U-0")).toBe(true);
    expect(stored.has(`U-${first - 1}`)).toBe(true);
    expect(stored.has(`U-${first}`)).toBe(false);
    expect((await cancel(uploadId)).statusCode).toBe(404);
  });

  it("answers 401 without a session, 403 to a plain user and 404 to another customer, and keeps running", async () => {
    const line = `Access ${randomUUID().slice(0, 6)}`;
    const uploadId = randomUUID();
    const { body, answer } = startUpload(uploadId);
    feed(body, HEADER + rows(line, 0, 3));
    await progressWhen(uploadId, (p) => p.rowsRead === 3);

    for (const call of [progress, cancel]) {
      const anon = await call(uploadId, null);
      expect(anon.statusCode).toBe(401);
      expect(anon.json().message).toBe(SERVER_MESSAGES.unauthorized);
      expect((await call(uploadId, a.userHeaders)).statusCode).toBe(403);
      // Another customer's admin, by our plant or theirs: no such upload.
      for (const plantId of [a.plant.id, b.plant.id]) {
        const other = await call(uploadId, b.adminHeaders, plantId);
        expect(other.statusCode).toBe(404);
        expect(other.json()).toEqual({ message: CSV_MESSAGES.uploadNotFound });
      }
      expect((await call(randomUUID())).statusCode).toBe(404);
      expect((await call("not-a-uuid")).statusCode).toBe(400);
    }
    // None of that cancelled it.
    expect(ZCsvUploadProgress.parse((await progress(uploadId)).json()).isRunning).toBe(true);
    body.end(rows(line, 3, 2));
    const res = await answer;
    expect(ZCsvUploadResult.parse(res.json())).toMatchObject({ stored: 5, cancelledAfterLine: null });
  });

  it("refuses an upload id that is not a uuid", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${a.plant.id}/part-records/csv?upload=123`,
      headers: { "content-type": "text/csv", ...a.adminHeaders },
      payload: HEADER,
    });
    expect(res.statusCode).toBe(400);
  });
});
