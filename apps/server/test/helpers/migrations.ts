// A database migrated only so far, for tests of a migration on an installation's existing data:
// a copy of the committed migrations folder ending at a given migration, and an empty database
// (PGlite in memory, or a new PostgreSQL database when DATABASE_URL is set) migrated by hand.
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Db } from "../../src/db/client.js";
import * as schema from "../../src/db/schema/index.js";

/** The committed migrations folder. */
export const MIGRATIONS = fileURLToPath(new URL("../../src/db/migrations", import.meta.url));

/** A copy of the migrations folder that ends at `lastTag` (a journal tag, e.g. "0013_plant_management"). */
export function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "lw-migrations-"));
  mkdirSync(path.join(dir, "meta"));
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const entries = journal.entries.slice(0, last + 1);
  for (const e of entries)
    copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return dir;
}

export type UnmigratedDatabase = {
  db: Db;
  kind: "pglite" | "postgres";
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
};

/** An empty database with no migration applied. */
export async function openUnmigrated(): Promise<UnmigratedDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const client = new PGlite();
    const db = drizzlePglite({ client, schema });
    return {
      db: db as unknown as Db,
      kind: "pglite",
      migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }),
      close: () => client.close(),
    };
  }
  const name = `lw_migrate_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: u.toString(), max: 2 });
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: "postgres",
    migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }),
    async close() {
      await pool.end();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * An empty database migrated up to `lastTag` (an installation of the version before a migration),
 * its closing and the folder's removal pushed onto `cleanup`.
 */
export async function openMigratedTo(
  lastTag: string,
  cleanup: (() => Promise<void> | void)[],
): Promise<UnmigratedDatabase> {
  const database = await openUnmigrated();
  cleanup.push(() => database.close());
  const before = migrationsUpTo(lastTag);
  cleanup.push(() => rmSync(before, { recursive: true, force: true }));
  await database.migrate(before);
  return database;
}
