import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { bigint, integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "../../src/db/client.js";
import { dbErrorCode, describeDbError, isTransientDbError } from "../../src/db/errors.js";
import { openPgliteThread } from "../../src/db/pglite-thread.js";
import { createTestDataDir } from "../helpers/db.js";

// The embedded database runs in a worker thread (db/pglite-thread.ts): what the app gets back
// through it — values, transactions, errors — must be what PGlite on the app's own thread gave.

const things = pgTable("lw_thread_things", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
  at: timestamp("at", { withTimezone: true }),
  day: timestamp("day", { mode: "string" }),
  amount: numeric("amount"),
  big: bigint("big", { mode: "bigint" }),
  doc: jsonb("doc"),
  tags: text("tags").array(),
});
const CREATE = `create table lw_thread_things (id int primary key, name text not null unique,
  at timestamptz, day timestamp, amount numeric, big bigint, doc jsonb, tags text[])`;

const row = (id: number, name = `thing ${id}`) => ({
  id,
  name,
  at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
  day: "2026-01-02 03:04:05",
  amount: "12345678901234567890.125",
  big: 9007199254740993n,
  doc: { a: [1, "two", null], b: { c: true } },
  tags: ["x", "y,z", "NULL"],
});

// Values of many types, as a raw statement answers them (PGlite's own parsing).
const TYPES = sql`select now() as "now", '2026-01-02T03:04:05Z'::timestamptz as tstz,
  '2026-01-02 03:04:05'::timestamp as ts, '2026-01-02'::date as d, '1 day'::interval as iv,
  12345678901234::int8 as i8, 7::int2 as i2, 1.5::float8 as f8, 1.25::numeric as num,
  '{"k":[1,2]}'::json as js, '{"k":1}'::jsonb as jsb, array[1,2,3]::int[] as ints,
  array['2026-01-02T03:04:05Z'::timestamptz] as tstzs, array[1.5]::numeric[] as nums,
  '\\x0102ff'::bytea as by, true as bool, null::text as nothing, gen_random_uuid() is not null as uuid_ok`;

describe("PGlite in its own thread", () => {
  let database: Database;
  let reference: PGlite;
  let referenceDb: ReturnType<typeof drizzle>;

  beforeAll(async () => {
    // The run's migrated template (global-setup.ts): this file's own tables come on top.
    database = await openDatabase({ memory: true, template: inject("pgliteTemplate") || undefined });
    await database.db.execute(sql.raw(CREATE));
    reference = await PGlite.create();
    referenceDb = drizzle({ client: reference });
    await referenceDb.execute(sql.raw(CREATE));
  });
  afterAll(async () => {
    await database?.close();
    await reference?.close();
  });

  it("answers values of every type as PGlite on the app's thread does", async () => {
    const [mine] = rowsOf<Record<string, unknown>>(await database.db.execute(TYPES));
    const [theirs] = rowsOf<Record<string, unknown>>(await referenceDb.execute(TYPES));
    const { now: n1, ...a } = mine ?? {};
    const { now: n2, ...b } = theirs ?? {};
    expect(a).toEqual(b);
    expect(typeof n1).toBe(typeof n2);

    await database.db.insert(things).values(row(1));
    await referenceDb.insert(things).values(row(1));
    const got = await database.db.select().from(things).where(eq(things.id, 1));
    expect(got).toEqual(await referenceDb.select().from(things).where(eq(things.id, 1)));
    expect(got[0]?.at).toBeInstanceOf(Date);
    expect(got[0]?.big).toBe(9007199254740993n);
    expect(a.by).toEqual(new Uint8Array([1, 2, 255]));
  });

  it("commits a transaction, and rolls it back when it throws", async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(things).values(row(10));
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(things).values(row(11));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(things).values(row(12));
        tx.rollback();
      }),
    ).rejects.toThrow(/rollback/i);
    const ids = await database.db.select({ id: things.id }).from(things).orderBy(things.id);
    expect(ids.map((r) => r.id)).toEqual([1, 10]);
    await database.db.delete(things).where(eq(things.id, 10));
  });

  it("keeps a nested savepoint's rollback inside the outer transaction", async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(things).values(row(20));
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(things).values(row(21));
          throw new Error("inner only");
        }),
      ).rejects.toThrow("inner only");
      await tx.transaction(async (inner) => {
        await inner.insert(things).values(row(22));
      });
    });
    const ids = await database.db.select({ id: things.id }).from(things).orderBy(things.id);
    expect(ids.map((r) => r.id)).toEqual([1, 20, 22]);
    await database.db.delete(things).where(sql`${things.id} in (20, 22)`);
  });

  it("holds other callers' queries until an open transaction ends", async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let inserted = () => {};
    const insertedYet = new Promise<void>((r) => {
      inserted = r;
    });
    const txDone = database.db.transaction(async (tx) => {
      await tx.insert(things).values(row(30));
      inserted();
      await gate;
    });
    await insertedYet;
    const order: string[] = [];
    const outside = database.db
      .select({ id: things.id })
      .from(things)
      .where(eq(things.id, 30))
      .then((r) => {
        order.push("outside");
        return r;
      });
    // The outside query cannot answer while the transaction is open: it sees the commit.
    await new Promise((r) => setImmediate(r));
    order.push("release");
    release();
    await txDone;
    expect(await outside).toEqual([{ id: 30 }]);
    expect(order).toEqual(["release", "outside"]);
    await database.db.delete(things).where(eq(things.id, 30));
  });

  it("sends a background statement only between the others: a request overtakes queued bulk work", async () => {
    if (database.raw.kind !== "pglite") throw new Error("PGlite expected");
    const client = database.raw.client;
    const order: string[] = [];
    // A statement that keeps PGlite busy for a while, then two more in the background lane.
    const slow = "select count(*) as n from generate_series(1, 3000000)";
    const first = client.backgroundQuery(slow).then(() => order.push("background 1"));
    const second = client.backgroundQuery("select 2 as n").then(() => order.push("background 2"));
    // Sent while the first runs: PGlite answers it next, before the queued background statement
    // (one FIFO queue on the thread would have run "background 2" first).
    const request = client.query("select 3 as n").then(() => order.push("request"));
    await Promise.all([first, second, request]);
    expect(order).toEqual(["background 1", "request", "background 2"]);
  });

  it("brings PostgreSQL's error fields across: SQLSTATE, constraint, detail", async () => {
    const err = await database.db
      .insert(things)
      .values(row(40, "thing 1"))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(dbErrorCode(err)).toBe("23505");
    expect(isTransientDbError(err)).toBe(false);
    expect(describeDbError(err)).toMatch(/^SQLSTATE 23505: duplicate key value violates unique constraint/);
    const cause = (err as { cause?: Record<string, unknown> }).cause;
    expect(cause).toBeInstanceOf(Error);
    expect(cause?.constraint).toBe("lw_thread_things_name_key");
    expect(String(cause?.detail)).toContain("already exists");
    // Every field PGlite gives the same error on the app's thread, with the same value.
    const theirs = await referenceDb
      .insert(things)
      .values(row(40, "thing 1"))
      .then(
        () => undefined,
        (e: { cause?: object }) => e.cause,
      );
    const fields = Object.entries(theirs ?? {}).filter(
      ([k, v]) => k !== "queryOptions" && typeof v !== "object",
    );
    expect(fields.length).toBeGreaterThan(8);
    for (const [k, v] of fields) expect([k, cause?.[k]]).toEqual([k, v]);
    expect((cause as { message?: string }).message).toBe((theirs as { message?: string }).message);
    // The failed statement did not break the connection.
    expect(await database.db.$count(things)).toBe(1);
  });

  it("runs raw statements and COPY from a blob through `raw`", async () => {
    if (database.raw.kind !== "pglite") throw new Error("expected PGlite");
    const client = database.raw.client;
    const results = await client.exec("select 1 as one; select 'two' as two");
    expect(results.map((r) => r.rows)).toEqual([[{ one: 1 }], [{ two: "two" }]]);
    await client.query("COPY lw_thread_things (id, name) FROM '/dev/blob'", [], {
      blob: new Blob(["50\tfifty\n51\tfifty-one\n"]),
    });
    const array = await client.query<unknown[]>(
      "select id, name from lw_thread_things where id >= 50 order by id",
      [],
      {
        rowMode: "array",
      },
    );
    expect(array.rows).toEqual([
      [50, "fifty"],
      [51, "fifty-one"],
    ]);
  });

  it("ends the thread on close, after which queries fail as a closed database", async () => {
    // From the run's migrated template: a new database's initdb and migrations cost 6–9 s here.
    const other = await openDatabase({ memory: true, template: inject("pgliteTemplate") || undefined });
    await other.close();
    const err = await other.db.execute(sql`select 1`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTransientDbError(err)).toBe(true);
    expect(describeDbError(err)).toMatch(/PGlite is closed/);
  });

  describe("when the thread dies", () => {
    const failing = new URL("../helpers/failing-pglite.thread.js", import.meta.url);
    const failureOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as Error,
      );

    it("fails the waiting query and every later one, and tells onCrash once (an uncaught error)", async () => {
      const crashes: Error[] = [];
      const thread = await openPgliteThread(undefined, {
        threadFile: failing,
        onCrash: (e) => crashes.push(e),
      });
      const first = await failureOf(thread.query("select 1"));
      expect(first?.message).toMatch(/^PGlite is closed: its thread failed \(the module aborted\)/);
      expect(isTransientDbError(first)).toBe(true);
      const later = await failureOf(thread.query("select 2"));
      expect(later?.message).toBe(first?.message);
      expect(crashes.map((e) => e.message)).toEqual([first?.message]);
      expect(thread.closed).toBe(true);
      // close() on a dead thread returns once the thread's exit is seen: the exit after the error
      // must not count as a second crash.
      await thread.close();
      expect(crashes).toHaveLength(1);
    });

    it("tells onCrash when the thread exits by itself", async () => {
      const crashes: Error[] = [];
      const thread = await openPgliteThread(undefined, {
        threadFile: failing,
        onCrash: (e) => crashes.push(e),
      });
      const err = await failureOf(thread.query("exit"));
      expect(err?.message).toBe("PGlite is closed: its thread exited (code 3)");
      expect(crashes.map((e) => e.message)).toEqual([err?.message]);
    });

    // The statement test/helpers/crashable-pglite.thread.js dies on (kept in step by this test:
    // another text would be answered instead of crashing the thread).
    const CRASH_STATEMENT = "select 'crash the thread'";

    it("releases the folder's lock and tells onFatal, so a restart opens the same folder with its data", async () => {
      // A folder holding the run's migrated template (initdb and migrations would cost 6–9 s).
      const dir = createTestDataDir("lw-crash-");
      try {
        const fatal: Error[] = [];
        const first = await openDatabase({
          dataDir: dir,
          threadFile: new URL("../helpers/crashable-pglite.thread.js", import.meta.url),
          onFatal: (e) => fatal.push(e),
        });
        await first.db.execute(sql`create table lw_kept (n int)`);
        await first.db.execute(sql`insert into lw_kept values (42)`);
        // While it runs, the folder is locked against a second process.
        expect(existsSync(path.join(dir, "linewatch.pid"))).toBe(true);
        const err = await first.db.execute(sql.raw(CRASH_STATEMENT)).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(describeDbError(err)).toMatch(/PGlite is closed: its thread exited \(code 3\)/);
        expect(fatal.map((e) => e.message)).toEqual(["PGlite is closed: its thread exited (code 3)"]);
        expect(existsSync(path.join(dir, "linewatch.pid"))).toBe(false);
        await first.close();

        const again = await openDatabase({ dataDir: dir });
        try {
          expect(rowsOf<{ n: number }>(await again.db.execute(sql`select n from lw_kept`))).toEqual([
            { n: 42 },
          ]);
        } finally {
          await again.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("does not call a closed database crashed", async () => {
      const crashes: Error[] = [];
      const thread = await openPgliteThread(undefined, { onCrash: (e) => crashes.push(e) });
      expect((await thread.query<{ n: number }>("select 1 as n")).rows).toEqual([{ n: 1 }]);
      await thread.close();
      expect(crashes).toEqual([]);
    });
  });
});
