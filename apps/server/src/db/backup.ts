// Backups of the embedded database (issue 28 §6): what a backup file holds, how it is taken from
// the running database and how it is checked and unpacked again. The file is a gzipped tar:
//
//   linewatch-backup.json   the manifest: when, what (counts), the database tarball's SHA-256
//   pgdata.tar              PGlite's data folder, copied between two transactions
//   encryption.key          DATA_DIR's generated key, when the server used it (not ENCRYPTION_KEY)
//
// `tar -xzf` opens it; `tar -xf pgdata.tar -C DIR` gives a data folder the product opens.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import { extract, type Header, type Pack, pack } from "tar-stream";
import { KEY_FILE } from "../lib/crypto.js";
import type { PgliteThread, Snapshot } from "./pglite-thread.js";

export const BACKUP_FORMAT = "linewatch-backup";
export const BACKUP_VERSION = 1;
export const MANIFEST_ENTRY = "linewatch-backup.json";
export const DATABASE_ENTRY = "pgdata.tar";
export const KEY_ENTRY = KEY_FILE;
/** The running server's backup endpoint file in DATA_DIR (backup-endpoint.ts). */
export const ENDPOINT_FILE = "backup-endpoint.json";
/**
 * PGlite's dump is of the whole data folder, which also holds the product's own files: the lock
 * (another process's pid), the endpoint's token, and the key (in the backup on its own, or not);
 * postmaster.pid, as pg_basebackup leaves it out.
 */
const NOT_DATABASE = new Set(["linewatch.pid", ENDPOINT_FILE, KEY_FILE, "postmaster.pid"]);

/**
 * Where the server's encryption key came from (lib/crypto.ts): "file" is DATA_DIR/encryption.key,
 * which a backup carries unless told not to; ENCRYPTION_KEY lives in the server's environment.
 */
export type KeySource = "ENCRYPTION_KEY" | "file" | "generated";

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** When the copy was taken (ISO 8601): everything committed before is in it. */
  takenAt: string;
  database: "pglite";
  databaseBytes: number;
  databaseSha256: string;
  /** Counted in the same pause as the copy. */
  counts: { partRecords: number; customers: number; migrations: number };
  /** "included", or why not: the server used ENCRYPTION_KEY, or the operator left it out. */
  encryptionKey: "included" | "ENCRYPTION_KEY" | "left out";
};

/** A backup file that cannot be restored, with the reason. */
export class BackupError extends Error {
  override name = "BackupError";
}

const COUNT_QUERIES = [
  "select count(*)::int as n from part_records",
  "select count(*)::int as n from customers",
  'select count(*)::int as n from drizzle."__drizzle_migrations"',
];

/** 8 MiB a turn of the event loop: a few ms each, so a server's requests and acknowledgements go on. */
const SLICE_BYTES = 8 * 1024 * 1024;

/** A Uint8Array's bytes as a Buffer, not copied (tar-stream copies what is not a Buffer). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A file's bytes in slices of SLICE_BYTES, not copied. */
function* slices(bytes: Uint8Array): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) yield asBuffer(bytes.subarray(at, at + SLICE_BYTES));
}

/** The streams of tar-stream (streamx) as far as backpressure needs them. */
type Sink = {
  write(chunk: Buffer): boolean;
  end(): unknown;
  destroy(err?: Error | null): void;
  readonly destroying: boolean;
  once(event: "drain" | "close", fn: () => void): unknown;
  off(event: "drain" | "close", fn: () => void): unknown;
};

/** Waits until `sink` takes more: true, or false when it closed (destroyed) meanwhile. */
function drained(sink: Sink): Promise<boolean> {
  if (sink.destroying) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onDrain = () => {
      sink.off("close", onClose);
      resolve(true);
    };
    const onClose = () => {
      sink.off("drain", onDrain);
      resolve(false);
    };
    sink.once("drain", onDrain);
    sink.once("close", onClose);
  });
}

/** Writes `pieces` into `sink` as it takes them, then ends it; stops when the sink closes. */
async function writeAll(sink: Sink, pieces: Iterable<Uint8Array> | AsyncIterable<unknown>): Promise<void> {
  for await (const piece of pieces) {
    if (sink.destroying) return;
    if (!sink.write(asBuffer(piece as Uint8Array)) && !(await drained(sink))) return;
  }
  sink.end();
}

type EntryHeader = { name: string; type: "file" | "directory"; mode: number; mtime: Date; size?: number };

/** Adds one entry to `tar` and resolves once it is written (a file's `pieces` make up `size` bytes). */
function addEntry(
  tar: Pack,
  header: EntryHeader,
  pieces: Iterable<Uint8Array> | AsyncIterable<unknown> = [],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = tar.entry(header, (err) => (err ? reject(err) : resolve())) as unknown as Sink;
    // A folder's entry is written as it is added; a file's once its bytes are in.
    if (header.type === "file") writeAll(sink, pieces).catch((err: Error) => sink.destroy(err));
  });
}

/** Runs `fill` to write `tar`'s entries and finalizes it; a failure destroys the tar with the error. */
function packed(fill: (tar: Pack) => Promise<void>): Pack {
  const tar = pack();
  fill(tar).then(
    () => tar.finalize(),
    (err: Error) => tar.destroy(err),
  );
  return tar;
}

/**
 * The data folder as an uncompressed tar (what `pgdata.tar` holds), streamed: the snapshot's file
 * bytes go in as slices of themselves (no copy), with backpressure. The same files and `mtime` give
 * the same bytes, so the tar is made once to hash it and once to write it.
 */
function databaseTar(files: Snapshot["files"], mtime: Date): Pack {
  return packed(async (tar) => {
    for (const f of files) {
      const name = memberPath(f.name);
      if (!name || NOT_DATABASE.has(name)) continue;
      const data = f.data ?? new Uint8Array(0);
      if (f.type === "directory") await addEntry(tar, { name, type: "directory", mode: f.mode, mtime });
      else await addEntry(tar, { name, type: "file", mode: f.mode, mtime, size: data.length }, slices(data));
    }
  });
}

/** Size and SHA-256 of a tar as it streams, letting the event loop run between slices. */
async function measure(tar: Pack): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let sinceTurn = 0;
  for await (const chunk of tar) {
    const piece = chunk as Buffer;
    hash.update(piece);
    bytes += piece.length;
    sinceTurn += piece.length;
    if (sinceTurn >= SLICE_BYTES) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * Takes a consistent copy of the open database (PgliteThread.snapshot: between transactions) and
 * returns the backup as an uncompressed tar, streamed with backpressure (`pieces`: read it once).
 * The copy is in memory, as large as the data folder; the tars only refer to its bytes.
 */
export async function takeBackup(
  client: PgliteThread,
  opts: { dataDir: string; keySource: KeySource; includeKey: boolean },
): Promise<{ manifest: BackupManifest; pieces: AsyncIterable<Buffer>; pauseMs: Snapshot["ms"] }> {
  const takenAt = new Date().toISOString();
  const mtime = new Date(takenAt);
  const { files, rows, ms } = await client.snapshot(COUNT_QUERIES);
  const database = await measure(databaseTar(files, mtime));
  const n = (i: number) => Number((rows[i]?.[0] as { n?: number } | undefined)?.n ?? 0);
  const keyFile = path.join(opts.dataDir, KEY_FILE);
  const key =
    opts.keySource !== "ENCRYPTION_KEY" && opts.includeKey && existsSync(keyFile)
      ? readFileSync(keyFile)
      : undefined;
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    takenAt,
    database: "pglite",
    databaseBytes: database.bytes,
    databaseSha256: database.sha256,
    counts: { partRecords: n(0), customers: n(1), migrations: n(2) },
    encryptionKey: key ? "included" : opts.keySource === "ENCRYPTION_KEY" ? "ENCRYPTION_KEY" : "left out",
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const backup = packed(async (tar) => {
    const file = (name: string, mode: number, size: number) =>
      ({ name, type: "file", mode, mtime, size }) as const;
    await addEntry(tar, file(MANIFEST_ENTRY, 0o644, manifestBytes.length), [manifestBytes]);
    // The same tar again, straight into the backup; tar-stream refuses it if its size differs.
    await addEntry(tar, file(DATABASE_ENTRY, 0o600, database.bytes), databaseTar(files, mtime));
    if (key) await addEntry(tar, file(KEY_ENTRY, 0o600, key.length), [key]);
  });
  return { manifest, pieces: backup as AsyncIterable<Buffer>, pauseMs: ms };
}

export type VerifiedBackup = {
  manifest: BackupManifest;
  encryptionKey: Uint8Array | undefined;
};

/** Writes a file or makes a folder of the data folder (`rel` checked), reading `body` to its end. */
type MemberSink = (rel: string, type: "file" | "directory", body: AsyncIterable<unknown>) => Promise<void>;

/** Reads a stream to its end, keeping nothing. */
async function drain(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of body);
}

async function collect(body: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Refuses what backups never hold (links, devices): only files and folders. */
function checkType(header: Header): asserts header is Header & { type: "file" | "directory" } {
  if (header.type !== "file" && header.type !== "directory")
    throw new BackupError(`${header.name} is neither a file nor a folder (${header.type})`);
}

/** What tar-stream's refusal means here. */
function tarReason(err: Error): string {
  if (/invalid tar header/i.test(err.message)) return "a tar header is damaged (or it is no tar)";
  if (/unexpected end of data/i.test(err.message)) return "it is cut short";
  return err.message;
}

/**
 * A damaged backup as a BackupError (`what` says which tar); the disk's errors (writing the
 * files) stay as they are.
 */
function asBackupError(err: unknown, what: string): unknown {
  if (err instanceof BackupError || !(err instanceof Error)) return err;
  const code = (err as NodeJS.ErrnoException).code ?? "";
  if (code.startsWith("Z_")) return new BackupError(`it is not a complete gzipped file (${err.message})`);
  if ((err as NodeJS.ErrnoException).syscall) return err;
  return new BackupError(`${what} is damaged: ${tarReason(err)}`);
}

/**
 * Writes `source` into a tar extract as it takes it, then ends it. Stops when the extract closes
 * (its reader failed); an error of `source` destroys the extract with it, and is answered.
 */
async function feed(source: Iterable<unknown> | AsyncIterable<unknown>, tar: Sink): Promise<unknown> {
  try {
    for await (const chunk of source) {
      if (tar.destroying) return undefined;
      if (!tar.write(chunk as Buffer) && !(await drained(tar))) return undefined;
    }
    if (!tar.destroying) tar.end();
    return undefined;
  } catch (err) {
    tar.destroy(err as Error);
    return err;
  }
}

type DatabaseRead = { bytes: number; sha256: string; seen: Set<string>; error: unknown };

/**
 * `pgdata.tar` as it streams past: every byte hashed, and parsed as a tar (every header checked,
 * paths kept inside the folder, each member to `onMember`). A damaged inner tar does not stop the
 * hashing: the checksum says first whether the file is damaged; `error` says what the tar met.
 */
async function readDatabase(body: AsyncIterable<unknown>, onMember?: MemberSink): Promise<DatabaseRead> {
  const hash = createHash("sha256");
  let bytes = 0;
  const seen = new Set<string>();
  let error: unknown;
  const tar = extract();
  const parsing = (async () => {
    for await (const member of tar) {
      checkType(member.header);
      const rel = memberPath(member.header.name);
      seen.add(rel);
      if (onMember && rel && !NOT_DATABASE.has(rel)) await onMember(rel, member.header.type, member);
      else await drain(member);
    }
  })().catch((err: unknown) => {
    error = err;
    tar.destroy();
  });
  const inner = tar as unknown as Sink;
  for await (const chunk of body) {
    const piece = chunk as Buffer;
    hash.update(piece);
    bytes += piece.length;
    if (error === undefined && !inner.destroying && !inner.write(piece)) await drained(inner);
  }
  if (!inner.destroying) inner.end();
  await parsing;
  return { bytes, sha256: hash.digest("hex"), seen, error };
}

/**
 * Reads a backup (its uncompressed tar) as it streams past and answers its manifest once
 * everything agrees with it — the database's size and SHA-256, and every one of its tar headers;
 * `onMember` gets the data folder's files meanwhile. Memory: the manifest and the key.
 */
async function readBackup(
  source: Iterable<unknown> | AsyncIterable<unknown>,
  onMember?: MemberSink,
): Promise<VerifiedBackup> {
  let manifestBytes: Buffer | undefined;
  let keyBytes: Buffer | undefined;
  let database: DatabaseRead | undefined;
  const outer = extract();
  const feeding = feed(source, outer as unknown as Sink);
  try {
    for await (const entry of outer) {
      checkType(entry.header);
      const { name, type } = entry.header;
      if (type === "file" && name === MANIFEST_ENTRY) manifestBytes = await collect(entry);
      else if (type === "file" && name === KEY_ENTRY) keyBytes = await collect(entry);
      else if (type === "file" && name === DATABASE_ENTRY) database = await readDatabase(entry, onMember);
      else await drain(entry);
    }
  } catch (err) {
    // The source's own error (the gzip's) is the cause of what the tar says then.
    throw asBackupError((await feeding) ?? err, "the archive");
  }
  const sourceError = await feeding;
  if (sourceError) throw asBackupError(sourceError, "the archive");

  if (!manifestBytes) throw new BackupError(`it holds no ${MANIFEST_ENTRY}`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestBytes.toString("utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`its ${MANIFEST_ENTRY} is not JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError("it is not a Linewatch backup");
  if (manifest.version > BACKUP_VERSION)
    throw new BackupError(`it was written by a newer Linewatch (format ${manifest.version}): update first`);
  if (!database) throw new BackupError(`it holds no ${DATABASE_ENTRY}`);
  if (database.bytes !== manifest.databaseBytes)
    throw new BackupError(
      `the database is ${database.bytes} bytes, the manifest says ${manifest.databaseBytes}`,
    );
  if (database.sha256 !== manifest.databaseSha256)
    throw new BackupError("the database does not match its checksum (the file is damaged)");
  if (database.error) throw asBackupError(database.error, "the database tarball");
  for (const required of ["PG_VERSION", "global/pg_control"])
    if (!database.seen.has(required)) throw new BackupError(`the database has no ${required}`);
  if (manifest.encryptionKey === "included" && !keyBytes)
    throw new BackupError(`its manifest says it holds ${KEY_ENTRY}, and it does not (cut short?)`);
  return { manifest, encryptionKey: keyBytes && new Uint8Array(keyBytes) };
}

/** Checks an (uncompressed) backup held in memory. */
export function verifyBackup(archive: Uint8Array): Promise<VerifiedBackup> {
  return readBackup([asBuffer(archive)]);
}

/** A backup file's bytes, gunzipped as they are read. */
async function* gunzipped(file: string): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(file), gunzip);
  // A read error reaches the loop through gunzip; this one is awaited below.
  reading.catch(() => {});
  yield* gunzip;
  await reading;
}

/** Checks a backup file through and through, reading it once from the disk. */
export function checkBackupFile(file: string): Promise<VerifiedBackup> {
  return readBackup(gunzipped(file));
}

/** A member's path inside the data folder ("/base/1/112" → "base/1/112"); refuses escapes. */
function memberPath(name: string): string {
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === ".."))
    throw new BackupError(`the database names a path outside its folder: ${name}`);
  return parts.join("/");
}

/** Writes a backup file's data folder into `dir` (a new, empty folder), streaming; checks it again. */
export async function unpackBackupFile(file: string, dir: string): Promise<void> {
  await readBackup(gunzipped(file), async (rel, type, body) => {
    const target = path.join(dir, rel);
    if (type === "directory") {
      mkdirSync(target, { recursive: true, mode: 0o700 });
      return drain(body);
    }
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const out = await open(target, "w", 0o600);
    try {
      for await (const chunk of body) await out.write(chunk as Buffer);
    } finally {
      await out.close();
    }
  });
}
