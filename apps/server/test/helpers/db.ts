import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";

/**
 * A fresh database for one test file: PGlite in memory, started from the run's migrated template
 * (global-setup.ts), or — when DATABASE_URL is set — a new PostgreSQL database of its own, dropped
 * afterwards, so runs cannot disturb each other.
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
  await admin.query(`CREATE DATABASE ${name}`);
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
