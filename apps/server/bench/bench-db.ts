import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client.js";

/**
 * The database a benchmark measures: a fresh PostgreSQL database of its own when DATABASE_URL is
 * set (dropped afterwards), else PGlite in a new temporary folder.
 */
export async function openBenchDatabase(poolSize = 8): Promise<{
  database: Database;
  url?: string;
  label: string;
  drop: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `lw_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize });
    return {
      database,
      url: u.toString(),
      label: `PostgreSQL (${u.host}, fresh database ${name})`,
      drop: async () => {
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "lw-bench-"));
  return { database: await openDatabase({ dataDir: dir }), label: `PGlite (${dir})`, drop: async () => {} };
}
