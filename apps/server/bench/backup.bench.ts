// How long a backup of the embedded database takes and how large it is, for RECORDS part records
// (default 1,000,000; 10 measurements each): the copy (PgliteThread.snapshot, during which
// transactions wait), the whole `backup` (copy, gzip, read back and check) and a `restore`.
//
//   npm run bench:backup [-- RECORDS]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { backup } from "../src/cli/backup.js";
import { restore } from "../src/cli/restore.js";
import { openDatabase } from "../src/db/client.js";
import { stations } from "../src/db/schema/index.js";
import { createCustomer, createLine, createPlant } from "../test/factories.js";

const RECORDS = Number(process.argv[2] ?? 1_000_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rss = () => mb(process.memoryUsage().rss);

const root = mkdtempSync(path.join(tmpdir(), "lw-bench-backup-"));
const dataDir = path.join(root, "data");
try {
  const database = await openDatabase({ dataDir });
  const customer = await createCustomer(database.db);
  const plant = await createPlant(database.db, customer.id);
  const line = await createLine(database.db, customer.id, plant.id);
  const [station] = await database.db
    .insert(stations)
    .values({ customerId: customer.id, lineId: line.id, name: "OP10" })
    .returning();
  let t = Date.now();
  for (let from = 0; from < RECORDS; from += 100_000) {
    await database.db.execute(sql`
      insert into part_records (station_id, ts, part_id, num_values)
      select ${station?.id}, timestamptz '2026-01-01' + g * interval '1 second', 'P-' || g,
        array[g, g * 0.1, g * 0.2, g * 0.3, g * 0.4, g * 0.5, g * 0.6, g * 0.7, g * 0.8, random()]::float8[]
      from generate_series(${from + 1}::int, ${Math.min(from + 100_000, RECORDS)}::int) g`);
  }
  console.log(
    `${RECORDS.toLocaleString("en-US")} part records inserted in ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
  if (database.raw.kind !== "pglite") throw new Error("PGlite only");
  t = Date.now();
  const snap = await database.raw.client.snapshot(["select count(*)::int as n from part_records"]);
  console.log(
    `snapshot: ${Date.now() - t} ms in all, of which transactions waited for the CHECKPOINT ${snap.ms.checkpoint.toFixed(0)} ms, the count ${snap.ms.queries.toFixed(0)} ms, reading the files ${snap.ms.dump.toFixed(0)} ms; ${mb(snap.files.reduce((n, f) => n + (f.data?.length ?? 0), 0))} of files, rss ${rss()}`,
  );
  await database.close();

  t = Date.now();
  const taken = await backup({ out: path.join(root, "b.tar.gz"), dataDir });
  console.log(
    `npm run backup (stopped product: open, copy, gzip, read back, check): ${((Date.now() - t) / 1000).toFixed(1)} s, ${mb(taken.bytes)} file, database ${mb(taken.manifest.databaseBytes)}, rss ${rss()}`,
  );
  t = Date.now();
  const restored = await restore({ file: taken.file, dataDir: path.join(root, "restored") });
  console.log(
    `npm run restore: ${((Date.now() - t) / 1000).toFixed(1)} s, ${restored.partRecords.toLocaleString("en-US")} part records, rss ${rss()}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
