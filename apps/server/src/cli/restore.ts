/**
 * Brings back a backup of the embedded database (npm run backup) while the product is stopped:
 *
 *   npm run restore -- FILE [--data-dir DIR] [--force]
 *
 * Checks the whole file first, unpacks it into a new folder beside the data folder, opens it there
 * (newer migrations are applied, as at start-up) and only then puts it in place. A data folder
 * that holds something is moved aside (DIR.before-restore-<time>) with --force, never deleted. On
 * PostgreSQL (DATABASE_URL) it points to pg_restore.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { loadConfig } from "../config.js";
import { BackupError, type BackupManifest, checkBackupFile, unpackBackupFile } from "../db/backup.js";
import { dataDirHolder, lockDataDir, openDatabase, rowsOf } from "../db/client.js";
import { KEY_FILE } from "../lib/crypto.js";
import { runIfEntryPoint } from "./run-command.js";

export const POSTGRES_RESTORE_MESSAGE =
  'The database is PostgreSQL (DATABASE_URL): restore a pg_dump with pg_restore, e.g. `pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" linewatch.dump`, with the product stopped (README, Backups).';

export type RestoreOptions = {
  file: string;
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Move a data folder that holds something aside instead of refusing. */
  force?: boolean;
  now?: () => Date;
};

export type RestoreResult = {
  dataDir: string;
  /** Where the folder that was there went (--force). */
  movedAside: string | undefined;
  manifest: BackupManifest;
  /** Counted in the restored database after it opened. */
  partRecords: number;
  /** Migrations applied on opening (the backup was older than this version). */
  migrationsApplied: number;
};

async function checkFile(file: string) {
  if (!existsSync(file)) throw new BackupError(`There is no file ${file}`);
  try {
    return await checkBackupFile(file);
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    throw new BackupError(`${file} is not a usable Linewatch backup: ${err.message}. Nothing was changed.`);
  }
}

function refuseIfRunning(dataDir: string) {
  const holder = dataDirHolder(dataDir);
  if (holder !== undefined)
    throw new BackupError(
      `The product is running on ${dataDir} (process ${holder}): stop it before restoring. Nothing was changed.`,
    );
}

/** Checks the backup, restores it into `dataDir` and opens it there once. */
export async function restore(opts: RestoreOptions): Promise<RestoreResult> {
  if (opts.databaseUrl) throw new BackupError(POSTGRES_RESTORE_MESSAGE);
  const dataDir = path.resolve(opts.dataDir);
  const file = path.resolve(opts.file);
  const backup = await checkFile(file);
  refuseIfRunning(dataDir);
  const isOccupied = existsSync(dataDir) && readdirSync(dataDir).length > 0;
  if (isOccupied && !opts.force)
    throw new BackupError(
      `${dataDir} is not empty: restore into a new folder (--data-dir), or add --force to move what is there aside. Nothing was changed.`,
    );

  // A sibling, so that the last step is a rename on one file system.
  const staging = `${dataDir}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  let partRecords: number;
  let migrationsApplied: number;
  try {
    await unpackBackupFile(file, staging);
    if (backup.encryptionKey)
      writeFileSync(path.join(staging, KEY_FILE), backup.encryptionKey, { mode: 0o600 });
    // Opening it is the last check, and applies the migrations this version has and it lacks.
    const database = await openDatabase({ dataDir: staging });
    try {
      const [row] = rowsOf<{ records: number; migrations: number }>(
        await database.db.execute(
          sql`select (select count(*)::int from part_records) as records,
                     (select count(*)::int from drizzle."__drizzle_migrations") as migrations`,
        ),
      );
      partRecords = row?.records ?? 0;
      migrationsApplied = (row?.migrations ?? 0) - backup.manifest.counts.migrations;
    } finally {
      await database.close();
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(
      `The backup does not open as a database: ${(err as Error).message}. Nothing was changed.`,
    );
  }

  let movedAside: string | undefined;
  let unlock = () => {};
  try {
    // A server may have started meanwhile (a restarter): the folder's lock is taken for the swap,
    // so one starting now is refused instead of opening the folder that is being replaced.
    refuseIfRunning(dataDir);
    if (existsSync(dataDir)) {
      try {
        unlock = lockDataDir(dataDir);
      } catch (err) {
        throw new BackupError(`${(err as Error).message} Nothing was changed.`);
      }
    }
    if (isOccupied) {
      const stamp = (opts.now?.() ?? new Date()).toISOString().replace(/[:.]/g, "-");
      const aside = `${dataDir}.before-restore-${stamp}`;
      renameSync(dataDir, aside);
      movedAside = aside;
      // The lock went along; the folder aside is nobody's.
      rmSync(path.join(aside, "linewatch.pid"), { force: true });
    } else if (existsSync(dataDir)) rmSync(dataDir, { recursive: true });
    renameSync(staging, dataDir);
  } catch (err) {
    unlock();
    rmSync(staging, { recursive: true, force: true });
    // The old folder goes back where it was, if it can.
    if (movedAside && !existsSync(dataDir)) {
      try {
        renameSync(movedAside, dataDir);
        movedAside = undefined;
      } catch {
        // it stays aside, and the message says where
      }
    }
    if (err instanceof BackupError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    // A mount point (a Docker volume) cannot be renamed, nor a folder moved across file systems.
    const hint =
      code === "EXDEV" || code === "EBUSY"
        ? ` ${dataDir} looks like a mount point: the restore unpacks beside it and renames, so mount the folder above it, or point DATA_DIR at a folder inside the mount.`
        : "";
    throw new BackupError(
      `Cannot put the restored database in place: ${(err as Error).message}.${hint}${movedAside ? ` The folder that was there is now ${movedAside}.` : " Nothing was changed."}`,
    );
  }
  return { dataDir, movedAside, manifest: backup.manifest, partRecords, migrationsApplied };
}

/** What the operator reads once the database is back. */
export function describeRestore(r: RestoreResult): string[] {
  const m = r.manifest;
  const key = {
    included: `The encryption key came with the backup (${path.join(r.dataDir, KEY_FILE)}); ENCRYPTION_KEY, when set, still wins.`,
    ENCRYPTION_KEY:
      "WARNING: the backup holds no encryption key: its server used ENCRYPTION_KEY. Start the product with the same ENCRYPTION_KEY, or saved Teams and ETQ secrets cannot be read.",
    "left out": `WARNING: the backup holds no encryption key (it was taken --without-key). Put the original encryption.key into ${r.dataDir} (or set ENCRYPTION_KEY) before starting, or a new key is made and saved Teams and ETQ secrets cannot be read.`,
  }[m.encryptionKey];
  return [
    `Restored the backup of ${m.takenAt} into ${r.dataDir}`,
    `  ${r.partRecords} part records, ${m.counts.customers} customers${
      r.migrationsApplied > 0 ? `; ${r.migrationsApplied} newer migrations applied` : ""
    }`,
    ...(r.movedAside ? [`  The folder that was there is now ${r.movedAside}`] : []),
    `  ${key}`,
    "Start the product as usual (npm start).",
  ];
}

const USAGE = `Usage: npm run restore -- FILE [--data-dir DIR] [--force]

  FILE        a backup written by npm run backup
  --data-dir  the data folder to restore into (default DATA_DIR, else ./data)
  --force     when the folder holds something, move it aside (DIR.before-restore-<time>)

Stop the product first. The backup is checked before anything is touched. On PostgreSQL
(DATABASE_URL) use pg_restore.`;

async function main(argv: string[]): Promise<number> {
  let parsed: { values: { "data-dir"?: string; force?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        "data-dir": { type: "string" },
        force: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    console.error(`Error: ${(err as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`Error: give one backup FILE\n\n${USAGE}`);
    return 1;
  }
  const config = loadConfig(process.env, []);
  const base = process.env.INIT_CWD ?? process.cwd();
  try {
    const result = await restore({
      file: path.resolve(base, positionals[0] ?? ""),
      dataDir: values["data-dir"] ? path.resolve(base, values["data-dir"]) : config.dataDir,
      databaseUrl: config.databaseUrl,
      force: values.force,
    });
    for (const line of describeRestore(result)) console.log(line);
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(`Error: ${err.message}`);
    return 1;
  }
}

runIfEntryPoint(import.meta.url, main);
