/**
 * Housekeeping: rows that only ever grow unless something removes them. Sign-in failures older
 * than the sign-in window count for nothing (an email never tried again would keep its rows for
 * ever), sessions past their idle or absolute limit can never be used again, and dead letters are
 * kept 30 days. Every statement is idempotent, so several worker processes may run it at once.
 */
import { LOGIN_LIMIT, SESSION_LIMITS } from "@linewatch/contracts";
import { lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { describeDbError } from "../../db/errors.js";
import { loginFailures, sessions } from "../../db/schema/index.js";
import type { Logger } from "../../lib/logger.js";
import { createPartRecordsRepo } from "../part-records/part-records.repo.js";

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

/** Runs pruneExpired now and then every `everyMs`; a failure is logged and tried again next time. */
export function startHousekeeping(opts: { db: Db; logger: Logger; now?: () => Date; everyMs?: number }): {
  stop(): Promise<void>;
} {
  const now = opts.now ?? (() => new Date());
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = pruneExpired(opts.db, now()).then(
      (counts) => opts.logger.info({ ...counts }, "housekeeping: expired rows removed"),
      (err) => opts.logger.warn({ reason: describeDbError(err) }, "housekeeping failed"),
    );
  };
  run();
  const timer = setInterval(run, opts.everyMs ?? HOUSEKEEPING.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
