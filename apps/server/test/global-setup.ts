// Once per test run, for the service tests on PGlite: a database with every migration applied,
// dumped to a tarball that each test file's database starts from (helpers/db.ts). PGlite's
// initdb costs seconds a database (8–10 s of CPU on a busy 2-core machine, against about 3 s from
// the dump), and the suite opens one or more a file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite template's tarball, or "" on PostgreSQL (DATABASE_URL). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("pgliteTemplate", "");
    return;
  }
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
