// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so a
// long query (a monitor's window, an ingest batch) no longer holds the API's thread. The app talks
// to it through pglite-thread.ts, one message a query. Plain JavaScript on purpose: a worker
// thread loads its file with Node's own loader, which reads no TypeScript under vitest or tsx.
//
// Messages in: { id, op: "query" | "exec" | "begin" | "end" | "rollback" | "listen" | "dump" | "snapshot" | "close", tx?, ... }.
// Answers out: { id, ok: true, value } or { id, ok: false, error } (the error's fields, cloneable);
// after a "listen", each NOTIFY on its channel as { notify: channel, payload } (no id).
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

/** @type {import("@electric-sql/pglite").PGlite} */
let client;
/** Open transactions by the app's id: PGlite's transaction object and how to end it. */
const txs = new Map();
const ROLLBACK = Symbol("rollback");
const asIs = (value) => value;

/**
 * An error's fields as plain values: PostgreSQL's (code, detail, constraint, table, …) and the
 * statement's. Functions and objects that cannot cross the thread (the query's parsers) are left.
 */
function errorFields(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const out = { name: err.name, message: err.message, stack: err.stack };
  for (const [key, value] of Object.entries(err)) {
    if (key === "queryOptions" || typeof value === "function") continue;
    try {
      structuredClone(value);
      out[key] = value;
    } catch {
      // not cloneable: leave it on this side
    }
  }
  return out;
}

function reply(id, ok, value, transfer) {
  parentPort.postMessage(ok ? { id, ok, value } : { id, ok, error: errorFields(value) }, transfer);
}

/** The data folder as an uncompressed tarball, its bytes handed over (moved, not copied). */
async function dumpBytes() {
  const blob = await client.dumpDataDir("none");
  return new Uint8Array(await blob.arrayBuffer());
}

/** Where PGlite keeps the data folder in its own file system (its PGDATA). */
const PGDATA = "/pglite/data";

/**
 * The data folder's folders and files, read through PGlite's own file system exactly as its
 * dumpDataDir reads them, but in one synchronous walk (no statement can run meanwhile) and without
 * building a tarball: dumpDataDir holds about four copies of the database at its peak (the files,
 * the tarball, a File, its ArrayBuffer), this one copy, handed over without another.
 */
function readDataFolder() {
  const FS = client.Module.FS;
  const entries = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const at = `${dir}/${name}`;
      const stat = FS.stat(at);
      const rel = at.slice(PGDATA.length);
      if (FS.isDir(stat.mode)) {
        entries.push({ name: rel, type: "directory", mode: stat.mode & 0o7777 });
        walk(at);
      } else if (FS.isFile(stat.mode)) {
        entries.push({ name: rel, type: "file", mode: stat.mode & 0o7777, data: FS.readFile(at) });
      }
    }
  };
  walk(PGDATA);
  return entries;
}

/**
 * A query's options for PGlite: the types the app parses itself (its parsers are functions, which
 * stay on the app's side) come back as PostgreSQL's text.
 */
function queryOptions(options) {
  if (!options) return undefined;
  const { rawTypes, ...rest } = options;
  if (rawTypes?.length) rest.parsers = Object.fromEntries(rawTypes.map((oid) => [oid, asIs]));
  return rest;
}

const resultOf = (r) => ({
  rows: r.rows,
  fields: r.fields,
  ...(r.affectedRows === undefined ? {} : { affectedRows: r.affectedRows }),
  ...(r.blob === undefined ? {} : { blob: r.blob }),
});

function target(tx) {
  if (tx === undefined) return client;
  const open = txs.get(tx);
  if (!open) throw new Error("Transaction is closed");
  return open.tx;
}

function begin(m) {
  let endId;
  let finish;
  const ended = new Promise((resolve) => {
    finish = resolve;
  });
  client
    .transaction(async (tx) => {
      txs.set(m.tx, { tx, finish });
      reply(m.id, true);
      const end = await ended;
      endId = end.id;
      if (!end.commit && !tx.closed) throw ROLLBACK;
    })
    .then(
      () => {
        txs.delete(m.tx);
        reply(endId, true);
      },
      (err) => {
        txs.delete(m.tx);
        if (endId === undefined) reply(m.id, false, err);
        else if (err === ROLLBACK) reply(endId, true);
        else reply(endId, false, err);
      },
    );
}

async function handle(m) {
  switch (m.op) {
    case "query":
      return resultOf(await target(m.tx).query(m.sql, m.params, queryOptions(m.options)));
    case "exec":
      return (await target(m.tx).exec(m.sql, queryOptions(m.options))).map(resultOf);
    case "rollback":
      return await target(m.tx).rollback();
    case "listen":
      await client.listen(m.channel, (payload) => parentPort.postMessage({ notify: m.channel, payload }));
      return undefined;
    case "dump":
      return await dumpBytes();
    case "snapshot": {
      // The app sends it while no transaction of its own is open and begins none until the answer
      // (pglite-thread.ts). PGlite writes dirty pages only at a checkpoint (no background writer
      // in its single-user mode): one here (at most the shared buffers to write) leaves the copy
      // little WAL to replay when it opens.
      const t0 = performance.now();
      await client.exec("CHECKPOINT");
      const t1 = performance.now();
      const rows = [];
      for (const q of m.queries ?? []) rows.push((await client.query(q)).rows);
      const t2 = performance.now();
      const files = await client.runExclusive(async () => readDataFolder());
      const ms = { checkpoint: t1 - t0, queries: t2 - t1, dump: performance.now() - t2 };
      return { files, rows, ms };
    }
    case "close":
      await client.close();
      return undefined;
    default:
      throw new Error(`unknown database thread message ${m.op}`);
  }
}

parentPort.on("message", (m) => {
  if (m.op === "begin") return begin(m);
  if (m.op === "end") {
    const open = txs.get(m.tx);
    if (open) open.finish({ commit: m.commit, id: m.id });
    else reply(m.id, false, new Error("Transaction is closed"));
    return;
  }
  handle(m).then(
    (value) => {
      // The database's bytes move to the app's thread instead of being copied: a buffer of their
      // own each (a view into a shared one would take the rest along, or detach it here).
      const views = value instanceof Uint8Array ? [value] : (value?.files?.map((f) => f.data) ?? []);
      const transfer = new Set();
      for (const v of views)
        if (v instanceof Uint8Array && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength)
          transfer.add(v.buffer);
      reply(m.id, true, value, [...transfer]);
    },
    (err) => reply(m.id, false, err),
  );
});

try {
  // A template (a dumped data folder: tests' migrated database) skips initdb, seconds a database.
  const template = workerData.template ? new Blob([readFileSync(workerData.template)]) : undefined;
  client = await PGlite.create(workerData.dataDir, template ? { loadDataDir: template } : {});
  parentPort.postMessage({ id: 0, ok: true });
} catch (err) {
  parentPort.postMessage({ id: 0, ok: false, error: errorFields(err) });
}
