import { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";

/**
 * The embedded PGlite database, running in a thread of its own (pglite.thread.js), seen through
 * the part of PGlite's client that Drizzle's pglite driver uses — `query`, `exec` and
 * `transaction` — plus `close`. One message a query; PGlite on its thread runs one statement at a
 * time and holds other callers while a transaction is open, exactly as it did on the app's thread.
 *
 * What crosses the thread: the statement, its parameters and the result, by structured clone
 * (Date, bigint, Uint8Array, JSON objects and arrays arrive as they left). Parsers are functions,
 * so they stay here: PGlite sends the text of the types they cover and they run on this side.
 * Errors arrive with their fields (SQLSTATE `code`, `detail`, `constraint`, …) on a plain Error.
 */
/** Marks the client openPgliteThread answers (isPgliteThread), which is no PGlite instance. */
const BRAND: unique symbol = Symbol("linewatch.pgliteThread");

/** How long a snapshot waits for the open transactions to end, holding new ones back meanwhile. */
export const SNAPSHOT_WAIT_MS = 5_000;

/** The snapshot found no gap between transactions in SNAPSHOT_WAIT_MS. */
export class SnapshotBusyError extends Error {
  override name = "SnapshotBusyError";
}

export type PgliteThreadTransaction = {
  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(query: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

export type PgliteThread = {
  readonly [BRAND]: true;
  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  /**
   * A statement of bulk work (a large window's page) in the background lane: sent only while no
   * other statement or transaction is in flight (or once it has waited BACKGROUND_MAX_WAIT_MS),
   * one at a time, each followed by a rest as long as it took. PGlite runs one statement at a
   * time: what a request or an acknowledgement waits for is then at most the one page running,
   * and the database is free about half the time however much bulk work is queued.
   */
  backgroundQuery<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(query: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(callback: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T>;
  /** The data folder as an uncompressed tarball (PGlite's dumpDataDir): a template, a copy. */
  dumpDataDir(): Promise<Uint8Array>;
  /**
   * A consistent copy of the database while it is in use (backups): waits until no transaction
   * is open and holds new ones back meanwhile, then, on the thread and in one go, a CHECKPOINT
   * (the copy needs no long recovery), `queries` (their rows describe exactly what is copied) and
   * the data folder's files, read in one synchronous walk. Statements outside transactions run between, as
   * they always do: PGlite runs one statement at a time, so the copy is taken between two.
   */
  /** `waitMs`: how long to wait for open transactions to end (SNAPSHOT_WAIT_MS). */
  snapshot(queries?: string[], opts?: { waitMs?: number }): Promise<Snapshot>;
  /** LISTEN on a channel: `onNotify` gets each NOTIFY's payload once its transaction commits. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<void>;
  /** What waits on the thread now (metrics): statements sent and not answered, bulk statements queued, open transactions. */
  load(): { inFlight: number; background: number; transactions: number };
  close(): Promise<void>;
  readonly closed: boolean;
};

/** A snapshot's copy, its queries' rows and how long the steps held the database (ms). */
export type Snapshot = {
  /** The data folder's folders and files, names from its root ("/base/1/112"). */
  files: { name: string; type: "file" | "directory"; mode: number; data?: Uint8Array }[];
  rows: Record<string, unknown>[][];
  /** The pause (transactions waiting): the checkpoint, the queries, the dump. */
  ms: { checkpoint: number; queries: number; dump: number };
};

type Answer = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: ErrorFields };
type Notification = { notify: string; payload: string };
type ErrorFields = { name?: string; message: string; stack?: string } & Record<string, unknown>;
type Parsers = NonNullable<QueryOptions["parsers"]>;

/** A background statement waits for the others at most this long before it is sent anyway. */
const BACKGROUND_MAX_WAIT_MS = 2_000;
/** After each background statement the lane rests this many times as long as it took. */
const BACKGROUND_REST_RATIO = 1;
/** …but never longer than this. */
const BACKGROUND_MAX_REST_MS = 1_000;

const threadFile = new URL("./pglite.thread.js", import.meta.url);

/** Whether `client` (a Drizzle database's `$client`) is the embedded database's thread. */
export function isPgliteThread(client: unknown): client is PgliteThread {
  return typeof client === "object" && client !== null && BRAND in client;
}

/** An error from the thread, rebuilt with its fields; the stack is the thread's. */
function toError(fields: ErrorFields): Error {
  const { name, message, stack, ...rest } = fields;
  const err = Object.assign(new Error(message), rest);
  if (name) err.name = name;
  if (stack) err.stack = stack;
  return err;
}

/** What PGlite needs of a query's options; parsers become the list of types to send as text. */
function wireOptions(options: QueryOptions | undefined) {
  if (!options) return undefined;
  const { parsers, serializers, onNotice, ...rest } = options;
  if (serializers || onNotice) {
    throw new Error("The embedded database's thread takes no serializers or notice callbacks");
  }
  return parsers ? { ...rest, rawTypes: Object.keys(parsers).map(Number) } : rest;
}

/** Runs the caller's parsers on the values PGlite sent as text (nulls stay null, as in PGlite). */
function applyParsers<T>(result: Results<T>, options: QueryOptions | undefined): Results<T> {
  const parsers: Parsers | undefined = options?.parsers;
  if (!parsers) return result;
  const columns = result.fields.flatMap((f, i) => {
    // PGlite calls a parser with the text and the type's id, as here.
    const parse = parsers[f.dataTypeID] as ((text: string, typeId: number) => unknown) | undefined;
    return parse ? [{ i, name: f.name, type: f.dataTypeID, parse }] : [];
  });
  if (columns.length === 0) return result;
  const arrays = options?.rowMode === "array";
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const c of columns) {
      const key = arrays ? c.i : c.name;
      const v = row[key];
      if (v !== null && v !== undefined) row[key] = c.parse(v as string, c.type);
    }
  }
  return result;
}

export type PgliteThreadOptions = {
  /**
   * Called once when the thread fails or exits after PGlite opened and before `close`: every query
   * from then on fails with "PGlite is closed", so a server should stop (main.ts exits) rather
   * than answer each request with an error.
   */
  onCrash?: (err: Error) => void;
  /** The thread's script; tests give one that fails on purpose. */
  threadFile?: URL;
  /** A tarball from dumpDataDir to start from (a new database only): tests' migrated template. */
  template?: string;
};

/**
 * Starts the thread and opens PGlite in it: in `dataDir`, or in memory without one. Rejects with
 * PGlite's own error when the database cannot open.
 */
export async function openPgliteThread(
  dataDir?: string,
  opts: PgliteThreadOptions = {},
): Promise<PgliteThread> {
  const worker = new Worker(opts.threadFile ?? threadFile, {
    workerData: { dataDir, template: opts.template },
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  // The background lane (backgroundQuery): statements waiting, the one in flight, the rest after it.
  const backgroundQueue: {
    queuedAt: number;
    send: () => Promise<unknown>;
    settle: (p: Promise<unknown>) => void;
  }[] = [];
  let backgroundInFlight = false;
  let restUntil = 0;
  let backgroundTimer: NodeJS.Timeout | undefined;

  let nextId = 1;
  let nextTx = 1;
  let openTxs = 0;
  // A snapshot waiting for the open transactions to end, or running: new transactions wait for it.
  let snapshotting: Promise<void> | undefined;
  let onNoTransaction: (() => void) | undefined;
  let stopped: Error | undefined;
  let opened = false;
  let closing = false;

  // The thread keeps the process alive only while something waits on it, like a socket would.
  const holdWhileBusy = () => {
    if (pending.size > 0 || openTxs > 0) worker.ref();
    else worker.unref();
  };
  const stop = (err: Error) => {
    stopped ??= err;
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
    clearTimeout(backgroundTimer);
    for (const b of backgroundQueue.splice(0)) b.settle(Promise.reject(stopped));
    holdWhileBusy();
  };
  const listeners = new Map<string, ((payload: string) => void)[]>();
  worker.on("message", (a: Answer | Notification) => {
    if ("notify" in a) {
      for (const onNotify of listeners.get(a.notify) ?? []) onNotify(a.payload);
      return;
    }
    const p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    if (a.ok) p.resolve(a.value);
    else p.reject(toError(a.error));
    holdWhileBusy();
    if (backgroundQueue.length > 0 && pending.size === 0) queueMicrotask(pumpBackground);
  });
  const crashed = (err: Error) => {
    const first = stopped === undefined;
    stop(err);
    if (first && opened && !closing) opts.onCrash?.(err);
  };
  worker.on("error", (err) => crashed(new Error(`PGlite is closed: its thread failed (${err.message})`)));
  worker.on("exit", (code) =>
    crashed(new Error(closing ? "PGlite is closed" : `PGlite is closed: its thread exited (code ${code})`)),
  );

  const answer = <T>(id: number): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      holdWhileBusy();
    });
  };
  const call = <T>(message: Record<string, unknown>): Promise<T> => {
    const id = nextId++;
    const answered = answer<T>(id);
    if (!stopped) worker.postMessage({ ...message, id });
    return answered;
  };

  const pumpBackground = () => {
    clearTimeout(backgroundTimer);
    backgroundTimer = undefined;
    const next = backgroundQueue[0];
    if (backgroundInFlight || !next || stopped) return;
    const now = Date.now();
    const othersBusy = pending.size > 0 || openTxs > 0;
    const waitedOut = now - next.queuedAt >= BACKGROUND_MAX_WAIT_MS;
    if (now < restUntil || (othersBusy && !waitedOut)) {
      // Woken by the others' answers (pumpBackground below), else by the rest's end or the wait's.
      const at = Math.max(restUntil, othersBusy ? next.queuedAt + BACKGROUND_MAX_WAIT_MS : 0);
      backgroundTimer = setTimeout(pumpBackground, Math.max(1, at - now));
      backgroundTimer.unref();
      return;
    }
    backgroundQueue.shift();
    backgroundInFlight = true;
    const started = Date.now();
    const sent = next.send();
    next.settle(sent);
    void sent
      .catch(() => {})
      .finally(() => {
        backgroundInFlight = false;
        const took = Date.now() - started;
        restUntil = Date.now() + Math.min(BACKGROUND_MAX_REST_MS, took * BACKGROUND_REST_RATIO);
        pumpBackground();
      });
  };

  // The thread answers id 0 by itself once PGlite is open (or failed to open).
  try {
    await answer(0);
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  opened = true;

  const query = async <T>(tx: number | undefined, sql: string, params?: unknown[], options?: QueryOptions) =>
    applyParsers(
      await call<Results<T>>({ op: "query", tx, sql, params, options: wireOptions(options) }),
      options,
    );
  const exec = async (tx: number | undefined, sql: string, options?: QueryOptions) =>
    (await call<Results[]>({ op: "exec", tx, sql, options: wireOptions(options) })).map((r) =>
      applyParsers(r, options),
    );

  return {
    [BRAND]: true,
    query: (sql, params, options) => query(undefined, sql, params, options),
    backgroundQuery: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      new Promise<Results<T>>((resolve, reject) => {
        backgroundQueue.push({
          queuedAt: Date.now(),
          send: () => query<T>(undefined, sql, params, options),
          settle: (p) => (p as Promise<Results<T>>).then(resolve, reject),
        });
        pumpBackground();
      }),
    exec: (sql, options) => exec(undefined, sql, options),
    async transaction(callback) {
      while (snapshotting) await snapshotting;
      const tx = nextTx++;
      openTxs++;
      try {
        await call({ op: "begin", tx });
        let closed = false;
        const handle: PgliteThreadTransaction = {
          query: (sql, params, options) => query(tx, sql, params, options),
          exec: (sql, options) => exec(tx, sql, options),
          async rollback() {
            await call({ op: "rollback", tx });
            closed = true;
          },
          get closed() {
            return closed;
          },
        };
        let result: Awaited<ReturnType<typeof callback>>;
        try {
          result = await callback(handle);
        } catch (err) {
          // PGlite rolls back on its thread; the callback's error is the one the caller sees.
          await call({ op: "end", tx, commit: false }).catch(() => {});
          throw err;
        }
        await call({ op: "end", tx, commit: true });
        return result;
      } finally {
        openTxs--;
        if (openTxs === 0) onNoTransaction?.();
        holdWhileBusy();
        if (backgroundQueue.length > 0) queueMicrotask(pumpBackground);
      }
    },
    dumpDataDir: () => call<Uint8Array>({ op: "dump" }),
    load: () => ({ inFlight: pending.size, background: backgroundQueue.length, transactions: openTxs }),
    async snapshot(queries = [], { waitMs = SNAPSHOT_WAIT_MS } = {}) {
      while (snapshotting) await snapshotting;
      let done = () => {};
      snapshotting = new Promise<void>((resolve) => {
        done = resolve;
      });
      try {
        if (openTxs > 0) {
          // New transactions wait behind the gate meanwhile: a long or stuck one must not hold
          // them (every ingest commit) for as long as it lasts. The backup is then refused.
          let timer: NodeJS.Timeout | undefined;
          const gap = await Promise.race([
            new Promise<boolean>((resolve) => {
              onNoTransaction = () => resolve(true);
            }),
            new Promise<boolean>((resolve) => {
              timer = setTimeout(() => resolve(false), waitMs);
            }),
          ]);
          clearTimeout(timer);
          if (!gap)
            throw new SnapshotBusyError(
              `a transaction stayed open for more than ${waitMs / 1000} s: try the backup again`,
            );
        }
        onNoTransaction = undefined;
        return await call<Snapshot>({ op: "snapshot", queries });
      } finally {
        onNoTransaction = undefined;
        snapshotting = undefined;
        done();
      }
    },
    async listen(channel, onNotify) {
      const first = !listeners.has(channel);
      listeners.set(channel, [...(listeners.get(channel) ?? []), onNotify]);
      if (first) await call({ op: "listen", channel });
    },
    async close() {
      // Already stopped (closed, or the thread died): wait until the thread has exited.
      if (stopped) {
        await worker.terminate();
        return;
      }
      closing = true;
      try {
        await call({ op: "close" });
      } catch (err) {
        // Not closed after all: a later failure of the thread is a crash again.
        closing = false;
        throw err;
      }
      stopped = new Error("PGlite is closed");
      await worker.terminate();
    },
    get closed() {
      return stopped !== undefined;
    },
  };
}
