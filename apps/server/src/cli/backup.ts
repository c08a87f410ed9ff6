/**
 * Writes a consistent backup of the embedded database, while the product runs or not:
 *
 *   npm run backup -- --out FILE [--without-key] [--data-dir DIR]
 *
 * While a server holds DATA_DIR it asks that server (db/backup-endpoint.ts: loopback, with the
 * token in DATA_DIR); when none does, it opens the folder itself. FILE appears only complete and
 * checked (a temporary file beside it, renamed). On PostgreSQL (DATABASE_URL) it points to pg_dump.
 */
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  constants as fsConstants,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import { loadConfig } from "../config.js";
import {
  BackupError,
  type BackupManifest,
  checkBackupFile,
  ENDPOINT_FILE,
  takeBackup,
} from "../db/backup.js";
import type { BackupEndpoint } from "../db/backup-endpoint.js";
import { dataDirHolder, lockDataDir } from "../db/client.js";
import { openPgliteThread } from "../db/pglite-thread.js";
import { runIfEntryPoint } from "./run-command.js";

export const POSTGRES_BACKUP_MESSAGE =
  'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g. `pg_dump -Fc -f linewatch.dump "$DATABASE_URL"`, and keep ENCRYPTION_KEY with it (README, Backups).';

export type BackupOptions = {
  out: string;
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Carry DATA_DIR/encryption.key in the backup (default true). */
  includeKey?: boolean;
  /** The ENCRYPTION_KEY of an offline backup's environment (the server's own is known to it). */
  encryptionKey?: string | undefined;
};

export type BackupResult = {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  ms: number;
  /** Who took the copy: the running server, or this process on a stopped product's folder. */
  takenBy: { server: number } | "this process";
};

/** The running server's endpoint, if a live process wrote one into the folder. */
function runningEndpoint(dataDir: string): BackupEndpoint | undefined {
  const file = path.join(dataDir, ENDPOINT_FILE);
  if (!existsSync(file)) return undefined;
  // While the file exists a server may hold the folder, whatever its pid says here (another
  // container's pid namespace, a reused pid): the backup goes through its endpoint or not at all,
  // never by opening the folder beside it. A server that stopped removes the file.
  return JSON.parse(readFileSync(file, "utf8")) as BackupEndpoint;
}

/**
 * The temporary file is created, never opened if it exists or through a symbolic link: in a folder
 * others can write to, a file or link planted under its name would otherwise receive the backup.
 */
const EXCLUSIVE = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;
const exclusiveStream = (file: string) => createWriteStream(file, { fd: openSync(file, EXCLUSIVE, 0o600) });

async function fromServer(endpoint: BackupEndpoint, includeKey: boolean, tmp: string) {
  let res: Response;
  try {
    res = await fetch(`${endpoint.url}${includeKey ? "" : "?key=0"}`, {
      method: "POST",
      headers: { authorization: `Bearer ${endpoint.token}` },
    });
  } catch (err) {
    throw new BackupError(
      `The server (process ${endpoint.pid}) holds the data folder but its backup endpoint does not answer (${(err as Error).cause ?? (err as Error).message}): is it starting or stopping? Try again. If you are sure no Linewatch process uses this folder (it was killed), delete ${ENDPOINT_FILE} in it and run the backup again.`,
    );
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new BackupError(`The server refused the backup (${res.status}): ${body.message ?? res.statusText}`);
  }
  try {
    await pipeline(Readable.fromWeb(res.body as never), createGzip(), exclusiveStream(tmp));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.syscall && e.path === tmp) throw new BackupError(`Cannot write ${tmp}: ${e.message}`);
    throw new BackupError(
      `The backup was cut off (${e.message}): did the server stop? Nothing was written to the file.`,
    );
  }
}

async function fromFolder(opts: BackupOptions, includeKey: boolean, tmp: string) {
  if (!existsSync(path.join(opts.dataDir, "PG_VERSION")))
    throw new BackupError(
      `There is no embedded database in ${opts.dataDir}: set DATA_DIR (or --data-dir) to the product's data folder. (On PostgreSQL, set DATABASE_URL as the product has it; the backup is pg_dump's.)`,
    );
  const unlock = lockDataDir(opts.dataDir);
  try {
    const client = await openPgliteThread(opts.dataDir);
    try {
      const { pieces } = await takeBackup(client, {
        dataDir: opts.dataDir,
        keySource: opts.encryptionKey ? "ENCRYPTION_KEY" : "file",
        includeKey,
      });
      await pipeline(Readable.from(pieces), createGzip(), exclusiveStream(tmp));
    } finally {
      await client.close();
    }
  } finally {
    unlock();
  }
}

/** Takes the backup into a temporary file beside `out`, checks it, then renames it to `out`. */
export async function backup(opts: BackupOptions): Promise<BackupResult> {
  if (opts.databaseUrl) throw new BackupError(POSTGRES_BACKUP_MESSAGE);
  const started = Date.now();
  const out = path.resolve(opts.out);
  if (!existsSync(path.dirname(out))) throw new BackupError(`The folder ${path.dirname(out)} does not exist`);
  const tmp = path.join(
    path.dirname(out),
    `.${path.basename(out)}.${process.pid}.${randomBytes(6).toString("hex")}.partial`,
  );
  const includeKey = opts.includeKey ?? true;
  try {
    const endpoint = runningEndpoint(opts.dataDir);
    let takenBy: BackupResult["takenBy"] = "this process";
    if (endpoint) {
      await fromServer(endpoint, includeKey, tmp);
      takenBy = { server: endpoint.pid };
    } else {
      const holder = dataDirHolder(opts.dataDir);
      if (holder !== undefined)
        throw new BackupError(
          `Process ${holder} holds the embedded database in ${opts.dataDir} but offers no backup endpoint (a Linewatch older than this command?): stop it and run the backup again, which then copies the stopped database.`,
        );
      await fromFolder(opts, includeKey, tmp);
    }
    const file = await open(tmp, "r+");
    try {
      await file.sync();
    } finally {
      await file.close();
    }
    // What restore will read, read back from the disk: a file that does not verify is no backup.
    const { manifest } = await checkBackupFile(tmp);
    const bytes = statSync(tmp).size;
    renameSync(tmp, out);
    return { file: out, bytes, manifest, ms: Date.now() - started, takenBy };
  } finally {
    rmSync(tmp, { force: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What the operator reads once the backup is written. */
export function describeBackup(r: BackupResult): string[] {
  const m = r.manifest;
  const key = {
    included:
      "the encryption key (DATA_DIR/encryption.key) is in the backup: keep the file as safe as the data folder",
    ENCRYPTION_KEY:
      "the encryption key is NOT in the backup: the server uses ENCRYPTION_KEY, keep that value with the backup",
    "left out":
      "the encryption key is NOT in the backup (--without-key): keep DATA_DIR/encryption.key with the backup, or saved Teams and ETQ secrets cannot be read after a restore",
  }[m.encryptionKey];
  return [
    `Backup written: ${r.file}`,
    `  ${mb(r.bytes)} (database ${mb(m.databaseBytes)} uncompressed) in ${(r.ms / 1000).toFixed(1)} s, taken by ${
      r.takenBy === "this process"
        ? "this process (no server was running)"
        : `the running server (process ${r.takenBy.server})`
    }`,
    `  as of ${m.takenAt}: ${m.counts.partRecords} part records, ${m.counts.customers} customers, ${m.counts.migrations} migrations`,
    `  ${key}`,
  ];
}

const USAGE = `Usage: npm run backup -- --out FILE [--without-key] [--data-dir DIR]

  --out          the backup file to write (a gzipped tar), e.g. linewatch-$(date +%F).tar.gz
  --without-key  leave DATA_DIR/encryption.key out of the backup (keep it elsewhere yourself)
  --data-dir     the product's data folder (default DATA_DIR, else ./data)

Backs up the embedded database while the product runs (the running server takes the copy) or
while it is stopped (this command opens the folder). On PostgreSQL (DATABASE_URL) use pg_dump.
Restore with: npm run restore -- FILE`;

async function main(argv: string[]): Promise<number> {
  let values: { out?: string; "without-key"?: boolean; "data-dir"?: string; help?: boolean };
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: "string" },
        "without-key": { type: "boolean" },
        "data-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    console.error(`Error: ${(err as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(`Error: --out FILE is required\n\n${USAGE}`);
    return 1;
  }
  const config = loadConfig(process.env, []);
  const base = process.env.INIT_CWD ?? process.cwd();
  try {
    const result = await backup({
      out: path.resolve(base, values.out),
      dataDir: values["data-dir"] ? path.resolve(base, values["data-dir"]) : config.dataDir,
      databaseUrl: config.databaseUrl,
      includeKey: !values["without-key"],
      encryptionKey: config.encryptionKey,
    });
    for (const line of describeBackup(result)) console.log(line);
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(`Error: ${err.message}`);
    return 1;
  }
}

runIfEntryPoint(import.meta.url, main);
