import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { createTestDataDir } from "../helpers/db.js";

describe("embedded database folder lock", () => {
  it("refuses a second process on the same folder, and takes over after a crash", async () => {
    // A folder holding the run's migrated template: the lock is the subject, not initdb and the
    // migrations of an empty folder (6–9 s of the test's 10 s).
    const dir = createTestDataDir("lw-lock-");
    // A live process holds it: the parent of this test runner stands in for it.
    writeFileSync(path.join(dir, "linewatch.pid"), String(process.ppid));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/is open in process \d+.*DATABASE_URL/);
    // The holder is gone (a pid no process has): the folder is taken over.
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"]).stdout.toString().trim();
    writeFileSync(path.join(dir, "linewatch.pid"), gone);
    const db = await openDatabase({ dataDir: dir });
    await db.close();
    // Closed cleanly: opening again works.
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });
});
