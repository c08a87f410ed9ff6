import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { resultClassifications, signals } from "../../src/db/schema/index.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createServices, type Services } from "../../src/services.js";
import { createCustomer, createLine, createPlant, createStationWithSignals } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

// Signal Management's writes are all or nothing even when the database refuses a later part than
// the contract can see (the service called directly, past the HTTP layer's checks): the earlier
// parts of the same request are rolled back.

let database: Database;
let services: Services;
let ctx: AuthContext;
let line: { id: string; plantId: string };
let sa: Awaited<ReturnType<typeof createStationWithSignals>>;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices({ db: database.db, publicUrl: "http://localhost:8080", now: () => new Date() });
  const customer = await createCustomer(database.db);
  const plant = await createPlant(database.db, customer.id);
  line = await createLine(database.db, customer.id, plant.id);
  sa = await createStationWithSignals(database.db, customer.id, line.id);
  ctx = {
    sessionHash: "x",
    userId: "00000000-0000-4000-8000-000000000099",
    email: "user@example.test",
    homeCustomerId: customer.id,
    customerId: customer.id,
    isAdministrator: false,
    isProviderStaff: false,
    locationName: null,
    locationPlantId: null,
    selectedPlantId: plant.id,
    selectedLineId: line.id,
  } as AuthContext;
});
afterAll(() => database?.close());

const friendlyName = async (id: string) =>
  (await database.db.select({ v: signals.friendlyName }).from(signals).where(eq(signals.id, id)))[0]?.v;

describe("signal management writes: one transaction", () => {
  it("an attribute update whose second signal the database refuses changes neither", async () => {
    const [m0, m1] = sa.measurements;
    await expect(
      services.signals.updateAttributes(ctx, {
        signalRequest: { customer_uuid: ctx.customerId, plant_uuid: line.plantId, line_uuid: line.id },
        signals: [
          { signal_uuid: m0?.id as string, signal_attributes: { signal_friendly_name: "Kept out" } },
          // NUL: the contract refuses it; past it, PostgreSQL does.
          { signal_uuid: m1?.id as string, signal_attributes: { signal_friendly_name: "bad\u0000name" } },
        ],
      }),
    ).rejects.toThrow();
    expect(await friendlyName(m0?.id as string)).toBeNull();
    expect(await friendlyName(m1?.id as string)).toBeNull();
  });

  it("classifications whose second signal breaks the unique value keep the first signal's too", async () => {
    const second = sa.attribute.id;
    await database.db.update(signals).set({ entityType: "RESULT" }).where(eq(signals.id, second));
    const before = await database.db
      .select({ value: resultClassifications.value })
      .from(resultClassifications)
      .where(eq(resultClassifications.signalId, sa.result.id));
    await expect(
      services.signals.saveResultClassifications(ctx, {
        [sa.result.id]: {
          resultClassifications: { pass: [{ value: "NEW", failureMode: null }], fail: [], other: [] },
        },
        [second]: {
          resultClassifications: {
            pass: [{ value: "TWICE", failureMode: null }],
            fail: [{ value: "TWICE", failureMode: null }],
            other: [],
          },
        },
      }),
    ).rejects.toThrow();
    const after = await database.db
      .select({ value: resultClassifications.value })
      .from(resultClassifications)
      .where(eq(resultClassifications.signalId, sa.result.id));
    expect(after.map((r) => r.value).sort()).toEqual(before.map((r) => r.value).sort());
  });
});
