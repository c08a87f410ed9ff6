/**
 * What a database failure means for the caller: is it this data the database refuses (retrying
 * the same statement fails the same way), or the database being away for now (retry later)?
 *
 * Drizzle wraps driver errors in a DrizzleQueryError whose message holds the statement and its
 * parameters — part records, emails. Never log that message: log `describeDbError` instead.
 */

type Coded = { code?: unknown; message?: unknown; cause?: unknown };

/** The PostgreSQL SQLSTATE (or Node's socket error code) behind an error, through its causes. */
export function dbErrorCode(err: unknown): string | undefined {
  for (let e = err as Coded | undefined, depth = 0; e && depth < 5; e = e.cause as Coded, depth++) {
    if (typeof e.code === "string") return e.code;
  }
  return undefined;
}

function rootMessage(err: unknown): string {
  let e = err as Coded | undefined;
  for (let depth = 0; e?.cause && depth < 5; depth++) e = e.cause as Coded;
  return typeof e?.message === "string" ? e.message : String(err);
}

// SQLSTATE classes of a database that is unreachable, shutting down, overloaded or in conflict
// with another transaction: 08 connection exception, 40 transaction rollback (serialization,
// deadlock), 53 insufficient resources, 57 operator intervention (shutdown, cancel), 58 system
// error. Any other SQLSTATE is the statement's own (22 data exception, 23 constraint, …).
const TRANSIENT_CLASSES = new Set(["08", "40", "53", "57", "58"]);
// Errors without a SQLSTATE that mean the connection is gone (node-postgres, PGlite, sockets).
const CONNECTION_GONE =
  /connection terminated|connection error|connection ended|timeout exceeded when trying to connect|cannot use a pool after calling end|client has encountered a connection error|pglite is closed|econnrefused|econnreset|etimedout|epipe/i;

// A row routed to a table's default partition while housekeeping attached the partition of its
// month (db/partitions.ts): the same row goes to the new partition when tried again.
const DEFAULT_PARTITION_RACE = /^new row for relation "\w+_default" violates partition constraint/;

/** True when retrying later may succeed: the database is away or busy, not refusing the data. */
export function isTransientDbError(err: unknown): boolean {
  const code = dbErrorCode(err);
  if (code === "23514" && DEFAULT_PARTITION_RACE.test(rootMessage(err))) return true;
  if (code && /^[0-9A-Z]{5}$/.test(code)) return TRANSIENT_CLASSES.has(code.slice(0, 2));
  if (code?.startsWith("E")) return true; // ECONNRESET, ECONNREFUSED, ETIMEDOUT, EPIPE…
  return CONNECTION_GONE.test(rootMessage(err));
}

/**
 * One line about a database failure without the statement or its parameters:
 * `SQLSTATE 22021: invalid byte sequence for encoding "UTF8": 0x00`. Quoted values in the
 * driver's message are elided, since they can be the refused data itself.
 */
export function describeDbError(err: unknown): string {
  const code = dbErrorCode(err);
  const message = rootMessage(err)
    .split("\n")[0]
    ?.replace(/: "(?:[^"\\]|\\.)*"$/, "")
    .slice(0, 200);
  return code ? `SQLSTATE ${code}: ${message}` : (message ?? "unknown error");
}

/**
 * An error as a log field: its type, `describeDbError` and the stack's frames — not its message
 * as written, which for a failed query carries the statement's parameters.
 */
export function loggableError(err: unknown) {
  const stack = err instanceof Error ? (err.stack ?? "") : "";
  return {
    type: err instanceof Error ? err.name : typeof err,
    message: describeDbError(err),
    stack: stack
      .split("\n")
      .filter((line) => line.trimStart().startsWith("at "))
      .join("\n"),
  };
}
