// THE worker guarantee: two worker processes on one PostgreSQL evaluate every due slot exactly once,
// and when one is killed with -9 while it holds leases, the other takes its monitors over after the
// leases expire. Shortened clock: WORKER_MINUTE_MS makes a frequency "minute" 1.5 s.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../../src/db/client.js";
import { monitors, partRecords, signals, stations } from "../../src/db/schema/index.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const usePostgres = !!process.env.DATABASE_URL;
const PERIOD_MS = 1_500;
const LEASE_MS = 2_000;
const MONITORS = 8;
/** The same key in both processes (required with DATABASE_URL once notifications encrypt secrets). */
const ENCRYPTION_KEY = randomBytes(32).toString("base64");

if (!usePostgres) {
  console.warn(
    "worker.multiprocess.test.ts skipped: two worker processes need PostgreSQL (set DATABASE_URL; PGlite is one process's database)",
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(f: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function startWorkerProcess(id: string, url: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/server/src/main.ts"), "--role", "worker"],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url,
        DEMO: "false",
        ENCRYPTION_KEY,
        LOG_LEVEL: "info",
        WORKER_ID: id,
        WORKER_POLL_MS: "100",
        WORKER_LEASE_MS: String(LEASE_MS),
        WORKER_MINUTE_MS: String(PERIOD_MS),
        WORKER_BATCH_SIZE: "4",
        // Two workers on one host would both take the default HEALTH_PORT (health-port.test.ts).
        HEALTH_PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (b: Buffer) => {
      out += b.toString();
      if (out.includes(`worker ${id} started`)) resolve({ child, output: () => out });
    });
    child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
    child.on("exit", (code) => reject(new Error(`worker ${id} exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`worker ${id} did not start: ${out}`)), 60_000);
  });
}

describe.skipIf(!usePostgres)("two worker processes on PostgreSQL", () => {
  let database: (Database & { url?: string }) | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode == null) c.kill("SIGKILL");
    await database?.close();
  });

  it("evaluate every due slot exactly once and hand over a killed worker's monitors", {
    timeout: 150_000,
  }, async () => {
    database = await createTestDatabase();
    const db = database.db;
    const customerId = (await createCustomer(db)).id;
    const plantId = (await createPlant(db, customerId)).id;
    const lineId = (await createLine(db, customerId, plantId)).id;
    const [st] = await db
      .insert(stations)
      .values({ customerId, lineId, name: "OP10", nextNumSlot: 1 })
      .returning();
    const signalId = randomUUID();
    await db.insert(signals).values({
      id: signalId,
      customerId,
      lineId,
      stationId: st?.id ?? "",
      name: "Torque",
      entityType: "MEASUREMENT",
      storage: "num",
      slot: 0,
    });
    await db.insert(partRecords).values(
      Array.from({ length: 200 }, (_, i) => ({
        stationId: st?.id ?? "",
        ts: new Date(Date.now() - (200 - i) * 1000),
        partId: `P-${i}`,
        numValues: [10 + Math.sin(i * 1.7)],
      })),
    );

    // Each evaluation's insert takes 300 ms, so a kill -9 finds leases held.
    await db.execute(
      sql.raw(`create function lw_test_slow() returns trigger language plpgsql as $$
        begin perform pg_sleep(0.3); return new; end $$`),
    );
    await db.execute(
      sql.raw(
        "create trigger lw_test_slow before insert on evaluations for each row execute function lw_test_slow()",
      ),
    );

    const [a, b] = await Promise.all([
      startWorkerProcess("A", database.url ?? ""),
      startWorkerProcess("B", database.url ?? ""),
    ]);
    children.push(a.child, b.child);

    const first = new Date(Date.now() + 500);
    await db.insert(monitors).values(
      Array.from({ length: MONITORS }, (_, i) => ({
        customerId,
        plantId,
        lineId,
        name: `M${i}`,
        type: "svd" as const,
        active: true,
        frequency: 1,
        filter: { signal_uuids: [signalId], sample_size: 200, evaluation_ratio: 0.25 },
        filterMd5: `md5-${i}`,
        nextRunAt: first,
      })),
    );

    const byWorker = async () =>
      rowsOf<{ worker: string; n: number }>(
        await db.execute(
          sql`select details->>'worker' as worker, count(*)::int as n from evaluations group by 1`,
        ),
      );
    // Both workers evaluate.
    await until(async () => (await byWorker()).length === 2, 20_000, "evaluations by both workers");
    await sleep(2 * PERIOD_MS);

    // Kill A while it holds leases: claimed less than 150 ms ago, so A is still in its 300 ms delay
    // (an older claim may be committing its evaluation right now).
    const held = await until(
      async () => {
        const rows = rowsOf<{ id: string; next_run_at: Date; lease_until: Date }>(
          await db.execute(sql`select id, next_run_at, lease_until from monitors
            where lease_owner = 'A' and lease_until > now() + ${`${LEASE_MS - 150} milliseconds`}::interval`),
        );
        if (rows.length === 0) return false;
        a.child.kill("SIGKILL");
        return rows;
      },
      20_000,
      "worker A holding a lease",
    );
    await new Promise<void>((r) => (a.child.exitCode != null ? r() : a.child.once("exit", () => r())));
    const killedAt = Date.now();

    // B takes A's monitors after the leases expire, then keeps everything going: wait until every
    // slot A held is evaluated and B has evaluated every monitor after A's leases ran out (a
    // condition, not a time: on a loaded machine B may take longer than a few periods).
    const leasesOver = new Date(killedAt + LEASE_MS);
    await until(
      async () => {
        const takenBy = rowsOf<{ n: number }>(
          await db.execute(sql`select count(distinct monitor_id)::int as n from evaluations
            where details->>'worker' = 'B' and evaluated_at > ${leasesOver}`),
        )[0];
        if ((takenBy?.n ?? 0) < MONITORS) return false;
        for (const h of held) {
          const slot = rowsOf<{ n: number }>(
            await db.execute(sql`select count(*)::int as n from evaluations
              where monitor_id = ${h.id} and slot = ${new Date(h.next_run_at)}`),
          )[0];
          if ((slot?.n ?? 0) === 0) return false;
        }
        return true;
      },
      60_000,
      "worker B evaluating every monitor after A's leases ran out",
    );
    b.child.kill("SIGTERM");
    await new Promise<void>((r) => (b.child.exitCode != null ? r() : b.child.once("exit", () => r())));

    const evals = rowsOf<{ monitor_id: string; slot: string; evaluated_at: string; worker: string }>(
      await db.execute(sql`select monitor_id, slot, evaluated_at, details->>'worker' as worker
        from evaluations order by monitor_id, slot`),
    ).map((e) => ({ ...e, slot: new Date(e.slot), evaluated_at: new Date(e.evaluated_at) }));
    const total = rowsOf<{ n: number; d: number }>(
      await db.execute(
        sql`select count(*)::int as n, count(distinct (monitor_id, slot))::int as d from evaluations`,
      ),
    )[0];
    // Exactly once: no (monitor, slot) twice.
    expect(total?.n).toBe(total?.d);

    // Every held slot was evaluated once — by A before it died, or by B after A's lease expired.
    let takenOver = 0;
    for (const h of held) {
      const e = evals.filter(
        (x) => x.monitor_id === h.id && x.slot.getTime() === new Date(h.next_run_at).getTime(),
      );
      expect(e).toHaveLength(1);
      if (e[0]?.worker === "B") {
        takenOver++;
        expect(e[0].evaluated_at.getTime()).toBeGreaterThanOrEqual(new Date(h.lease_until).getTime());
      }
    }
    expect(takenOver).toBeGreaterThan(0);

    // Every monitor's slots are on its grid, one period apart while a worker was alive to claim
    // them; a gap is allowed for a slot held by the killed worker (the lease delays it), and where
    // the evaluation before it ended a period or more late: the worker then takes the first slot
    // after the time it finished (schedule.ts: a slow evaluation skips ticks), which a loaded
    // machine does to any monitor. A gap after an evaluation on time still fails.
    const heldIds = new Set(held.map((h) => h.id));
    let gaps = 0;
    const perMonitor = new Map<string, typeof evals>();
    for (const e of evals) perMonitor.set(e.monitor_id, [...(perMonitor.get(e.monitor_id) ?? []), e]);
    expect(perMonitor.size).toBe(MONITORS);
    for (const [id, list] of perMonitor) {
      expect(list[0]?.slot.getTime()).toBe(first.getTime());
      for (let j = 1; j < list.length; j++) {
        const step = ((list[j]?.slot.getTime() ?? 0) - (list[j - 1]?.slot.getTime() ?? 0)) / PERIOD_MS;
        expect(Number.isInteger(step)).toBe(true);
        if (step > 1) {
          gaps++;
          const before = list[j - 1] as (typeof list)[number];
          // The slot after the gap is the first after the earlier evaluation ended (a quarter period
          // allowed between the clock the worker read and the evaluation's stored time).
          const endedLate =
            before.evaluated_at.getTime() >= (list[j]?.slot.getTime() ?? 0) - PERIOD_MS - PERIOD_MS / 4;
          expect(heldIds.has(id) || endedLate).toBe(true);
        }
      }
      // Still evaluated after the kill, by B.
      expect(list.some((e) => e.worker === "B" && e.evaluated_at.getTime() > killedAt + LEASE_MS)).toBe(true);
    }
    const counts = await byWorker();
    console.log(
      `worker test: ${evals.length} evaluations (${counts.map((c) => `${c.worker}: ${c.n}`).join(", ")}), ` +
        `${held.length} held by A at kill -9, ${takenOver} taken over by B, ${gaps} skipped-tick gaps`,
    );
  });
});
