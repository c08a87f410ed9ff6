import { Readable } from "node:stream";
import { CSV_MESSAGES } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartRecordsCsv } from "../../src/modules/part-records/part-records.csv.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

const ctx = () => ({ customerId: a.customer.id, userId: a.admin.id, isAdministrator: true }) as never;
const rows = (n: number, from = 0) =>
  Array.from(
    { length: n },
    (_, i) => `L,S,P-${from + i},${new Date(Date.UTC(2026, 10, 22) + i * 1000).toISOString()},1\n`,
  );

describe("CSV import service", () => {
  it("reads a body that arrives in chunks split mid-row", async () => {
    const csv = `line,station,partId,timestamp,Torque\n${rows(50).join("")}`;
    const chunks = csv.match(/[\s\S]{1,7}/g) ?? [];
    const csvImport = createPartRecordsCsv({
      partRecords: t.services.partRecords,
      plants: t.services.plants,
      uploads: t.services.csvUploads,
    });
    const result = await csvImport.importCsv(
      ctx(),
      a.plant.id,
      Readable.from(chunks.map((c) => Buffer.from(c))),
    );
    expect(result).toMatchObject({ stored: 50, rows: 50, rejected: [], error: null });
  });

  it("stops at the size limit: the rows read before it are stored and the answer says where it stopped", async () => {
    const header = "line,station,partId,timestamp,Torque\n";
    const body = rows(3000, 1000);
    const csvImport = createPartRecordsCsv({
      partRecords: t.services.partRecords,
      plants: t.services.plants,
      uploads: t.services.csvUploads,
    });
    const result = await csvImport.importCsv(
      ctx(),
      a.plant.id,
      Readable.from([header, ...body].map((c) => Buffer.from(c))),
      { maxBytes: 60_000 },
    );
    expect(result.error).toMatch(
      new RegExp(`^${CSV_MESSAGES.tooLarge}: rows after line \\d+ were not read$`),
    );
    const line = Number(/line (\d+)/.exec(result.error ?? "")?.[1]);
    expect(result.stored).toBe(line - 1);
    expect(result.stored).toBeGreaterThan(0);
    expect(result.stored).toBeLessThan(3000);
  });
});
