import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";

/**
 * A fresh database for one test file: PGlite in memory, started from the run's migrated template
 * (global-setup.ts), or — when DATABASE_URL is set — a new PostgreSQL database of its own, copied
 * from the run's migrated template database and dropped afterwards, so runs cannot disturb each other.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const template = inject("pgliteTemplate");
    return openDatabase({ memory: true, ...(template ? { template } : {}) });
  }
  const name = `lw_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const template = inject("postgresTemplate");
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 4 });
  return {
    ...database,
    url: u.toString(),
    async close() {
      await database.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * A new folder for PGlite (DATA_DIR) holding the run's migrated template (global-setup.ts), so the
 * process that opens it first skips initdb; an empty folder when there is no template.
 */
export function createTestDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const template = inject("pgliteTemplate");
  // PGlite's tarball names its members from the root ("/base/…"): tar strips the slash and
  // extracts them under the folder.
  if (template) execFileSync("tar", ["-xf", template, "-C", dir], { stdio: "ignore" });
  return dir;
}
