import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client.js";

/**
 * A new, empty PostgreSQL database beside the one `url` names (same server and user), for a
 * benchmark that must not disturb or be disturbed by anything else; `drop` removes it.
 */
export async function createScratchPostgresDatabase(
  url: string,
  prefix = "lw_bench",
): Promise<{ name: string; url: string; label: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    name,
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
    const scratch = await createScratchPostgresDatabase(url);
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize });
    return { database, url: scratch.url, label: scratch.label, drop: scratch.drop };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "lw-bench-"));
  return { database: await openDatabase({ dataDir: dir }), label: `PGlite (${dir})`, drop: async () => {} };
}
