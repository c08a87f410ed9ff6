// Issue 28 §6: a backup taken while the product ingests holds every record acknowledged before
// the backup began. The product runs as a child process on PGlite in a folder; a publisher sends
// QoS 1 messages without pause; `npm run backup` runs as an operator would run it (a process of
// its own); the product stops; `npm run restore` brings the backup into a new folder; the product
// starts there, takes a new record with the restored login, and every acknowledged part is there.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { partRecords } from "../../src/db/schema/index.js";
import {
  createDataSourceRow,
  exited,
  freePort,
  sharedDatabase,
  startIngestProcess,
} from "../helpers/ingest-process.js";
import { eventually } from "../helpers/mqtt.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const usePostgres = !!process.env.DATABASE_URL;

/** Runs one of the CLI scripts as `npm run <name>` would, and answers its exit code and output. */
function runCli(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", `apps/server/src/cli/${script}.ts`, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (out += b.toString()));
  return exited(child).then((code) => ({ code, out }));
}

describe.skipIf(usePostgres)("npm run backup while the product ingests", () => {
  let child: ChildProcess | undefined;
  let publisher: mqtt.MqttClient | undefined;
  afterEach(async () => {
    child?.kill("SIGKILL");
    await publisher?.endAsync(true);
  });

  it("restores into a new folder every record acknowledged before the backup began", {
    timeout: 300_000,
  }, async () => {
    const shared = await sharedDatabase();
    const run = randomBytes(4).toString("hex");
    const topicRoot = `lwbackup-${run}`;
    const db = await shared.open();
    const { login } = await createDataSourceRow(db, `${topicRoot}/#`);
    await db.close();

    const port = await freePort();
    child = (await startIngestProcess({ ...shared.env, MQTT_PORT: String(port) })).child;
    publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: `lwbackup-pub-${run}`,
      reconnectPeriod: 0,
      ...login,
    });

    // Publish without pause, ten messages in flight, until told to stop.
    const acknowledged = new Set<string>();
    let isPublishing = true;
    let sent = 0;
    const publishing = (async () => {
      while (isPublishing) {
        const batch = Array.from({ length: 10 }, () => {
          const i = sent++;
          const partId = `B-${i}`;
          const body = JSON.stringify({
            line: "Backup Line",
            station: "OP10",
            partId,
            timestamp: new Date(Date.UTC(2026, 10, 22) + i * 1000).toISOString(),
            measurements: { Torque: i / 10 },
          });
          return (publisher as mqtt.MqttClient)
            .publishAsync(`${topicRoot}/line/op`, body, { qos: 1 })
            .then(() => void acknowledged.add(partId));
        });
        await Promise.all(batch);
      }
    })();

    await eventually(async () => acknowledged.size >= 200, 60_000);
    const beforeBackup = [...acknowledged];
    const out = path.join(mkdtempSync(path.join(tmpdir(), "lw-backup-file-")), "linewatch.tar.gz");
    const backup = await runCli("backup", ["--out", out], { DATA_DIR: shared.env.DATA_DIR ?? "" });
    expect(backup.out).toMatch(/taken by the running server/);
    expect(backup.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    // The server went on ingesting during and after the backup.
    const afterBackup = acknowledged.size;
    await eventually(async () => acknowledged.size >= afterBackup + 100, 60_000);
    isPublishing = false;
    await publishing;
    await publisher.endAsync();
    publisher = undefined;
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
    child = undefined;

    const restoredDir = path.join(mkdtempSync(path.join(tmpdir(), "lw-restored-")), "data");
    const restored = await runCli("restore", [out, "--data-dir", restoredDir], {});
    expect(restored.out).toMatch(/Restored the backup/);
    expect(restored.code).toBe(0);

    // The product starts on the restored folder, and the restored plant login still publishes.
    const port2 = await freePort();
    child = (await startIngestProcess({ DATA_DIR: restoredDir, MQTT_PORT: String(port2) })).child;
    publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${port2}`, {
      clientId: `lwbackup-pub2-${run}`,
      reconnectPeriod: 0,
      ...login,
    });
    await publisher.publishAsync(
      `${topicRoot}/line/op`,
      JSON.stringify({
        line: "Backup Line",
        station: "OP10",
        partId: "AFTER-RESTORE",
        timestamp: new Date(Date.UTC(2026, 10, 23)).toISOString(),
        measurements: { Torque: 1 },
      }),
      { qos: 1 },
    );
    await publisher.endAsync();
    publisher = undefined;
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
    child = undefined;

    const check = await openDatabase({ dataDir: restoredDir });
    try {
      const stored = new Set(
        (
          await check.db
            .select({ partId: partRecords.partId })
            .from(partRecords)
            .where(sql`${partRecords.partId} like 'B-%' or ${partRecords.partId} = 'AFTER-RESTORE'`)
        ).map((r) => r.partId),
      );
      const missing = beforeBackup.filter((p) => !stored.has(p));
      expect(missing).toEqual([]);
      expect(stored.has("AFTER-RESTORE")).toBe(true);
      // Nothing was invented: whatever else is there was published.
      expect(stored.size).toBeLessThanOrEqual(sent + 1);
    } finally {
      await check.close();
    }
  });
});
