// Backups of the embedded database (issue 28 §6): what a backup file holds, how it is taken from
// the running database and how it is checked and unpacked again. The file is a gzipped tar:
//
//   linewatch-backup.json   the manifest: when, what (counts), the database tarball's SHA-256
//   pgdata.tar              PGlite's data folder, copied between two transactions
//   encryption.key          DATA_DIR's generated key, when the server used it (not ENCRYPTION_KEY)
//
// `tar -xzf` opens it; `tar -xf pgdata.tar -C DIR` gives a data folder the product opens.
import { createHash } from "node:crypto";
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { KEY_FILE } from "../lib/crypto.js";
import { TarError, type TarInput, TarReader, writeTar } from "../lib/tar.js";
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
const HASH_SLICE_BYTES = 8 * 1024 * 1024;

/** SHA-256 of the pieces, letting the event loop run between slices (a large database hashes for seconds). */
async function sha256(pieces: readonly Uint8Array[]): Promise<string> {
  const hash = createHash("sha256");
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += HASH_SLICE_BYTES) {
      hash.update(piece.subarray(at, at + HASH_SLICE_BYTES));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return hash.digest("hex");
}

/**
 * Takes a consistent copy of the open database (PgliteThread.snapshot: between transactions) and
 * returns the backup as an uncompressed tar, in pieces to write one after another. The copy is in
 * memory, as large as the data folder.
 */
export async function takeBackup(
  client: PgliteThread,
  opts: { dataDir: string; keySource: KeySource; includeKey: boolean },
): Promise<{ manifest: BackupManifest; pieces: Iterable<Uint8Array>; pauseMs: Snapshot["ms"] }> {
  const takenAt = new Date().toISOString();
  const { files, rows, ms } = await client.snapshot(COUNT_QUERIES);
  // A tarball of the files as pieces (no copy), without the product's own files.
  const databasePieces = [
    ...writeTar(
      files
        .filter((f) => !NOT_DATABASE.has(memberPath(f.name)))
        .map((f) => ({ ...f, data: f.data ?? new Uint8Array(0) })),
    ),
  ];
  const databaseSha256 = await sha256(databasePieces);
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
    databaseBytes: databasePieces.reduce((sum, piece) => sum + piece.length, 0),
    databaseSha256,
    counts: { partRecords: n(0), customers: n(1), migrations: n(2) },
    encryptionKey: key ? "included" : opts.keySource === "ENCRYPTION_KEY" ? "ENCRYPTION_KEY" : "left out",
  };
  const entries: TarInput[] = [
    {
      name: MANIFEST_ENTRY,
      type: "file",
      mode: 0o644,
      data: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
    },
    { name: DATABASE_ENTRY, type: "file", mode: 0o600, data: databasePieces },
    ...(key ? [{ name: KEY_ENTRY, type: "file" as const, mode: 0o600, data: new Uint8Array(key) }] : []),
  ];
  return { manifest, pieces: writeTar(entries), pauseMs: ms };
}

export type VerifiedBackup = {
  manifest: BackupManifest;
  encryptionKey: Uint8Array | undefined;
};

/**
 * A data folder's tarball read as it streams: every header checked, paths kept inside the
 * folder, `onFile`/`onData`/`onEnd` for whoever writes the files (nothing is kept in memory).
 */
function databaseReader(
  handlers: {
    onEntry?: (rel: string, type: "file" | "directory") => void;
    onData?: (chunk: Uint8Array) => void;
    onEnd?: () => void;
  } = {},
) {
  const seen = new Set<string>();
  const reader = new TarReader({
    entry: (h) => {
      const rel = memberPath(h.name);
      seen.add(rel);
      handlers.onEntry?.(rel, h.type);
    },
    data: (_h, chunk) => handlers.onData?.(chunk),
    end: () => handlers.onEnd?.(),
  });
  return {
    write: (chunk: Uint8Array) => reader.write(chunk),
    finish() {
      reader.finish();
      for (const required of ["PG_VERSION", "global/pg_control"])
        if (!seen.has(required)) throw new BackupError(`the database has no ${required}`);
    },
  };
}

/**
 * Checks a backup (its uncompressed tar) as it streams past: `write` each piece, then `finish`
 * answers the manifest once everything agrees with it — the database's size and SHA-256, and
 * every one of its tar headers. Memory: the manifest and the key.
 */
export function backupChecker() {
  let manifestBytes: Uint8Array[] | undefined;
  let keyBytes: Uint8Array[] | undefined;
  let databaseBytes = 0;
  let hasDatabase = false;
  const hash = createHash("sha256");
  const database = databaseReader();
  const outer = new TarReader({
    entry: (h) => {
      if (h.type !== "file") return;
      if (h.name === MANIFEST_ENTRY) manifestBytes = [];
      if (h.name === KEY_ENTRY) keyBytes = [];
      if (h.name === DATABASE_ENTRY) hasDatabase = true;
    },
    data: (h, chunk) => {
      if (h.name === MANIFEST_ENTRY) manifestBytes?.push(chunk.slice());
      else if (h.name === KEY_ENTRY) keyBytes?.push(chunk.slice());
      else if (h.name === DATABASE_ENTRY) {
        databaseBytes += chunk.length;
        hash.update(chunk);
        database.write(chunk);
      }
    },
  });
  const asBackupError = (err: unknown, prefix = "") => {
    if (err instanceof TarError) return new BackupError(`${prefix}${err.message}`);
    return err;
  };
  return {
    write(chunk: Uint8Array) {
      try {
        outer.write(chunk);
      } catch (err) {
        throw asBackupError(err);
      }
    },
    finish(): VerifiedBackup {
      try {
        outer.finish();
      } catch (err) {
        throw asBackupError(err);
      }
      if (!manifestBytes) throw new BackupError(`it holds no ${MANIFEST_ENTRY}`);
      let manifest: BackupManifest;
      try {
        manifest = JSON.parse(Buffer.concat(manifestBytes).toString("utf8")) as BackupManifest;
      } catch {
        throw new BackupError(`its ${MANIFEST_ENTRY} is not JSON`);
      }
      if (manifest.format !== BACKUP_FORMAT) throw new BackupError("it is not a Linewatch backup");
      if (manifest.version > BACKUP_VERSION)
        throw new BackupError(
          `it was written by a newer Linewatch (format ${manifest.version}): update first`,
        );
      if (!hasDatabase) throw new BackupError(`it holds no ${DATABASE_ENTRY}`);
      if (databaseBytes !== manifest.databaseBytes)
        throw new BackupError(
          `the database is ${databaseBytes} bytes, the manifest says ${manifest.databaseBytes}`,
        );
      if (hash.digest("hex") !== manifest.databaseSha256)
        throw new BackupError("the database does not match its checksum (the file is damaged)");
      try {
        database.finish();
      } catch (err) {
        throw asBackupError(err, "the database tarball is damaged: ");
      }
      return { manifest, encryptionKey: keyBytes && new Uint8Array(Buffer.concat(keyBytes)) };
    },
  };
}

/** Checks an (uncompressed) backup held in memory. */
export function verifyBackup(archive: Uint8Array): VerifiedBackup {
  const checker = backupChecker();
  checker.write(archive);
  return checker.finish();
}

/** Streams a backup file (gzipped) through `sink`, piece by piece; not gzip is a BackupError. */
async function streamBackupFile(file: string, sink: (chunk: Uint8Array) => void): Promise<void> {
  // The sink's own error (a damaged tar): pipeline may answer an AbortError in its place.
  let sinkError: unknown;
  try {
    await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        try {
          sink(chunk);
        } catch (err) {
          sinkError = err;
          throw err;
        }
      }
    });
  } catch (err) {
    if (sinkError) throw sinkError;
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (code.startsWith("Z_"))
      throw new BackupError(`it is not a complete gzipped file (${(err as Error).message})`);
    throw err;
  }
}

/** Checks a backup file through and through, reading it once from the disk. */
export async function checkBackupFile(file: string): Promise<VerifiedBackup> {
  const checker = backupChecker();
  await streamBackupFile(file, (chunk) => checker.write(chunk));
  return checker.finish();
}

/** A member's path inside the data folder ("/base/1/112" → "base/1/112"); refuses escapes. */
function memberPath(name: string): string {
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === ".."))
    throw new BackupError(`the database names a path outside its folder: ${name}`);
  return parts.join("/");
}

/** Writes a checked backup file's data folder into `dir` (a new, empty folder), streaming. */
export async function unpackBackupFile(file: string, dir: string): Promise<void> {
  let fd: number | undefined;
  const database = databaseReader({
    onEntry(rel, type) {
      if (!rel || NOT_DATABASE.has(rel)) return;
      const target = path.join(dir, rel);
      if (type === "directory") mkdirSync(target, { recursive: true, mode: 0o700 });
      else {
        mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        fd = openSync(target, "w", 0o600);
      }
    },
    onData(chunk) {
      if (fd !== undefined) writeSync(fd, chunk);
    },
    onEnd() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  });
  const outer = new TarReader({
    data: (h, chunk) => {
      if (h.name === DATABASE_ENTRY) database.write(chunk);
    },
  });
  try {
    await streamBackupFile(file, (chunk) => outer.write(chunk));
    outer.finish();
    database.finish();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
