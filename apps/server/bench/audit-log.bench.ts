// npm run bench:audit — what the audit trail costs (issue 18 §2), on the real app in this process
// (test helpers: PGlite in memory, or a fresh PostgreSQL database when DATABASE_URL is set):
// 1. recording: an SPC limits save of 2,000 signals (one record each) against the same save
//    with nothing changed (no record), both through the route;
// 2. reading: with 100,000 records of the customer, GET /api/audit-log (first page, and one
//    filtered by user) and the export of the 50,000 newest.
// Prints the median of BENCH_RUNS (default 5) with the load average (the machine is shared).
import { loadavg } from "node:os";
import { AUDIT_EXPORT_MAX } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { signals, stations } from "../src/db/schema/index.js";
import { createTenant } from "../test/factories.js";
import { closeTestApp, createTestApp } from "../test/helpers/app.js";
import { loadAverage } from "./load.js";

const SIGNALS = 2_000;
const RECORDS = 100_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
async function time(label: string, run: (i: number) => Promise<void>) {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run(i);
    ms.push(performance.now() - t0);
  }
  console.log(`${label}: median ${median(ms).toFixed(0)} ms (load ${loadavg()[0]?.toFixed(1)})`);
}

console.log(`load average at start ${loadAverage()}`);
const t = await createTestApp();
try {
  const db = t.database.db;
  const tn = await createTenant(t.app, db);
  const [station] = await db
    .insert(stations)
    .values({ customerId: tn.customer.id, lineId: tn.line.id, name: "OP10" })
    .returning();
  if (!station) throw new Error("no station");
  const rows = await db
    .insert(signals)
    .values(
      Array.from({ length: SIGNALS }, (_, slot) => ({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        stationId: station.id,
        name: `S${String(slot).padStart(5, "0")}`,
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
    )
    .returning();
  const body = (ucl: number) =>
    rows.map((s) => ({
      lineUUID: tn.line.id,
      stationName: station.name,
      signalUUID: s.id,
      signalName: s.name,
      singleSide: null,
      limits: [
        { model_number: "*", lslFormula: null, lclFormula: "1", uclFormula: String(ucl), uslFormula: null },
      ],
    }));
  const save = async (ucl: number) => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/line-config/spc-signal-limits?line-id=${tn.line.id}`,
      headers: tn.adminHeaders,
      payload: body(ucl),
    });
    if (res.statusCode !== 200) throw new Error(`save: ${res.statusCode} ${res.body.slice(0, 200)}`);
  };
  await save(2);
  await time(`SPC limits save, ${SIGNALS} signals changed (${SIGNALS} records)`, (i) => save(3 + i));
  await time(`SPC limits save, ${SIGNALS} signals unchanged (no record)`, () => save(2 + RUNS));

  await db.execute(sql`
    insert into audit_log (customer_id, at, actor_user_id, actor_email, actor_is_provider_staff, resource, resource_id, resource_name, action, before, after)
    select ${tn.customer.id}, now() - g * interval '1 minute', ${tn.admin.id}, ${tn.admin.email}, false, 'line', g::text, 'Line ' || g, 'update',
      jsonb_build_object('friendlyName', 'A' || g), jsonb_build_object('friendlyName', 'B' || g)
    from generate_series(1, ${RECORDS}) g`);
  const get = async (url: string) => {
    const res = await t.app.inject({ method: "GET", url, headers: tn.adminHeaders });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  };
  console.log(`${RECORDS.toLocaleString("en-US")} records of the customer:`);
  await time("GET /api/audit-log (first page of 50, with the total)", () => get("/api/audit-log"));
  await time("GET /api/audit-log?userId=… (page 100)", () =>
    get(`/api/audit-log?userId=${tn.admin.id}&offset=5000`),
  );
  const from = new Date(Date.now() - AUDIT_EXPORT_MAX * 60_000).toISOString();
  await time(`GET /api/audit-log/export (the ${AUDIT_EXPORT_MAX.toLocaleString("en-US")} newest)`, () =>
    get(`/api/audit-log/export?resource=line&from=${from}`),
  );
} finally {
  await closeTestApp(t);
  console.log(`load average at end ${loadAverage()}`);
}
