// The batcher against a database that refuses some rows (triggers raising the errors PostgreSQL
// raises for bad data, or for a database that is busy): the good records are stored and
// acknowledged, each refused one becomes a dead letter, a busy database is retried, and closing
// stops the retries without acknowledging, stores what was taken, and stops a large message
// between two slices.
import { randomBytes } from "node:crypto";
import { topicDefaults } from "@linewatch/contracts";
import { eq, sql } from "drizzle-orm";
import type { IPublishPacket } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadLetters, partRecords } from "../../src/db/schema/index.js";
import { createIngestBatcher } from "../../src/ingest/batcher.js";
import { createIngestLog } from "../../src/ingest/ingest-log.js";
import { createSourceDirectory } from "../../src/ingest/sources.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logger.js";

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
const run = randomBytes(4).toString("hex");
const topic = `lwbatch-${run}/line/OP10`;

const packet = (payload: unknown, onTopic = topic): IPublishPacket => ({
  cmd: "publish",
  qos: 1,
  dup: false,
  retain: false,
  topic: onTopic,
  payload: Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload)),
  messageId: 1,
});
let seq = 0;
const record = (partId: string) => ({
  partId,
  timestamp: new Date(Date.UTC(2026, 10, 22, 8) + ++seq * 1000).toISOString(),
  measurements: { M: seq },
});
const isStored = async (partId: string) =>
  (
    await t.database.db
      .select({ id: partRecords.partId })
      .from(partRecords)
      .where(eq(partRecords.partId, partId))
  ).length === 1;

/** Settles within the test's life, or reports that it is still pending. */
const state = (p: Promise<void>) =>
  Promise.race([p.then(() => "acknowledged"), new Promise((r) => setImmediate(() => r("pending")))]);

/** Adds a data source to the tenant's plant; answers its id. */
async function addSource(name: string, topicFilter: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/data-sources`,
    headers: tenant.adminHeaders,
    payload: { name, topic: topicFilter },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { id: string }).id;
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
  await addSource("Batcher test", `lwbatch-${run}/#`);
  // Records the database refuses as bad data (SQLSTATE 22000) or while it is "busy" (53000).
  await t.database.db.execute(
    sql.raw(`create function lw_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.part_id like 'REFUSED-%' then raise exception 'refused for the test' using errcode = '22000'; end if;
        if new.part_id like 'BUSY-%' and exists (select 1 from lw_test_busy) then
          raise exception 'busy for the test' using errcode = '53000';
        end if;
        return new;
      end $$`),
  );
  await t.database.db.execute(sql.raw("create table lw_test_busy (x int)"));
  await t.database.db.execute(
    sql.raw(
      "create trigger lw_test_refuse before insert on part_records for each row execute function lw_test_refuse()",
    ),
  );
  // Dead letters whose payload says so are refused once: the message is then kept without it.
  await t.database.db.execute(
    sql.raw(`create function lw_test_refuse_dead() returns trigger language plpgsql as $$
      begin
        if new.payload like '%refuse-my-dead-letter%' then raise exception 'dead letter refused' using errcode = '22000'; end if;
        return new;
      end $$`),
  );
  await t.database.db.execute(
    sql.raw(
      "create trigger lw_test_refuse_dead before insert on dead_letters for each row execute function lw_test_refuse_dead()",
    ),
  );
});
afterAll(async () => {
  await closeTestApp(t);
});

const newBatcher = async (log = capturingLogger()) => {
  const directory = createSourceDirectory(t.database.db);
  await directory.refresh();
  const batcher = createIngestBatcher({
    partRecords: t.services.partRecords,
    directory,
    logger: log.logger,
  });
  // As the broker hands a message over: with the data source its topic resolves to.
  return { ...batcher, add: (p: IPublishPacket) => batcher.add(p, directory.resolve(p.topic)) };
};

describe("the ingest batcher", () => {
  it("stores every good record of a batch the database partly refuses, and keeps each refused record as a dead letter", async () => {
    const log = capturingLogger();
    const batcher = await newBatcher(log);
    // One turn of the event loop: one batch of three messages, one of them an array.
    const acks = [
      batcher.add(packet(record(`G1-${run}`))),
      batcher.add(packet([record(`G2-${run}`), record(`REFUSED-1-${run}`), record(`G3-${run}`)])),
      batcher.add(packet(record(`G4-${run}`))),
    ];
    await Promise.all(acks);
    for (const id of ["G1", "G2", "G3", "G4"]) expect(await isStored(`${id}-${run}`)).toBe(true);
    expect(await isStored(`REFUSED-1-${run}`)).toBe(false);
    const dead = await t.database.db
      .select()
      .from(deadLetters)
      .where(sql`${deadLetters.payload} like ${`%REFUSED-1-${run}%`}`);
    expect(dead).toHaveLength(1);
    expect(dead[0]?.reason).toBe("the database refused the record (SQLSTATE 22000: refused for the test)");
    await batcher.close();
  });

  it("keeps a message whose dead letter the database refuses as a dead letter without its payload, and stores the rest of its batch", async () => {
    const log = capturingLogger();
    const batcher = await newBatcher(log);
    const acks = [
      batcher.add(packet(record(`H1-${run}`))),
      batcher.add(packet(`not json, refuse-my-dead-letter ${run}`)),
      batcher.add(packet(record(`H2-${run}`))),
    ];
    await Promise.all(acks);
    expect(await isStored(`H1-${run}`)).toBe(true);
    expect(await isStored(`H2-${run}`)).toBe(true);
    const dead = await t.database.db
      .select()
      .from(deadLetters)
      .where(sql`${deadLetters.reason} like 'the database refused the message%'`);
    expect(dead).toHaveLength(1);
    expect(dead[0]?.payload).toBe("");
    expect(dead[0]?.reason).toBe("the database refused the message (SQLSTATE 22000: dead letter refused)");
    // Log lines name the data source and topic, never the payload.
    expect(log.text()).toContain(topic);
    expect(log.text()).not.toContain("refuse-my-dead-letter");
    await batcher.close();
  });

  it("retries while the database is busy and acknowledges once the record is stored", async () => {
    await t.database.db.execute(sql.raw("insert into lw_test_busy values (1)"));
    const log = capturingLogger();
    const batcher = await newBatcher(log);
    const ack = batcher.add(packet(record(`BUSY-1-${run}`)));
    await expect
      .poll(() => log.messages().some((m) => m.includes("retrying in")), { timeout: 10_000 })
      .toBe(true);
    expect(await state(ack)).toBe("pending");
    expect(log.text()).not.toContain(`BUSY-1-${run}`);
    await t.database.db.execute(sql.raw("delete from lw_test_busy"));
    await ack;
    expect(await isStored(`BUSY-1-${run}`)).toBe(true);
    await batcher.close();
  });

  it("stops retrying when closed and leaves the message unacknowledged", async () => {
    await t.database.db.execute(sql.raw("insert into lw_test_busy values (1)"));
    const log = capturingLogger();
    const batcher = await newBatcher(log);
    const ack = batcher.add(packet(record(`BUSY-2-${run}`)));
    await expect
      .poll(() => log.messages().some((m) => m.includes("retrying in")), { timeout: 10_000 })
      .toBe(true);
    await batcher.close();
    await t.database.db.execute(sql.raw("delete from lw_test_busy"));
    expect(await state(ack)).toBe("pending");
    expect(await isStored(`BUSY-2-${run}`)).toBe(false);
    // Nothing is taken after closing either.
    expect(await state(batcher.add(packet(record(`G9-${run}`))))).toBe("pending");
  });

  it("skips a message whose data source is deleted after it arrived: acknowledged, nothing stored, no dead letter", async () => {
    const sourceId = await addSource("Batcher gone", `lwgone-${run}/#`);
    const directory = createSourceDirectory(t.database.db);
    await directory.refresh();
    // A batch only when flushed below.
    const batcher = createIngestBatcher({ partRecords: t.services.partRecords, directory, flushMs: 60_000 });
    const onGone = packet(record(`GONE-1-${run}`), `lwgone-${run}/line/OP10`);
    const source = directory.resolve(onGone.topic);
    expect(source?.id).toBe(sourceId);
    const ack = batcher.add(onGone, source);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/data-sources/${sourceId}`,
      headers: tenant.adminHeaders,
    });
    expect(deleted.statusCode).toBe(204);
    await directory.refresh();
    await batcher.flush();
    expect(await state(ack)).toBe("acknowledged");
    expect(await isStored(`GONE-1-${run}`)).toBe(false);
    const dead = await t.database.db
      .select()
      .from(deadLetters)
      .where(sql`${deadLetters.payload} like ${`%GONE-1-${run}%`}`);
    expect(dead).toEqual([]);
    await batcher.close();
  });

  it("stores the messages it has taken when closed, and takes no new one", async () => {
    const batcher = await newBatcher();
    const acks = [batcher.add(packet(record(`C1-${run}`))), batcher.add(packet(record(`C2-${run}`)))];
    await batcher.close();
    for (const ack of acks) expect(await state(ack)).toBe("acknowledged");
    expect(await isStored(`C1-${run}`)).toBe(true);
    expect(await isStored(`C2-${run}`)).toBe(true);
    const late = batcher.add(packet(record(`C3-${run}`)));
    expect(await state(late)).toBe("pending");
    expect(await isStored(`C3-${run}`)).toBe(false);
  });

  it("stops storing a message between two slices when closed: nothing more is stored and no dead letter is kept", async () => {
    const directory = createSourceDirectory(t.database.db);
    await directory.refresh();
    const stopped = new AbortController();
    stopped.abort();
    const good = packet([record(`S1-${run}`), record(`S2-${run}`)]);
    const broken = packet(`not json, stopped ${run}`);
    await expect(
      createIngestLog(t.services.partRecords).store(
        [broken, good].map((p) => ({ packet: p, source: directory.resolve(p.topic) })),
        topicDefaults,
        stopped.signal,
      ),
    ).rejects.toThrow();
    expect(await isStored(`S1-${run}`)).toBe(false);
    const dead = await t.database.db
      .select()
      .from(deadLetters)
      .where(sql`${deadLetters.payload} like ${`%stopped ${run}%`}`);
    expect(dead).toEqual([]);
  });
});
