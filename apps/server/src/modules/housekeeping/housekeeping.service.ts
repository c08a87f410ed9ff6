/**
 * Housekeeping: rows that only ever grow unless something removes them. Sign-in failures older
 * than the sign-in window count for nothing (an email never tried again would keep its rows for
 * ever), sessions past their idle or absolute limit can never be used again, and dead letters are
 * kept 30 days. Part records' monthly partitions are created ahead, and records the default
 * partition took moved into theirs (db/partitions.ts). Every statement is idempotent,
 * so several worker processes may run it at once.
 * Then each customer's data retention (modules/retention: part records, evaluations, resolved
 * alerts, the audit log past the horizons its administrators set), in small batches that skip
 * what another worker's run holds.
 */
import { LOGIN_LIMIT, SESSION_LIMITS } from "@linewatch/contracts";
import { lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { describeDbError } from "../../db/errors.js";
import { maintainPartitions } from "../../db/partitions.js";
import { loginFailures, sessions } from "../../db/schema/index.js";
import type { Logger } from "../../lib/logger.js";
import { createPartRecordsRepo } from "../part-records/part-records.repo.js";
import { runRetention } from "../retention/retention.service.js";

export const HOUSEKEEPING = {
  /** How often the worker runs it (and once at start). */
  everyMs: 3_600_000,
  deadLetterRetentionMs: 30 * 24 * 3_600_000,
} as const;

export type PruneCounts = { loginFailures: number; sessions: number; deadLetters: number };

/** Deletes what has expired at `now`; answers how many rows of each kind went. */
export async function pruneExpired(db: Db, now: Date): Promise<PruneCounts> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const failures = await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, before(LOGIN_LIMIT.windowMs)))
    .returning({ id: loginFailures.id });
  const expired = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.lastSeenAt, before(SESSION_LIMITS.idleMs)),
        lt(sessions.createdAt, before(SESSION_LIMITS.absoluteMs)),
      ),
    )
    .returning({ tokenHash: sessions.tokenHash });
  const letters = await createPartRecordsRepo(db).deleteDeadLettersBefore(
    before(HOUSEKEEPING.deadLetterRetentionMs),
  );
  return { loginFailures: failures.length, sessions: expired.length, deadLetters: letters };
}

/**
 * Runs pruneExpired and the retention run now and then every `everyMs`; a failure is logged and
 * tried again next time. `vacuum`: VACUUM after the retention deletes (PGlite, which has no
 * autovacuum). `stop` ends a retention run between two batches.
 */
export function startHousekeeping(opts: {
  db: Db;
  logger: Logger;
  now?: () => Date;
  everyMs?: number;
  vacuum?: boolean;
}): {
  stop(): Promise<void>;
} {
  const now = opts.now ?? (() => new Date());
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const run = () => {
    // One run at a time in a process: a run longer than the period is not started twice.
    if (busy) return;
    busy = true;
    running = (async () => {
      try {
        const counts = await pruneExpired(opts.db, now());
        opts.logger.info({ ...counts }, "housekeeping: expired rows removed");
        const partitions = await maintainPartitions(opts.db, now());
        if (partitions.created.length || partitions.moved)
          opts.logger.info({ ...partitions }, "housekeeping: part record partitions created");
        const retained = await runRetention(opts.db, now(), { vacuum: opts.vacuum, signal: stopping.signal });
        opts.logger.info({ ...retained }, "housekeeping: rows past their retention removed");
      } catch (err) {
        opts.logger.warn({ reason: describeDbError(err) }, "housekeeping failed");
      } finally {
        busy = false;
      }
    })();
  };
  run();
  const timer = setInterval(run, opts.everyMs ?? HOUSEKEEPING.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
