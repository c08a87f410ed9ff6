// npm run bench:retention — what the data retention run (issue 31 §2; docs/decisions/0301-retention-per-customer.md)
// costs on a plant's worth of rows, half of them past the customer's horizons: PGlite in a new
// temporary folder, or a fresh PostgreSQL database when DATABASE_URL is set.
// 1. The run: rows removed, batches, the slowest batch (the longest any delete held its locks;
//    issue 31 allows 100 ms), the months dropped whole and the slowest DROP (the time part_records'
//    exclusive lock was held), and the whole run's time. A third of the records is a month wholly
//    past the horizon (docs/decisions/0305-part-records-partitioned-by-month.md).
// 2. Meanwhile a writer inserts one part record every 20 ms on another station, as ingest would:
//    its slowest insert says how long the run kept a writer waiting.
// 3. Space: part_records' heap (all its partitions) before, after the run and VACUUM (PGlite: the run's own; PostgreSQL:
//    asked for, as autovacuum would), and after as many records again.
// Settings: BENCH_RECORDS (default 200,000 part records, 20 values each), BENCH_EVALUATIONS
// (20,000, ~2 kB of details each), BENCH_ALERTS (2,000 resolved, 5 events, 1 notification and 2
// attempts each), BENCH_AUDIT (20,000 records).
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf } from "../src/db/client.js";
import { maintainPartitions } from "../src/db/partitions.js";
import {
  alertEvents,
  alerts,
  auditLog,
  evaluations,
  notificationAttempts,
  notificationOutbox,
  retentionSettings,
  stations,
} from "../src/db/schema/index.js";
import {
  createPartRecordsRepo,
  type PartRecordJsonRow,
} from "../src/modules/part-records/part-records.repo.js";
import { runRetention } from "../src/modules/retention/retention.service.js";
import { createCustomer, createLine, createMonitorRow, createPlant } from "../test/factories.js";
import { openBenchDatabase } from "./bench-db.js";
import { loadAverage } from "./load.js";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000);
const EVALUATIONS = Number(process.env.BENCH_EVALUATIONS ?? 20_000);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 2_000);
const AUDIT = Number(process.env.BENCH_AUDIT ?? 20_000);
const STATIONS = 10;
const MONITORS = 50;
const NOW = new Date();
const DAY = 86_400_000;
const HORIZON = { partRecordsDays: 30, evaluationsDays: 30, resolvedAlertsDays: 30, auditLogDays: 365 };

console.log(`load average at start ${loadAverage()}`);
const bench = await openBenchDatabase();
const { database } = bench;
const db = database.db;
console.log(`database: ${bench.label}`);
try {
  const customer = await createCustomer(db);
  const plant = await createPlant(db, customer.id);
  const line = await createLine(db, customer.id, plant.id);
  await db.insert(retentionSettings).values({ customerId: customer.id, ...HORIZON });
  const stationIds: string[] = [];
  for (let i = 0; i <= STATIONS; i++) {
    const [s] = await db
      .insert(stations)
      .values({ customerId: customer.id, lineId: line.id, name: `OP${i}` })
      .returning();
    if (!s) throw new Error("no station");
    stationIds.push(s.id);
  }
  const writerStation = stationIds.pop() as string;

  // Records: per station, one a minute; the older half 31 to ~100 days old, the newer half younger.
  const t0 = performance.now();
  const repo = createPartRecordsRepo(db);
  const perStation = Math.floor(RECORDS / STATIONS);
  const recordRows = (stationId: string, newest: number, n: number, from = 0): PartRecordJsonRow[] =>
    Array.from({ length: n }, (_, i) => ({
      station_id: stationId,
      ts: new Date(newest - (from + i) * 60_000).toISOString(),
      part_id: `P${from + i}`,
      op: 1,
      model_number: "M1",
      num_values: Array.from({ length: 20 }, (_, k) => Math.round(Math.random() * 1e4) / 100 + k),
      text_values: ["OK"],
    }));
  const seedRecords = async (newest: number) => {
    for (const s of stationIds)
      for (let i = 0; i < perStation; i += 5_000)
        await repo.insertRecordsFromJson(recordRows(s, newest, Math.min(5_000, perStation - i), i));
  };
  // A month wholly past the horizon (60 to ~74 days old): retention drops its partition whole.
  await seedRecords(NOW.getTime() - 60 * DAY);
  await seedRecords(NOW.getTime() - 31 * DAY); // past the horizon
  await seedRecords(NOW.getTime() - 60_000); // within it (after the old ones: the table's tail)
  // The months' partitions, as the worker's housekeeping makes them (the seed went to the default one).
  const made = await maintainPartitions(db, NOW);
  console.log(
    `partitions: ${made.created.join(", ")} (${made.moved} rows moved out of the default partitions)`,
  );

  // Evaluations: per monitor, one every 15 minutes, half past the horizon; ~2 kB of details each.
  const monitorIds: string[] = [];
  for (let m = 0; m < MONITORS; m++) monitorIds.push((await createMonitorRow(db, line)).id);
  const perMonitor = Math.floor(EVALUATIONS / MONITORS);
  for (const monitorId of monitorIds) {
    const rows = Array.from({ length: perMonitor }, (_, i) => {
      const slot = new Date(NOW.getTime() - (i < perMonitor / 2 ? 31 * DAY : 0) - i * 900_000);
      return {
        customerId: customer.id,
        monitorId,
        slot,
        evaluatedAt: slot,
        state: (i % 50 === 0 ? "BREACH" : "OK") as "BREACH" | "OK",
        score: Math.random(),
        threshold: 1,
        details: { pad: randomBytes(1_000).toString("hex") },
      };
    });
    for (let i = 0; i < rows.length; i += 500) await db.insert(evaluations).values(rows.slice(i, i + 500));
  }

  // Resolved alerts: half resolved 31 to 60 days ago (past the horizon), half last week.
  for (let i = 0; i < ALERTS; i += 200) {
    const batch = await db
      .insert(alerts)
      .values(
        Array.from({ length: Math.min(200, ALERTS - i) }, (_, k) => {
          const resolvedAt = new Date(NOW.getTime() - ((i + k) % 2 === 0 ? 31 * DAY : 7 * DAY) - k * 60_000);
          return {
            customerId: customer.id,
            lineId: line.id,
            kind: "no_data" as const,
            state: "RESOLVED" as const,
            openedAt: new Date(resolvedAt.getTime() - DAY),
            lastSeenAt: resolvedAt,
            resolvedAt,
            rule: "no_data",
          };
        }),
      )
      .returning({ id: alerts.id, at: alerts.openedAt });
    await db.insert(alertEvents).values(
      batch.flatMap((a) =>
        Array.from({ length: 5 }, () => ({
          alertId: a.id,
          at: a.at,
          kind: "COMMENTED" as const,
          comment: "x",
        })),
      ),
    );
    const outbox = await db
      .insert(notificationOutbox)
      .values(
        batch.map((a) => ({
          customerId: customer.id,
          alertId: a.id,
          channel: "teams" as const,
          state: "DELIVERED" as const,
        })),
      )
      .returning({ id: notificationOutbox.id });
    await db
      .insert(notificationAttempts)
      .values(outbox.flatMap((o) => [{ outboxId: o.id }, { outboxId: o.id }]));
  }

  // Audit records: one an hour back over ~2 years and 3 months.
  for (let i = 0; i < AUDIT; i += 1_000)
    await db.insert(auditLog).values(
      Array.from({ length: Math.min(1_000, AUDIT - i) }, (_, k) => ({
        customerId: customer.id,
        at: new Date(NOW.getTime() - (i + k) * 3_600_000),
        actorUserId: null,
        actorEmail: "admin@example.test",
        actorIsProviderStaff: false,
        resource: "line" as const,
        resourceId: randomUUID(),
        resourceName: "Line",
        action: "update" as const,
      })),
    );
  await db.execute(sql`analyze`);
  console.log(
    `seeded ${RECORDS * 3} part records, ${perMonitor * MONITORS} evaluations, ${ALERTS} resolved alerts, ${AUDIT} audit records in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  const heap = async () =>
    Number(
      rowsOf<{ n: string }>(
        await db.execute(
          sql`select coalesce(sum(pg_relation_size(inhrelid)), 0)::text as n from pg_inherits where inhparent = 'part_records'::regclass`,
        ),
      )[0]?.n,
    );
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  const before = await heap();

  // The writer: one record every 20 ms on a station of its own, each insert timed.
  let writing = true;
  const waits: number[] = [];
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const t = performance.now();
      await repo.insertRecordsFromJson(recordRows(writerStation, Date.now(), 1, i));
      waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  const t1 = performance.now();
  const counts = await runRetention(db, NOW, { vacuum: database.kind === "pglite" });
  const runMs = performance.now() - t1;
  writing = false;
  await writer;
  waits.sort((a, b) => a - b);
  console.log(`run: ${(runMs / 1000).toFixed(1)} s, ${JSON.stringify(counts)}`);
  console.log(
    `partitions dropped whole ${counts.partitionsDropped}, slowest DROP ${counts.slowestDropMs} ms; slowest batch ${counts.slowestBatchMs} ms of ${counts.batches}; writer's inserts meanwhile: ${waits.length}, p50 ${waits[Math.floor(waits.length / 2)]?.toFixed(1)} ms, p99 ${waits[Math.floor(waits.length * 0.99)]?.toFixed(1)} ms, max ${waits.at(-1)?.toFixed(1)} ms`,
  );

  if (database.kind === "postgres") await db.execute(sql`vacuum part_records`);
  const vacuumed = await heap();
  await seedRecords(NOW.getTime() - 60 * 60_000 + 1_000); // as many records again, within the horizon
  const refilled = await heap();
  console.log(
    `part_records heap: ${mb(before)} full, ${mb(vacuumed)} after the run and VACUUM, ${mb(refilled)} after ${RECORDS} new records`,
  );

  // The steady state: an hour later, an hour of rows has passed the horizons (a record a minute per
  // station, an evaluation every 15 minutes per monitor); the next hourly run.
  const hourLater = new Date(NOW.getTime() + 3_600_000);
  for (const st of stationIds)
    await repo.insertRecordsFromJson(recordRows(st, hourLater.getTime() - 30 * DAY - 30_000, 60, 0));
  for (const monitorId of monitorIds)
    await db.insert(evaluations).values(
      Array.from({ length: 4 }, (_, i) => {
        const slot = new Date(hourLater.getTime() - 30 * DAY - 60_000 - i * 900_000);
        return {
          customerId: customer.id,
          monitorId,
          slot,
          evaluatedAt: slot,
          state: "OK" as const,
          details: { pad: randomBytes(1_000).toString("hex") },
        };
      }),
    );
  writing = true;
  waits.length = 0;
  const steadyWriter = (async () => {
    for (let i = 0; writing; i++) {
      const t = performance.now();
      await repo.insertRecordsFromJson(recordRows(writerStation, Date.now() + 86_400_000, 1, i));
      waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t2 = performance.now();
  const steady = await runRetention(db, hourLater, { vacuum: database.kind === "pglite" });
  const steadyMs = performance.now() - t2;
  writing = false;
  await steadyWriter;
  waits.sort((a, b) => a - b);
  console.log(`the next hour's run: ${(steadyMs / 1000).toFixed(2)} s, ${JSON.stringify(steady)}`);
  console.log(`writer's inserts meanwhile: ${waits.length}, max ${waits.at(-1)?.toFixed(1)} ms`);
} finally {
  await database.close();
  await bench.drop();
  console.log(`load average at end ${loadAverage()}`);
}
