// Once per test run: a database with every migration applied that each test file's database starts
// from (helpers/db.ts). On PGlite a tarball of it: PGlite's initdb costs seconds a database (8–10 s
// of CPU on a busy 2-core machine, against about 3 s from the dump), and the suite opens one or more
// a file. On PostgreSQL (DATABASE_URL) a template database: CREATE DATABASE … TEMPLATE copies it in
// about a tenth of the 0.5–0.6 s that migrating a new database took (quiet machine).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite template's tarball, or "" on PostgreSQL (DATABASE_URL). */
    pgliteTemplate: string;
    /** On PostgreSQL (DATABASE_URL), the migrated template database's name; "" on PGlite. */
    postgresTemplate: string;
  }
}

async function adminQuery(url: string, statement: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    project.provide("pgliteTemplate", "");
    const name = `lw_template_${randomBytes(6).toString("hex")}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    // Migrated, then closed: PostgreSQL copies a template only while nobody is connected to it.
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 1 });
    await database.close();
    project.provide("postgresTemplate", name);
    return () => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  project.provide("postgresTemplate", "");
  const dir = mkdtempSync(path.join(tmpdir(), "linewatch-template-"));
  const file = path.join(dir, "migrated.tar");
  const database = await openDatabase({ memory: true });
  try {
    if (database.raw.kind !== "pglite") throw new Error("the template needs PGlite");
    writeFileSync(file, await database.raw.client.dumpDataDir());
  } finally {
    await database.close();
  }
  project.provide("pgliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
