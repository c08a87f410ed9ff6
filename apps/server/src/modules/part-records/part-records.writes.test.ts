// Issue 30 §2: a part record passes once — its source resolved once, then modules/part-records
// stores it, its dead letter or its sample. This keeps it so: no file of the server outside this
// module writes those tables (the migrations under db/ aside), whether through Drizzle's
// insert / update / delete or in SQL text (INSERT, UPDATE, DELETE, COPY, TRUNCATE). The same
// holds for the per-line counts of stored records kept beside them (issue 31 §3): a writer of
// records that skipped them would leave the home overview short.
import { getTableName } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { scanServerWrites, tableWrites as writesOf } from "../../../test/helpers/table-writes.js";
import { dataSourceMessages, deadLetters, partRecordCounts, partRecords } from "../../db/schema/index.js";

const TABLES = { partRecords, partRecordCounts, deadLetters, dataSourceMessages };
const OWNER = "modules/part-records/";
const EXCEPTED = ["db/migrations/"];
const tableWrites = (text: string) => writesOf(text, TABLES);
const scanned = scanServerWrites(TABLES);

describe("part records, dead letters and samples are written in modules/part-records only", () => {
  it("no file outside modules/part-records writes them (migrations aside)", () => {
    const offenders = scanned
      .filter(({ file }) => !file.startsWith(OWNER) && !EXCEPTED.some((dir) => file.startsWith(dir)))
      .filter(({ writes }) => writes.length > 0)
      .map(({ file, writes }) => `${file}: ${writes.join("; ")}`);
    expect(offenders).toEqual([]);
  });

  it("finds the writes modules/part-records holds (the scan reads what it should)", () => {
    const found = scanned
      .filter(({ file }) => file.startsWith(OWNER) && !file.endsWith(".test.ts"))
      .flatMap(({ writes }) => writes)
      .join("\n");
    for (const [js, table] of Object.entries(TABLES))
      expect(found, `a write of ${getTableName(table)}`).toMatch(new RegExp(`${js}|${getTableName(table)}`));
  });

  it("recognises a write however it is spelled, and not a read", () => {
    const writes = [
      "await db\n  .insert(deadLetters)\n  .values(rows)",
      "tx.update(partRecords).set({ op: 2 })",
      "db.delete(schema.dataSourceMessages).where(x)",
      `sql\`insert into \${partRecords} (station_id) values (1)\``,
      `sql\`delete from \${dataSourceMessages} where 1 = 1\``,
      'sql.raw("INSERT INTO dead_letters (payload) VALUES (1)")',
      "UPDATE public.part_records SET op = 2",
      'copy "part_records" from stdin',
      `COPY \${deadLetters} FROM STDIN`,
      "truncate table data_source_messages",
      'import { deadLetters as dl } from "../db/schema/index.js";\nawait db.insert(dl).values(row);',
    ];
    for (const text of writes) expect(tableWrites(text), text).not.toEqual([]);
    const reads = [
      "db.select().from(deadLetters).where(eq(deadLetters.id, id))",
      "await opts.partRecords.ingest(target, records)",
      "select count(*) from part_records",
      "db.insert(partRecordsArchive).values(x)",
      "insert into part_records_archive select 1",
    ];
    for (const text of reads) expect(tableWrites(text), text).toEqual([]);
  });
});
