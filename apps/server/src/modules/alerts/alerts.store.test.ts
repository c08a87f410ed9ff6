// alerts.store.ts is the one writer of alert state (issue 30): this scan of the server's sources
// finds a write to the alert, alert-event, outbox or delivery-attempt tables anywhere else.
import { getTableName } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { scanServerWrites, tableWrites } from "../../../test/helpers/table-writes.js";
import { alertEvents, alerts, notificationAttempts, notificationOutbox } from "../../db/schema/index.js";

const TABLES = { alerts, alertEvents, notificationOutbox, notificationAttempts };
const STORE = "modules/alerts/alerts.store.ts";
const EXCEPTED = ["db/migrations/"];
const writes = (text: string) => tableWrites(text, TABLES);

describe("the alerts store is the one writer of alert state", () => {
  it("finds drizzle and SQL writes to its tables, and not reads", () => {
    expect(writes("await tx.update(alerts).set({ cleanStreak: 0 })")).toHaveLength(1);
    expect(writes("await tx.insert( alertEvents ).values(e)")).toHaveLength(1);
    expect(writes("db.delete(notificationOutbox)")).toHaveLength(1);
    expect(writes("sql`INSERT INTO alert_events (alert_id) values (1)`")).toHaveLength(1);
    expect(writes("sql`update alerts a set state = 'RESOLVED'`")).toHaveLength(1);
    expect(writes("sql`delete from notification_attempts where true`")).toHaveLength(1);
    expect(writes("await tx.select().from(alerts).where(eq(alerts.id, id))")).toEqual([]);
    expect(writes("sql`select * from alerts join alert_events on true`")).toEqual([]);
    // Other tables whose names begin alike are not the store's.
    expect(writes("tx.update(alertsConfig); sql`update alerts_archive set x = 1`")).toEqual([]);
  });

  it("no server source but alerts.store.ts writes alerts, alert events, outbox rows or delivery attempts", () => {
    const scanned = scanServerWrites(TABLES).filter(({ file }) => !/\.test\.tsx?$/.test(file));
    const elsewhere = scanned
      .filter(({ file }) => file !== STORE && !EXCEPTED.some((dir) => file.startsWith(dir)))
      .flatMap(({ file, writes }) => writes.map((w) => `${file}: ${w}`));
    expect(elsewhere).toEqual([]);
    // The scan reads what it should: the store's own writes, of every table.
    const own = scanned.find(({ file }) => file === STORE)?.writes.join("\n") ?? "";
    for (const [js, table] of Object.entries(TABLES))
      expect(own, `a write of ${getTableName(table)}`).toMatch(
        new RegExp(`\\b(${js}|${getTableName(table)})\\b`),
      );
  });
});
