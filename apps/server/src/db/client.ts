import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Logger } from "../lib/logger.js";
import { openPgliteThread, type PgliteThread } from "./pglite-thread.js";
import * as schema from "./schema/index.js";

export type Schema = typeof schema;
/** The one database type services use, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories take either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * The driver underneath, for what Drizzle does not do (COPY in benchmarks). PGlite runs in a
   * thread of its own: `client` is that thread's `query`, `exec` and `transaction`.
   */
  raw: { kind: "postgres"; pool: pg.Pool } | { kind: "pglite"; client: PgliteThread };
  /**
   * LISTEN on a channel for as long as the returned stop function is not called: `onNotify` gets
   * each NOTIFY's payload once its transaction commits, in whatever process it ran. `onLive(false)`
   * says notifications may have been missed (the listening connection was lost; PostgreSQL
   * reconnects with a growing pause), `onLive(true)` that they flow (again).
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export type ListenHandlers = { onNotify: (payload: string) => void; onLive: (live: boolean) => void };

/** PostgreSQL's LISTEN holds a connection of its own (not the pool's), reconnecting when lost. */
function listenPostgres(
  databaseUrl: string,
  channel: string,
  handlers: ListenHandlers,
  logger: Logger | undefined,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pauseMs = 500;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl });
    client = c;
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost || stopped) return;
      lost = true;
      handlers.onLive(false);
      logger?.warn({ channel, reason: err?.message }, "database notifications lost, reconnecting");
      c.end().catch(() => {});
      retry = setTimeout(() => void connect().catch(() => {}), pauseMs);
      retry.unref();
      pauseMs = Math.min(pauseMs * 2, 30_000);
    };
    c.on("error", onLost);
    c.on("end", () => onLost());
    c.on("notification", (n) => {
      if (n.channel === channel && !stopped) handlers.onNotify(n.payload ?? "");
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      onLost(err as Error);
      throw err;
    }
    pauseMs = 500;
    if (!stopped) handlers.onLive(true);
  };
  const stop = async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
  return connect().then(
    () => stop,
    // The first attempt failed: reconnection goes on; the caller may go on without notifications.
    () => stop,
  );
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

export type OpenDatabaseOptions =
  | { databaseUrl: string; poolSize?: number; logger?: Logger }
  | { dataDir: string; onFatal?: (err: Error) => void; threadFile?: URL }
  | {
      memory: true;
      onFatal?: (err: Error) => void;
      threadFile?: URL;
      /** A tarball from PgliteThread.dumpDataDir to start from (tests: the migrated template). */
      template?: string;
    };

/** The pid of the live process holding the embedded database in `dir`, if one does. */
export function dataDirHolder(dir: string): number | undefined {
  const file = path.join(dir, "linewatch.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM" ? pid : undefined;
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * A pid file refuses that with a clear message; a stale one (its process is gone) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const pid = dataDirHolder(dir);
  if (pid !== undefined) {
    throw new Error(
      `The embedded database in ${dir} is open in process ${pid}. Stop that process first, or use PostgreSQL (DATABASE_URL) to run several processes on one database.`,
    );
  }
  const file = path.join(dir, "linewatch.pid");
  // A stale file (its process gone) is replaced; the new one is created exclusively, so of two
  // processes taking the folder at the same moment one gets it and the other the message above.
  rmSync(file, { force: true });
  try {
    writeFileSync(file, String(process.pid), { flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    throw new Error(
      `The embedded database in ${dir} is being opened by another process at this moment. Stop it first, or use PostgreSQL (DATABASE_URL) to run several processes on one database.`,
    );
  }
  return () => {
    // Only our own file: never the one another process wrote after us.
    if (existsSync(file) && readFileSync(file, "utf8").trim() === String(process.pid))
      rmSync(file, { force: true });
  };
}

/**
 * The key of the session-level advisory lock every process holds while it migrates: processes of
 * any roles started at once on an empty database take turns, and the later ones find the
 * migrations applied. (Without it two of three died on `CREATE SCHEMA` / `CREATE TABLE` racing in
 * pg_type.) A constant of this product's own: the bytes of "linewa".
 */
export const MIGRATION_LOCK_KEY = 0x6c696e65_7761n;

/** Applies the committed migrations on one connection of the pool, under MIGRATION_LOCK_KEY. */
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let isBroken = false;
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migratePg(drizzlePg(client, { schema }) as never, { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
    }
  } catch (err) {
    isBroken = true;
    throw err;
  } finally {
    // A connection whose unlock failed may still hold the lock: it is closed, not pooled.
    client.release(isBroken);
  }
}

/** Opens PostgreSQL (DATABASE_URL) or embedded PGlite, and applies the committed migrations. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if ("databaseUrl" in opts) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle connection that the server drops (restart, failover) must not take the process down.
    pool.on("error", (err) => opts.logger?.warn({ reason: err.message }, "database connection lost"));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    try {
      await migratePostgres(pool);
    } catch (err) {
      await pool.end();
      throw err;
    }
    const stops = new Set<() => Promise<void>>();
    return {
      db,
      kind: "postgres",
      raw: { kind: "postgres", pool },
      async listen(channel, handlers) {
        const stop = await listenPostgres(opts.databaseUrl, channel, handlers, opts.logger);
        stops.add(stop);
        return async () => {
          stops.delete(stop);
          await stop();
        };
      },
      close: async () => {
        await Promise.all([...stops].map((stop) => stop()));
        await pool.end();
      },
    };
  }
  // PGlite in a worker thread: its queries (WebAssembly, one at a time) no longer hold the
  // thread that answers HTTP requests while the worker or ingest use the database.
  let client: PgliteThread;
  let unlock = () => {};
  if ("dataDir" in opts) {
    mkdirSync(opts.dataDir, { recursive: true });
    unlock = lockDataDir(opts.dataDir);
    try {
      // The folder's lock goes first: whatever restarts the process may hand its pid to another.
      client = await openPgliteThread(opts.dataDir, {
        ...(opts.threadFile ? { threadFile: opts.threadFile } : {}),
        onCrash: (err) => {
          unlock();
          opts.onFatal?.(err);
        },
      });
    } catch (err) {
      unlock();
      throw err;
    }
  } else {
    client = await openPgliteThread(undefined, {
      ...(opts.threadFile ? { threadFile: opts.threadFile } : {}),
      ...(opts.template ? { template: opts.template } : {}),
      onCrash: (err) => opts.onFatal?.(err),
    });
  }
  // Drizzle's pglite driver calls only query, exec and transaction, which the thread's client has.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  try {
    await migratePglite(db as never, { migrationsFolder });
  } catch (err) {
    await client.close();
    unlock();
    throw err;
  }
  return {
    db,
    kind: "pglite",
    raw: { kind: "pglite", client },
    async listen(channel, handlers) {
      // One process, one connection: notifications cannot be missed while the thread runs.
      let stopped = false;
      await client.listen(channel, (payload) => {
        if (!stopped) handlers.onNotify(payload);
      });
      handlers.onLive(true);
      return async () => {
        stopped = true;
      };
    },
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

/** The rows of a raw `db.execute` answer (node-postgres and PGlite both answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
