// Processes of any roles started at once on an empty PostgreSQL database all come up: the
// migrations run under an advisory lock (MIGRATION_LOCK_KEY), so the later processes wait and then
// find them applied. Without it two of three died on `23505 … pg_type_typname_nsp_index`.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "../../src/db/client.js";
import { freePort } from "../helpers/ingest-process.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const url = process.env.DATABASE_URL;
const migrationFiles = readdirSync(path.join(root, "apps/server/src/db/migrations")).filter((f) =>
  f.endsWith(".sql"),
).length;

if (!url)
  console.warn(
    "db.migrate-lock.test.ts skipped: it starts several processes on one PostgreSQL (DATABASE_URL)",
  );

const created: string[] = [];
async function emptyDatabase(): Promise<string> {
  const name = `lw_migrate_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  const u = new URL(url ?? "");
  u.pathname = `/${name}`;
  return u.toString();
}

async function appliedMigrations(db: Database): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
  );
  return row?.n ?? 0;
}

describe.skipIf(!url)("migrations on an empty PostgreSQL database, several processes at once", () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode == null) c.kill("SIGKILL");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it("three openings at once, ten times: every one succeeds and the migrations are applied once", {
    timeout: 120_000,
  }, async () => {
    for (let round = 0; round < 10; round++) {
      const databaseUrl = await emptyDatabase();
      const opened = await Promise.allSettled(
        [0, 1, 2].map(() => openDatabase({ databaseUrl, poolSize: 2 })),
      );
      const failures = opened.flatMap((o) => (o.status === "rejected" ? [String(o.reason)] : []));
      expect(failures, `round ${round}`).toEqual([]);
      const databases = opened.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
      expect(await appliedMigrations(databases[0] as Database)).toBe(migrationFiles);
      await Promise.all(databases.map((d) => d.close()));
    }
  });

  // Five rounds, not ten: each round starts three `node --import tsx` processes (about 12 s a round
  // on a busy 2-core machine, most of this file's time). Measured with the advisory lock taken out
  // of migratePostgres (2026-11-27): 4 of 6 rounds had one or two roles die, so five rounds miss
  // that regression with probability about (1/3)^5 = 0.4 % (ten: 0.002 %); the in-process test above
  // failed it in its first round in 3 of 3 runs, so together they still catch it every time.
  it("the api, worker and ingest roles started at once on an empty database all come up, five times", {
    timeout: 600_000,
  }, async () => {
    const upLine = {
      api: /ready in \d+ ms/,
      worker: /worker \S+ started/,
      ingest: /embedded MQTT broker on/,
    };
    for (let round = 0; round < 5; round++) {
      const databaseUrl = await emptyDatabase();
      const [port, mqttPort] = [await freePort(), await freePort()];
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DEMO: "false",
        LOG_LEVEL: "info",
        ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        PORT: String(port),
        HOST: "127.0.0.1",
        MQTT_PORT: String(mqttPort),
        MQTT_URL: "",
        // The worker and the ingest process would both take the default HEALTH_PORT: not this test's subject.
        HEALTH_PORT: "0",
        STATS_THREADS: "1",
      };
      const started: ChildProcess[] = [];
      const starts = (Object.keys(upLine) as (keyof typeof upLine)[]).map(
        (role) =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(
              process.execPath,
              ["--import", "tsx", path.join(root, "apps/server/src/main.ts"), "--role", role],
              { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
            );
            children.push(child);
            started.push(child);
            let out = "";
            const onData = (b: Buffer) => {
              out += b.toString();
              if (upLine[role].test(out)) resolve(role);
            };
            child.stdout?.on("data", onData);
            child.stderr?.on("data", onData);
            child.on("exit", (code) =>
              reject(new Error(`round ${round}: the ${role} process exited ${code}: ${out}`)),
            );
          }),
      );
      expect(await Promise.all(starts), `round ${round}`).toEqual(["api", "worker", "ingest"]);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status, `round ${round}`).toBe(200);
      // Stopped before the next round: the exit listeners above reject a settled promise, harmlessly.
      await Promise.all(
        started.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once("exit", () => resolve());
              c.kill("SIGKILL");
            }),
        ),
      );
    }
  });
});
