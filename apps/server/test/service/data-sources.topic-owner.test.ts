import { DATA_SOURCE_MESSAGES } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { dataSources } from "../../src/db/schema/index.js";
import { AppError } from "../../src/errors.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { isTopicOwnerViolation } from "../../src/modules/data-sources/data-sources.repo.js";
import { createServices, type Services } from "../../src/services.js";
import { createCustomer, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

// Every MQTT topic belongs to one plant (docs/decisions/0018-every-mqtt-topic-belongs-to-one-plant.md), also
// when two customers add a data source on the same topic at the same moment: one gets it, the other the usual
// 409.

let database: Database;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices({ db: database.db, publicUrl: "http://localhost:8080", now: () => new Date() });
});
afterAll(() => database?.close());

async function administratorOfNewPlant(): Promise<{ ctx: AuthContext; plantId: string; ingestorId: string }> {
  const customer = await createCustomer(database.db);
  const plant = await createPlant(database.db, customer.id);
  const ctx = {
    sessionHash: "x",
    userId: "00000000-0000-4000-8000-000000000099",
    email: "admin@example.test",
    homeCustomerId: customer.id,
    customerId: customer.id,
    isAdministrator: true,
    isProviderStaff: false,
    locationName: null,
    locationPlantId: null,
    selectedPlantId: plant.id,
    selectedLineId: null,
    language: null,
  } as AuthContext;
  const ingestor = await services.plants.ingestor(ctx, plant.id);
  return { ctx, plantId: plant.id, ingestorId: ingestor.id };
}

const conflictMessage = (r: PromiseSettledResult<unknown>) =>
  r.status === "rejected" && r.reason instanceof AppError && r.reason.code === "CONFLICT"
    ? r.reason.message
    : r;

describe("data source topics: one plant each, under concurrency", () => {
  it("two customers adding the same topic at the same moment: exactly one gets it, the other a 409", async () => {
    for (let round = 0; round < 20; round++) {
      const a = await administratorOfNewPlant();
      const b = await administratorOfNewPlant();
      const topic = `race-${round}-${a.plantId.slice(0, 8)}/line1/#`;
      const results = await Promise.allSettled([
        services.dataSources.create(a.ctx, a.plantId, { name: "A", topic }),
        services.dataSources.create(b.ctx, b.plantId, { name: "B", topic }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected");
      expect(won, `round ${round}`).toHaveLength(1);
      expect(lost.map(conflictMessage), `round ${round}`).toEqual([DATA_SOURCE_MESSAGES.topicTaken]);
      const owners = await database.db
        .select({ ingestorId: dataSources.ingestorId })
        .from(dataSources)
        .where(sql`${dataSources.topic} = ${topic}`);
      expect(owners, `round ${round}`).toHaveLength(1);
    }
  });

  it("two customers adding overlapping wildcard filters at the same moment: exactly one gets a topic", async () => {
    for (let round = 0; round < 20; round++) {
      const a = await administratorOfNewPlant();
      const b = await administratorOfNewPlant();
      const root = `wild-${round}-${a.plantId.slice(0, 8)}`;
      const results = await Promise.allSettled([
        services.dataSources.create(a.ctx, a.plantId, { name: "A", topic: `${root}/+/station1` }),
        services.dataSources.create(b.ctx, b.plantId, { name: "B", topic: `${root}/line1/#` }),
      ]);
      expect(
        results.filter((r) => r.status === "fulfilled"),
        `round ${round}`,
      ).toHaveLength(1);
      expect(results.filter((r) => r.status === "rejected").map(conflictMessage), `round ${round}`).toEqual([
        DATA_SOURCE_MESSAGES.topicTaken,
      ]);
    }
  });

  it("a plant may still have two sources on the same topic; another plant may not", async () => {
    const a = await administratorOfNewPlant();
    const b = await administratorOfNewPlant();
    const topic = `same-${a.plantId.slice(0, 8)}/#`;
    await services.dataSources.create(a.ctx, a.plantId, { name: "First", topic });
    await services.dataSources.create(a.ctx, a.plantId, { name: "Second", topic });
    await expect(
      services.dataSources.create(b.ctx, b.plantId, { name: "Other", topic }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: DATA_SOURCE_MESSAGES.topicTaken,
    });
  });

  it("the database refuses another plant's exact topic from a writer that skips the service's check", async () => {
    const a = await administratorOfNewPlant();
    const b = await administratorOfNewPlant();
    const topic = `direct-${a.plantId.slice(0, 8)}/line1`;
    await database.db
      .insert(dataSources)
      .values({ customerId: a.ctx.customerId, ingestorId: a.ingestorId, name: "A", topic });
    await expect(
      database.db
        .insert(dataSources)
        .values({ customerId: b.ctx.customerId, ingestorId: b.ingestorId, name: "B", topic }),
    ).rejects.toSatisfy(isTopicOwnerViolation);
    // The same plant may add it again (two sources of one plant on one topic are allowed).
    await database.db
      .insert(dataSources)
      .values({ customerId: a.ctx.customerId, ingestorId: a.ingestorId, name: "A2", topic });
  });
});
