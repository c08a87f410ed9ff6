// npm run bench:ingest — sustained ingest rate over MQTT (QoS 1) against the database in use
// (PostgreSQL when DATABASE_URL is set, PGlite otherwise), next to a plain COPY of the same rows
// into the same table, and the bytes on disk per stored measurement.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { from as copyFrom } from "pg-copy-streams";
import { type Database, rowsOf } from "../src/db/client.js";
import { customers, dataSources, ingestors, partRecords, plants, stations } from "../src/db/schema/index.js";
import { startIngest } from "../src/ingest/ingest.js";
import { createLogger } from "../src/lib/logger.js";
import { createServices } from "../src/services.js";
import { openBenchDatabase } from "./bench-db.js";
import { loadAverage } from "./load.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const RECORDS = Number(process.env.BENCH_RECORDS ?? 50_000);
const MEASUREMENTS_PER_RECORD = 40;
const TARGET = 100_000;
/**
 * Publisher pace in records/s; 0 = as fast as acknowledged. An external broker acknowledges the
 * publisher itself and drops what its per-client queue cannot hold (Mosquitto: 1,000 messages by
 * default), so pace the publisher there (BENCH_RATE) or raise the broker's max_queued_messages.
 */
const RATE = Number(process.env.BENCH_RATE ?? 0); // measurements/s (issue target, PostgreSQL on 2 cores)

const count = async (database: Database) => {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(partRecords);
  return row?.n ?? 0;
};

async function main() {
  const { database, label, drop } = await openBenchDatabase(8);
  const { db } = database;
  const services = createServices({ db, publicUrl: "http://localhost" });
  const [customer] = await db.insert(customers).values({ name: "Bench" }).returning();
  const [plant] = await db
    .insert(plants)
    .values({ customerId: customer?.id ?? "", name: "Bench Plant", timeZone: "UTC" })
    .returning();
  const [ingestor] = await db
    .insert(ingestors)
    .values({ customerId: customer?.id ?? "", plantId: plant?.id ?? "" })
    .returning();
  const topicRoot = `lwbench-${randomBytes(3).toString("hex")}`;
  await db.insert(dataSources).values({
    customerId: customer?.id ?? "",
    ingestorId: ingestor?.id ?? "",
    name: "bench",
    topic: `${topicRoot}/#`,
  });

  const loginEnv = (login: { username: string; password: string } | undefined) =>
    login ? { MQTT_USERNAME: login.username, MQTT_PASSWORD: login.password } : {};
  const ingest = await startIngest({
    db,
    partRecords: services.partRecords,
    mqttUrl: process.env.MQTT_URL || undefined,
    mqttPort: 0,
    logger: createLogger("warn").child({ role: "ingest" }),
  });
  console.log(`load average at start ${loadAverage()}`);
  console.log(`database: ${label}`);
  console.log(`broker:   ${ingest.embedded ? `embedded (${ingest.url})` : ingest.url}`);
  console.log(
    `records:  ${RECORDS} × ${MEASUREMENTS_PER_RECORD} measurements, QoS 1, publisher in its own process`,
  );

  // Warm-up: the first records create the line, stations and signals.
  // Publish everything from a separate process and watch the table fill.
  const started = Date.now();
  const publisher = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(here, "publisher.ts"),
      ingest.url,
      topicRoot,
      String(RECORDS),
      "4",
      String(RATE),
    ],
    {
      cwd: path.resolve(here, "../../.."),
      stdio: ["ignore", "pipe", "inherit"],
      // The embedded broker's login for the bench plant's topics (an external broker: MQTT_URL's user).
      env: { ...process.env, ...loginEnv(ingest.internalLogin([ingestor?.id ?? ""])) },
    },
  );
  let publisherDone = false;
  const publisherExit = new Promise<number | null>((r) =>
    publisher.once("exit", (code) => {
      publisherDone = true;
      r(code);
    }),
  );
  let publisherOut = "";
  publisher.stdout.on("data", (b: Buffer) => (publisherOut += b.toString()));
  const marks: { t: number; n: number }[] = [];
  for (;;) {
    const n = await count(database);
    marks.push({ t: Date.now(), n });
    if (process.env.BENCH_DEBUG && marks.length % 8 === 0) console.log(`  stored ${n}`);
    if (n >= RECORDS) break;
    if (Date.now() - started > 15 * 60_000)
      throw new Error(`only ${n} of ${RECORDS} stored after 15 minutes`);
    // Nothing more for 20 s after the publisher is done: the broker dropped the rest.
    const last = marks.find((m) => m.n === n);
    if (publisherDone && last && Date.now() - last.t > 20_000) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await publisherExit;
  const acked = JSON.parse(publisherOut.trim() || "{}").acked as number | undefined;
  // Sustained: from 10 % to 100 % stored (leaves out connection set-up and signal creation).
  const from = marks.find((m) => m.n >= RECORDS * 0.1) ?? marks[0];
  const to = marks[marks.length - 1];
  if (!from || !to) throw new Error("no progress marks");
  const sustained = ((to.n - from.n) * MEASUREMENTS_PER_RECORD) / ((to.t - from.t) / 1000);
  const wall = (RECORDS * MEASUREMENTS_PER_RECORD) / ((to.t - started) / 1000);
  const stored = await count(database);
  const [{ bytes } = { bytes: 0 }] = rowsOf<{ bytes: number }>(
    await db.execute(sql`select pg_total_relation_size('part_records')::float8 as bytes`),
  );
  await ingest.close();

  // Reference: COPY of the same rows (same shape, same primary key index) into the same table.
  const [station] = await db
    .insert(stations)
    .values({
      customerId: customer?.id ?? "",
      lineId: rowsOf<{ id: string }>(await db.execute(sql`select id from lines limit 1`))[0]?.id ?? "",
      name: "COPY reference",
    })
    .returning();
  const base = Date.UTC(2026, 0, 1);
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const values = Array.from({ length: MEASUREMENTS_PER_RECORD }, (_, j) => 10 + j + Math.sin(i + j));
    lines.push(
      `${station?.id}\t${new Date(base + i * 10).toISOString()}\tP-${i}\t1\tM-100\t{${values.join(",")}}\t\\N\n`,
    );
  }
  const text = lines.join("");
  const copySql =
    "COPY part_records (station_id, ts, part_id, op, model_number, num_values, text_values) FROM STDIN";
  const c0 = Date.now();
  if (database.raw.kind === "postgres") {
    const client = await database.raw.pool.connect();
    try {
      await pipeline(Readable.from([text]), client.query(copyFrom(copySql)));
    } finally {
      client.release();
    }
  } else {
    await database.raw.client.query(copySql.replace("STDIN", "'/dev/blob'"), [], { blob: new Blob([text]) });
  }
  const copyRate = (RECORDS * MEASUREMENTS_PER_RECORD) / ((Date.now() - c0) / 1000);

  const lost = RECORDS - stored;
  console.log("");
  console.log(`acknowledged by the broker: ${acked ?? "?"} of ${RECORDS}; stored: ${stored} (lost: ${lost})`);
  console.log(
    `sustained ingest:  ${Math.round(sustained).toLocaleString("en")} measurements/s (${Math.round(sustained / MEASUREMENTS_PER_RECORD).toLocaleString("en")} records/s)`,
  );
  console.log(
    `wall clock:        ${Math.round(wall).toLocaleString("en")} measurements/s including start-up`,
  );
  console.log(`COPY reference:    ${Math.round(copyRate).toLocaleString("en")} measurements/s`);
  console.log(`ratio to COPY:     ${(sustained / copyRate).toFixed(2)}`);
  console.log(
    `ratio to target:   ${(sustained / TARGET).toFixed(2)} (target ${TARGET.toLocaleString("en")} measurements/s on PostgreSQL)`,
  );
  console.log(
    `on disk:           ${(bytes / (stored * MEASUREMENTS_PER_RECORD)).toFixed(2)} bytes per measurement incl. indexes (target ≤ 16)`,
  );
  console.log(`load average at end ${loadAverage()}`);
  await database.close();
  await drop();
  process.exit(lost === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
