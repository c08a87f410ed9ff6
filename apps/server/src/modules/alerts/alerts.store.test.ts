// alerts.store.ts is the one writer of alert state (issue 30): this scan of the server's sources
// finds a write to the alert, alert-event, outbox or delivery-attempt tables anywhere else.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const STORE = path.join("modules", "alerts", "alerts.store.ts");

/** Drizzle's table objects and the SQL names of the tables the store owns. */
const TABLE_OBJECTS = ["alerts", "alertEvents", "notificationOutbox", "notificationAttempts"];
const TABLE_NAMES = ["alerts", "alert_events", "notification_outbox", "notification_attempts"];

const DRIZZLE_WRITE = new RegExp(`\\.(insert|update|delete)\\(\\s*(${TABLE_OBJECTS.join("|")})\\s*\\)`, "g");
const SQL_WRITE = new RegExp(
  `\\b(insert\\s+into|update|delete\\s+from)\\s+(${TABLE_NAMES.join("|")})\\b`,
  "gi",
);

/** Writes to the store's tables in a source text, as "line: text". */
function alertStateWrites(source: string): string[] {
  const found: string[] = [];
  for (const pattern of [DRIZZLE_WRITE, SQL_WRITE]) {
    for (const match of source.matchAll(pattern)) {
      const line = source.slice(0, match.index).split("\n").length;
      found.push(`${line}: ${match[0].replace(/\s+/g, " ")}`);
    }
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe("the alerts store is the one writer of alert state", () => {
  it("finds drizzle and SQL writes to its tables, and not reads", () => {
    expect(alertStateWrites("await tx.update(alerts).set({ cleanStreak: 0 })")).toHaveLength(1);
    expect(alertStateWrites("await tx.insert( alertEvents ).values(e)")).toHaveLength(1);
    expect(alertStateWrites("db.delete(notificationOutbox)")).toHaveLength(1);
    expect(alertStateWrites("sql`INSERT INTO alert_events (alert_id) values (1)`")).toHaveLength(1);
    expect(alertStateWrites("sql`update alerts a set state = 'RESOLVED'`")).toHaveLength(1);
    expect(alertStateWrites("sql`delete from notification_attempts where true`")).toHaveLength(1);
    expect(alertStateWrites("await tx.select().from(alerts).where(eq(alerts.id, id))")).toEqual([]);
    expect(alertStateWrites("sql`select * from alerts join alert_events on true`")).toEqual([]);
    // Other tables whose names begin alike are not the store's.
    expect(alertStateWrites("tx.update(alertsConfig); sql`update alerts_archive set x = 1`")).toEqual([]);
  });

  it("no server source but alerts.store.ts writes alerts, alert events, outbox rows or delivery attempts", () => {
    const files = sources(SRC);
    expect(files).toContain(path.join(SRC, STORE));
    const elsewhere = files
      .filter((file) => path.relative(SRC, file) !== STORE)
      .flatMap((file) =>
        alertStateWrites(readFileSync(file, "utf8")).map((w) => `${path.relative(SRC, file)}:${w}`),
      );
    expect(elsewhere).toEqual([]);
    expect(alertStateWrites(readFileSync(path.join(SRC, STORE), "utf8")).length).toBeGreaterThan(0);
  });
});
