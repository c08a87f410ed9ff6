import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type Database, openDatabase, rowsOf } from "../../src/db/client.js";
import { dataSources, mqttCredentials } from "../../src/db/schema/index.js";
import { hashToken } from "../../src/lib/tokens.js";
import { createCustomer, createPlant } from "../factories.js";
import { createTestDatabase, createTestDataDir } from "./db.js";

// Tests that run main.ts as a child process with the ingest role (kill -9, SIGTERM).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const usePostgres = !!process.env.DATABASE_URL;
const TEST_KEY = randomBytes(32).toString("base64");

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

export type SharedDatabase = {
  /** PostgreSQL: the child shares the database while the test holds it open. */
  postgres: boolean;
  env: Record<string, string>;
  open: () => Promise<Database>;
  drop: () => Promise<void>;
};

/** A database the child process can open too: PostgreSQL, or PGlite in a folder (one process at a time). */
export async function sharedDatabase(): Promise<SharedDatabase> {
  if (usePostgres) {
    const d = await createTestDatabase();
    return { postgres: true, env: { DATABASE_URL: d.url ?? "" }, open: async () => d, drop: () => d.close() };
  }
  const dir = createTestDataDir("lw-ingest-");
  return {
    postgres: false,
    env: { DATA_DIR: dir, DATABASE_URL: "" },
    open: () => openDatabase({ dataDir: dir }),
    drop: async () => {},
  };
}

/**
 * A customer, a plant, its MQTT login and one data source on `topic`, written straight into the
 * database (the login is set on the Data Sources page in real life).
 */
export async function createDataSourceRow(db: Database, topic: string) {
  const customer = await createCustomer(db.db);
  const plant = await createPlant(db.db, customer.id);
  const [ingestor] = rowsOf<{ id: string }>(
    await db.db.execute(sql`select id from ingestors where plant_id = ${plant.id}`),
  );
  await db.db.insert(dataSources).values({
    customerId: customer.id,
    ingestorId: ingestor?.id ?? "",
    name: "test source",
    topic,
  });
  const password = `lwm_${randomBytes(32).toString("base64url")}`;
  await db.db.insert(mqttCredentials).values({
    ingestorId: ingestor?.id ?? "",
    customerId: customer.id,
    passwordHash: hashToken(password),
  });
  /** The plant's login on the embedded broker. */
  const login = { username: ingestor?.id ?? "", password };
  return { customer, plant, login };
}

export type IngestProcess = { child: ChildProcess; output: () => string };

/** main.ts with the ingest role only, resolved once its broker or subscription is up. */
export function startIngestProcess(env: Record<string, string>): Promise<IngestProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/server/src/main.ts"), "--role", "ingest"],
    {
      // One process (no tsx wrapper), so a signal reaches the one holding the broker and the session.
      cwd: root,
      // Every process of an installation shares the encryption key (required with DATABASE_URL).
      env: {
        ...process.env,
        DEMO: "false",
        LOG_LEVEL: "info",
        MQTT_URL: "",
        ENCRYPTION_KEY: TEST_KEY,
        // Test files run side by side: no two children on the default HEALTH_PORT (a test sets its own).
        HEALTH_PORT: "0",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  const output = () => out;
  return new Promise((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      if (/embedded MQTT broker on|ingesting from/.test(out)) resolve({ child, output });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
    child.on("exit", (code) => reject(new Error(`ingest process exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`ingest process did not start: ${out}`)), 60_000);
  });
}

/** Resolves with the exit code once the child has exited. */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
