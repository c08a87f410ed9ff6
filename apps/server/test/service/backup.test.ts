// Backups of the embedded database (issue 28 §6): the snapshot waits for a gap between
// transactions, the running server's endpoint answers only its token, and restore refuses what it
// must (a running product, a folder in use without --force, a damaged file) without touching
// anything.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { backup } from "../../src/cli/backup.js";
import { restore } from "../../src/cli/restore.js";
import { BackupError, ENDPOINT_FILE, verifyBackup } from "../../src/db/backup.js";
import { startBackupEndpoint } from "../../src/db/backup-endpoint.js";
import { openDatabase } from "../../src/db/client.js";
import { type PgliteThread, SnapshotBusyError } from "../../src/db/pglite-thread.js";
import { customers } from "../../src/db/schema/index.js";
import { KEY_FILE } from "../../src/lib/crypto.js";
import { createCustomer } from "../factories.js";
import { createTestDatabase, createTestDataDir } from "../helpers/db.js";
import { capturingLogger } from "../helpers/logger.js";
import { eventually } from "../helpers/mqtt.js";

const usePostgres = !!process.env.DATABASE_URL;
const tmp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

/** A stopped product's data folder with one customer in it, and a backup of it. */
async function folderWithBackup() {
  const dataDir = createTestDataDir("lw-bk-src-");
  const db = await openDatabase({ dataDir });
  await createCustomer(db.db, { name: "Backed Up" });
  await db.close();
  writeFileSync(path.join(dataDir, KEY_FILE), "a-key\n", { mode: 0o600 });
  const file = path.join(tmp("lw-bk-file-"), "b.tar.gz");
  const taken = await backup({ out: file, dataDir });
  return { dataDir, file, taken };
}

describe.skipIf(usePostgres)("backups of the embedded database", () => {
  // One stopped product's folder and its backup, read (never changed) by the tests below.
  let source: Awaited<ReturnType<typeof folderWithBackup>>;
  beforeAll(async () => {
    source = await folderWithBackup();
  });
  let holder: ChildProcess | undefined;
  afterEach(() => {
    holder?.kill("SIGKILL");
    holder = undefined;
  });

  it("takes the snapshot between transactions: an open one ends first, a later one waits", async () => {
    const database = await createTestDatabase();
    const client = database.raw.kind === "pglite" ? database.raw.client : (undefined as never);
    try {
      await client.exec("create table bk_gap (n int)");
      const events: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let isInside = false;
      const open = client.transaction(async (tx) => {
        await tx.query("insert into bk_gap values (1)");
        isInside = true;
        await held;
        events.push("open transaction commits");
      });
      await eventually(async () => isInside);
      const snapshot = client.snapshot(["select count(*)::int as n from bk_gap"]).then((s) => {
        events.push("snapshot");
        return s;
      });
      const later = client.transaction(async (tx) => {
        events.push("later transaction");
        await tx.query("insert into bk_gap values (2)");
      });
      release();
      const [, taken] = await Promise.all([open, snapshot, later]);
      expect(events).toEqual(["open transaction commits", "snapshot", "later transaction"]);
      // The copy holds the committed row and not the later one.
      expect(taken.rows[0]).toEqual([{ n: 1 }]);
    } finally {
      await database.close();
    }
  });

  it("gives up on a transaction that stays open, and lifts its gate for the waiting ones", async () => {
    const database = await createTestDatabase();
    const client = database.raw.kind === "pglite" ? database.raw.client : (undefined as never);
    try {
      await client.exec("create table bk_stuck (n int)");
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let isInside = false;
      const stuck = client.transaction(async (tx) => {
        await tx.query("insert into bk_stuck values (1)");
        isInside = true;
        await held;
      });
      await eventually(async () => isInside);
      const snapshot = client.snapshot([], { waitMs: 200 });
      let laterDone = false;
      const later = client.transaction(async (tx) => {
        await tx.query("insert into bk_stuck values (2)");
      });
      void later.then(() => {
        laterDone = true;
      });
      await expect(snapshot).rejects.toBeInstanceOf(SnapshotBusyError);
      // The gate is gone: the transaction that queued behind it runs once the stuck one ends (the
      // embedded database runs one transaction at a time), not after another snapshot.
      expect(laterDone).toBe(false);
      release();
      await stuck;
      await eventually(async () => laterDone);
    } finally {
      await database.close();
    }
  });

  it("the running server's endpoint answers only its token, on loopback", async () => {
    const dataDir = tmp("lw-bk-endpoint-");
    const database = await createTestDatabase();
    const client = (database.raw as { client: PgliteThread }).client;
    const endpoint = await startBackupEndpoint({
      dataDir,
      client,
      keySource: "file",
      logger: capturingLogger().logger,
    });
    try {
      const file = path.join(dataDir, ENDPOINT_FILE);
      // Only the server's user reads the token.
      expect(readFileSync(file).length).toBeGreaterThan(0);
      expect(statSync(file).mode & 0o077).toBe(0);
      const { url, token } = JSON.parse(readFileSync(file, "utf8")) as { url: string; token: string };
      expect(new URL(url).hostname).toBe("127.0.0.1");
      expect((await fetch(url, { method: "POST" })).status).toBe(401);
      expect((await fetch(url, { method: "POST", headers: { authorization: "Bearer nope" } })).status).toBe(
        401,
      );
      const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const { manifest } = await verifyBackup(new Uint8Array(await res.arrayBuffer()));
      expect(manifest.counts.migrations).toBeGreaterThan(0);
    } finally {
      await endpoint.close();
      await database.close();
    }
    expect(existsSync(path.join(dataDir, ENDPOINT_FILE))).toBe(false);
  });

  it("backs up a stopped product's folder and restores it with its key", async () => {
    const { file, taken } = source;
    expect(taken.takenBy).toBe("this process");
    expect(taken.manifest.counts.customers).toBeGreaterThanOrEqual(1);
    const target = path.join(tmp("lw-bk-new-"), "data");
    const restored = await restore({ file, dataDir: target });
    expect(restored.movedAside).toBeUndefined();
    expect(readFileSync(path.join(target, KEY_FILE), "utf8")).toBe("a-key\n");
    // Neither the old lock nor the old endpoint came along.
    expect(existsSync(path.join(target, "linewatch.pid"))).toBe(false);
    expect(existsSync(path.join(target, ENDPOINT_FILE))).toBe(false);
    const db = await openDatabase({ dataDir: target });
    try {
      const rows = await db.db.select({ name: customers.name }).from(customers);
      expect(rows.map((r) => r.name)).toContain("Backed Up");
    } finally {
      await db.close();
    }
  });

  it("leaves the key out with --without-key", async () => {
    const { dataDir } = source;
    const file = path.join(tmp("lw-bk-nokey-"), "b.tar.gz");
    const taken = await backup({ out: file, dataDir, includeKey: false });
    expect(taken.manifest.encryptionKey).toBe("left out");
    const target = path.join(tmp("lw-bk-nokey-r-"), "data");
    await restore({ file, dataDir: target });
    expect(existsSync(path.join(target, KEY_FILE))).toBe(false);
  });

  it("refuses to restore while the product runs on the folder", async () => {
    const { file } = source;
    const dataDir = createTestDataDir("lw-bk-held-");
    // A live process holds the folder (as the server's lock says).
    holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    writeFileSync(path.join(dataDir, "linewatch.pid"), String(holder.pid));
    const before = readdirSync(dataDir).sort();
    await expect(restore({ file, dataDir, force: true })).rejects.toThrow(/running.*stop it/);
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  it("refuses a folder that holds something without --force, and moves it aside with it", async () => {
    const { file } = source;
    const dataDir = path.join(tmp("lw-bk-occupied-"), "data");
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, "something"), "keep me");
    await expect(restore({ file, dataDir })).rejects.toThrow(/not empty.*--force.*Nothing was changed/);
    expect(readdirSync(dataDir)).toEqual(["something"]);
    const restored = await restore({ file, dataDir, force: true });
    expect(restored.movedAside).toBeDefined();
    expect(readFileSync(path.join(restored.movedAside ?? "", "something"), "utf8")).toBe("keep me");
    expect(existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
  });

  it.each([
    ["not gzip", () => Buffer.from("not a backup")],
    ["cut short", (good: Buffer) => good.subarray(0, Math.floor(good.length / 2))],
    ["gzip of something else", () => gzipSync(Buffer.alloc(4096, 7))],
  ])("refuses a damaged file (%s) before touching the folder", async (_name, damage) => {
    const { file } = source;
    const bad = path.join(tmp("lw-bk-bad-"), "bad.tar.gz");
    writeFileSync(bad, damage(readFileSync(file)));
    const dataDir = path.join(tmp("lw-bk-bad-target-"), "data");
    await expect(restore({ file: bad, dataDir, force: true })).rejects.toThrow(
      /not a usable Linewatch backup.*Nothing was changed/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it("refuses a backup whose database does not match its checksum", async () => {
    const { file } = source;
    const archive = gunzipSync(readFileSync(file));
    // A byte inside pgdata.tar (after the manifest's blocks), flipped.
    const at = 512 * 3 + 4096;
    archive[at] = (archive[at] ?? 0) ^ 0xff;
    const bad = path.join(tmp("lw-bk-flip-"), "bad.tar.gz");
    writeFileSync(bad, gzipSync(archive));
    await expect(restore({ file: bad, dataDir: path.join(tmp("lw-bk-flip-t-"), "d") })).rejects.toThrow(
      /checksum/,
    );
  });

  it("points to pg_dump and pg_restore on PostgreSQL", async () => {
    await expect(backup({ out: "x", dataDir: "d", databaseUrl: "postgres://h/db" })).rejects.toThrow(
      BackupError,
    );
    await expect(backup({ out: "x", dataDir: "d", databaseUrl: "postgres://h/db" })).rejects.toThrow(
      /pg_dump/,
    );
    await expect(restore({ file: "x", dataDir: "d", databaseUrl: "postgres://h/db" })).rejects.toThrow(
      /pg_restore/,
    );
  });

  it("never opens a folder whose server's endpoint file is there but does not answer", async () => {
    // A server in another container (another pid namespace) or one killed: the endpoint file stays.
    const dataDir = createTestDataDir("lw-bk-stale-");
    const db = await openDatabase({ dataDir });
    await db.close();
    writeFileSync(
      path.join(dataDir, ENDPOINT_FILE),
      JSON.stringify({ pid: 999_999_999, url: "http://127.0.0.1:9/backup", token: "x" }),
      { mode: 0o600 },
    );
    const out = path.join(tmp("lw-bk-stale-o-"), "b.tar.gz");
    await expect(backup({ out, dataDir })).rejects.toThrow(
      new RegExp(`does not answer[\\s\\S]*delete ${ENDPOINT_FILE}`),
    );
    // Nothing opened it: no lock was taken, no file written.
    expect(existsSync(path.join(dataDir, "linewatch.pid"))).toBe(false);
    expect(readdirSync(path.dirname(out))).toEqual([]);
  });

  it("says there is no database in a folder without one", async () => {
    await expect(
      backup({ out: path.join(tmp("lw-bk-o-"), "b"), dataDir: tmp("lw-bk-empty-") }),
    ).rejects.toThrow(/no embedded database/);
  });
});

describe("backup and restore command lines", () => {
  const root = fileURLToPath(new URL("../../../..", import.meta.url));
  const run = (script: "backup" | "restore", args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", `apps/server/src/cli/${script}.ts`, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: "/nonexistent/linewatch-backup", ...env },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("answer usage, missing arguments and PostgreSQL with a message and exit code 1", async () => {
    const [help, noOut, noFile, postgres] = await Promise.all([
      run("backup", ["--help"]),
      run("backup", []),
      run("restore", []),
      run("restore", ["x.tar.gz"], { DATABASE_URL: "postgres://db.example/linewatch" }),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: npm run backup -- --out FILE");
    expect(noOut.code).toBe(1);
    expect(noOut.stderr).toContain("--out FILE is required");
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain("give one backup FILE");
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain("pg_restore");
  }, 180_000);
});
