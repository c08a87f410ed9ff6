import { createHash, timingSafeEqual } from "node:crypto";
import { withTimeout } from "../../lib/metrics.js";

/** One thing a process needs to do its work; rejects (with the reason) when it cannot. */
export type ReadinessCheck = () => Promise<void>;

/** A check that does not answer within this is "not ready" (a probe must not hang). */
export const READY_TIMEOUT_MS = 2_000;

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether the Authorization header carries the token; constant time whatever either's length. */
export function isMetricsToken(header: string | undefined, token: string): boolean {
  const given = header?.startsWith("Bearer ") ? header.slice(7).trim() : "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

export interface Readiness {
  readonly isReady: boolean;
  /** The checks that failed, by name. */
  readonly notReady: string[];
  /** Each check's outcome: "ok", or why it failed ("failing" unless `withReasons`). */
  readonly checks: Record<string, string>;
  /** The failed checks' reasons, for the log. */
  readonly failures: Record<string, string>;
}

/**
 * Runs every check at once, each within READY_TIMEOUT_MS. The reasons (a database's address, its
 * refusal) are shown only `withReasons` (to whoever holds the metrics token); anyone else who can
 * reach the port reads only which check fails.
 */
export async function readiness(
  checks: Record<string, ReadinessCheck>,
  withReasons: boolean,
): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), READY_TIMEOUT_MS, name);
        return [name, "ok"] as const;
      } catch (err) {
        return [name, err instanceof Error ? err.message : String(err)] as const;
      }
    }),
  );
  const failed = entries.filter(([, v]) => v !== "ok");
  return {
    isReady: failed.length === 0,
    notReady: failed.map(([k]) => k),
    checks: Object.fromEntries(entries.map(([k, v]) => [k, v === "ok" || withReasons ? v : "failing"])),
    failures: Object.fromEntries(failed),
  };
}
