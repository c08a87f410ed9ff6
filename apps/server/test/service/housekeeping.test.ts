import { LOGIN_LIMIT, SESSION_LIMITS } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { deadLetters, ingestors, loginFailures, sessions } from "../../src/db/schema/index.js";
import { silentLogger } from "../../src/lib/logger.js";
import {
  HOUSEKEEPING,
  pruneExpired,
  startHousekeeping,
} from "../../src/modules/housekeeping/housekeeping.service.js";
import { createCustomer, createPlant, createUser } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { eventually } from "../helpers/mqtt.js";

let database: Database;
const db = () => database.db;
const NOW = new Date("2026-11-25T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MIN = 60_000;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function fixture() {
  const customer = await createCustomer(db());
  const plant = await createPlant(db(), customer.id);
  const user = await createUser(db(), customer.id);
  const [ingestor] = await db().select().from(ingestors).where(eq(ingestors.plantId, plant.id));
  if (!ingestor) throw new Error("no ingestor");
  const tag = Math.random().toString(36).slice(2);
  await db()
    .insert(loginFailures)
    .values([
      // An email nobody tries again: its failure is past the window and counts for nothing.
      {
        email: `gone-${tag}@example.test`,
        clientAddress: "203.0.113.9",
        at: ago(LOGIN_LIMIT.windowMs + MIN),
      },
      { email: `recent-${tag}@example.test`, clientAddress: "203.0.113.9", at: ago(MIN) },
    ]);
  await db()
    .insert(sessions)
    .values([
      {
        tokenHash: `idle-${tag}`,
        userId: user.id,
        actingCustomerId: customer.id,
        createdAt: ago(SESSION_LIMITS.idleMs + 2 * MIN),
        lastSeenAt: ago(SESSION_LIMITS.idleMs + MIN),
      },
      {
        tokenHash: `old-${tag}`,
        userId: user.id,
        actingCustomerId: customer.id,
        createdAt: ago(SESSION_LIMITS.absoluteMs + MIN),
        lastSeenAt: ago(MIN),
      },
      {
        tokenHash: `live-${tag}`,
        userId: user.id,
        actingCustomerId: customer.id,
        createdAt: ago(SESSION_LIMITS.idleMs * 2),
        lastSeenAt: ago(MIN),
      },
    ]);
  await db()
    .insert(deadLetters)
    .values([
      {
        customerId: customer.id,
        ingestorId: ingestor.id,
        payload: "{",
        reason: "old",
        receivedAt: ago(HOUSEKEEPING.deadLetterRetentionMs + MIN),
      },
      { customerId: customer.id, ingestorId: ingestor.id, payload: "{", reason: "new", receivedAt: ago(MIN) },
    ]);
  return { tag, ingestorId: ingestor.id };
}

describe("housekeeping", () => {
  it("removes expired sign-in failures, sessions and dead letters, and keeps what still counts", async () => {
    const { tag, ingestorId } = await fixture();
    const counts = await pruneExpired(db(), NOW);
    expect(counts).toEqual({ loginFailures: 1, sessions: 2, deadLetters: 1 });
    const emails = (await db().select().from(loginFailures)).map((r) => r.email);
    expect(emails).toEqual([`recent-${tag}@example.test`]);
    const tokens = (await db().select().from(sessions)).map((r) => r.tokenHash);
    expect(tokens).toEqual([`live-${tag}`]);
    const letters = await db().select().from(deadLetters).where(eq(deadLetters.ingestorId, ingestorId));
    expect(letters.map((r) => r.reason)).toEqual(["new"]);
    // Nothing more to do a second time.
    expect(await pruneExpired(db(), NOW)).toEqual({ loginFailures: 0, sessions: 0, deadLetters: 0 });
  });

  it("runs at start and stops cleanly", async () => {
    const { tag } = await fixture();
    const hk = startHousekeeping({ db: db(), logger: silentLogger, now: () => NOW });
    await eventually(async () => {
      const rows = await db()
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, `idle-${tag}`));
      return rows.length === 0;
    });
    await hk.stop();
  });
});
