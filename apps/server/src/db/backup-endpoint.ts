// The running server's backup endpoint (embedded database only). PGlite is one process's
// database, so `npm run backup` cannot open the folder while the product runs: it asks the
// process holding it. The endpoint listens on loopback only, on a port the system picks, and
// answers only a request carrying the token that process wrote, with the port, into
// DATA_DIR/backup-endpoint.json (mode 0600, new at every start): whoever can read the data folder
// can back it up, nobody else — as `influx backup` needs the operator token. It is no API route:
// a backup holds every customer's data, which no user of the product may take, and the ingest or
// worker role alone (no API) holds the database too.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Logger } from "../lib/logger.js";
import { ENDPOINT_FILE, type KeySource, takeBackup } from "./backup.js";
import { type PgliteThread, SnapshotBusyError } from "./pglite-thread.js";

/** What the endpoint file holds. */
export type BackupEndpoint = { pid: number; url: string; token: string };

export type BackupEndpointOptions = {
  dataDir: string;
  client: PgliteThread;
  keySource: KeySource;
  logger: Logger;
};

function isToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, "") ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Starts the endpoint and writes its file; `close` stops it and removes the file. */
export async function startBackupEndpoint(opts: BackupEndpointOptions): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(32).toString("base64url");
  const file = path.join(opts.dataDir, ENDPOINT_FILE);
  let isBusy = false;
  const server = http.createServer((req, res) => {
    const answer = (status: number, message: string) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ message }));
    };
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "POST" || url.pathname !== "/backup") return answer(404, "Not found");
    if (!isToken(req.headers.authorization, token)) return answer(401, "Wrong or missing token");
    if (isBusy) return answer(409, "A backup is already being taken");
    isBusy = true;
    const started = Date.now();
    void (async () => {
      try {
        const { manifest, pieces, pauseMs } = await takeBackup(opts.client, {
          dataDir: opts.dataDir,
          keySource: opts.keySource,
          includeKey: url.searchParams.get("key") !== "0",
        });
        res.writeHead(200, {
          "content-type": "application/x-tar",
          "x-linewatch-manifest": JSON.stringify(manifest),
        });
        await pipeline(Readable.from(pieces), res);
        opts.logger.info(
          {
            bytes: manifest.databaseBytes,
            partRecords: manifest.counts.partRecords,
            ms: Date.now() - started,
            // How long transactions (ingestion's commits) waited for the copy.
            pauseMs: Math.round(pauseMs.checkpoint + pauseMs.queries + pauseMs.dump),
          },
          "backup taken",
        );
      } catch (err) {
        opts.logger.error({ reason: (err as Error).message }, "backup failed");
        if (!res.headersSent)
          answer(
            err instanceof SnapshotBusyError ? 503 : 500,
            `The backup failed: ${(err as Error).message}`,
          );
        else res.destroy();
      } finally {
        isBusy = false;
      }
    })();
  });
  // A transfer nobody reads (a suspended command) is dropped after 2 minutes without progress,
  // rather than holding the database's copy in memory and the endpoint busy.
  server.setTimeout(120_000);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint: BackupEndpoint = { pid: process.pid, url: `http://127.0.0.1:${port}/backup`, token };
  // A file a crashed process left behind names a dead pid: replaced.
  rmSync(file, { force: true });
  try {
    writeFileSync(file, `${JSON.stringify(endpoint)}\n`, { flag: "wx", mode: 0o600 });
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  }
  return {
    async close() {
      rmSync(file, { force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
