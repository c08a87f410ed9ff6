import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";

describe("embedded database folder lock", () => {
  it("refuses a second process on the same folder, and takes over after a crash", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lw-lock-"));
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
