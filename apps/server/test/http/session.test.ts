import { LOCATION_PROVIDER } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createLine, createPlant, createTenant, createUser, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let support: { cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  const provider = await createCustomer(t.database.db, { isProvider: true, name: "Provider" });
  const staff = await createUser(t.database.db, provider.id, {
    admin: true,
    locationName: LOCATION_PROVIDER,
  });
  support = await signIn(t.app, staff.email);
});
afterAll(() => closeTestApp(t));

describe("customer switch", () => {
  it("lets provider staff list customers and act for another one", async () => {
    const list = await t.app.inject({ url: "/api/auth/customers", headers: support });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([a.customer.id, b.customer.id]),
    );
    const sw = await t.app.inject({
      method: "POST",
      url: "/api/auth/switch-customer",
      headers: support,
      payload: { customerId: a.customer.id },
    });
    expect(sw.statusCode).toBe(200);
    expect(sw.json().customer.id).toBe(a.customer.id);
    const plants = await t.app.inject({ url: "/api/plants", headers: support });
    expect(plants.json().map((p: { id: string }) => p.id)).toEqual([a.plant.id]);
    const line = await t.app.inject({ url: `/api/lines/${b.line.id}`, headers: support });
    expect(line.statusCode).toBe(404);
  });

  it("refuses the switch to anyone else, and a user of the provider away from its location", async () => {
    for (const headers of [a.adminHeaders, a.userHeaders]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/switch-customer",
        headers,
        payload: { customerId: b.customer.id },
      });
      expect(res.statusCode).toBe(403);
      expect((await t.app.inject({ url: "/api/auth/customers", headers })).statusCode).toBe(403);
    }
  });

  it("answers 404 for a customer that does not exist", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/switch-customer",
      headers: support,
      payload: { customerId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("remembered plant and line", () => {
  it("stores the user's selection and returns it with the session", async () => {
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/auth/me/selection",
      headers: a.userHeaders,
      payload: { selectedPlantId: a.plant.id, selectedLineId: a.line.id },
    });
    expect(res.statusCode).toBe(204);
    const me = await t.app.inject({ url: "/api/auth/me", headers: a.userHeaders });
    expect(me.json()).toMatchObject({ selectedPlantId: a.plant.id, selectedLineId: a.line.id });
  });

  it("ignores another customer's plant or line", async () => {
    await t.app.inject({
      method: "PATCH",
      url: "/api/auth/me/selection",
      headers: b.userHeaders,
      payload: { selectedPlantId: a.plant.id, selectedLineId: a.line.id },
    });
    const me = await t.app.inject({ url: "/api/auth/me", headers: b.userHeaders });
    // Nothing of a is stored: b's session opens on its own plant's default line.
    expect(me.json()).toMatchObject({ selectedPlantId: b.plant.id, selectedLineId: b.line.id });
  });

  it("opens a new session on the plant's first active line by name, whatever line was created last", async () => {
    const customer = await createCustomer(t.database.db);
    const plant = await createPlant(t.database.db, customer.id, { name: "A plant" });
    await createPlant(t.database.db, customer.id, { name: "B plant" });
    const db = t.database.db;
    await createLine(db, customer.id, plant.id, { name: "Axle Assembly", active: false });
    await createLine(db, customer.id, plant.id, { name: "Brake Module" });
    const first = await createLine(db, customer.id, plant.id, { name: "body shop" });
    // Created last, as a CSV upload or an MQTT message creates a line.
    await createLine(db, customer.id, plant.id, { name: "CSV Line 1", isNewLine: true });
    const user = await createUser(db, customer.id);
    const headers = await signIn(t.app, user.email);
    const me = await t.app.inject({ url: "/api/auth/me", headers });
    expect(me.json()).toMatchObject({ selectedPlantId: plant.id, selectedLineId: first.id });
    // A remembered plant without a line opens on that plant's default line.
    await t.app.inject({
      method: "PATCH",
      url: "/api/auth/me/selection",
      headers,
      payload: { selectedPlantId: plant.id, selectedLineId: null },
    });
    const again = await t.app.inject({ url: "/api/auth/me", headers });
    expect(again.json()).toMatchObject({ selectedPlantId: plant.id, selectedLineId: first.id });
  });

  it("answers 400 to a malformed id and 401 without a session", async () => {
    const bad = await t.app.inject({
      method: "PATCH",
      url: "/api/auth/me/selection",
      headers: a.userHeaders,
      payload: { selectedPlantId: "not-a-uuid" },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: "PATCH", url: "/api/auth/me/selection", payload: {} })).statusCode,
    ).toBe(401);
  });
});

describe("interface language", () => {
  const put = (headers: Record<string, string> | undefined, payload: unknown) =>
    t.app.inject({ method: "PUT", url: "/api/auth/me/language", headers, payload: payload as object });
  const languageOf = async (headers: Record<string, string>) =>
    (await t.app.inject({ url: "/api/auth/me", headers })).json().language;

  it("follows the browser until the user chooses, then keeps the choice with the user", async () => {
    const user = await createUser(t.database.db, a.customer.id);
    const headers = await signIn(t.app, user.email);
    expect(await languageOf(headers)).toBeNull();
    expect((await put(headers, { language: "de" })).statusCode).toBe(204);
    expect(await languageOf(headers)).toBe("de");
    // Kept with the user, not the session: a new sign-in opens in German.
    const later = await signIn(t.app, user.email);
    expect(await languageOf(later)).toBe("de");
    expect((await put(later, { language: null })).statusCode).toBe(204);
    expect(await languageOf(headers)).toBeNull();
  });

  it("changes only the signed-in user's own language", async () => {
    expect((await put(a.userHeaders, { language: "de" })).statusCode).toBe(204);
    expect(await languageOf(a.userHeaders)).toBe("de");
    expect(await languageOf(a.adminHeaders)).toBeNull();
    expect(await languageOf(b.userHeaders)).toBeNull();
    // Provider staff acting for a customer keep their own language; the customer's users are untouched.
    const staff = await createUser(
      t.database.db,
      (await createCustomer(t.database.db, { isProvider: true })).id,
      {
        locationName: LOCATION_PROVIDER,
      },
    );
    const headers = await signIn(t.app, staff.email);
    await t.app.inject({
      method: "POST",
      url: "/api/auth/switch-customer",
      headers,
      payload: { customerId: b.customer.id },
    });
    expect((await put(headers, { language: "en" })).statusCode).toBe(204);
    expect(await languageOf(headers)).toBe("en");
    expect(await languageOf(b.userHeaders)).toBeNull();
    await put(a.userHeaders, { language: null });
  });

  it("answers 400 to a language it does not offer or a malformed body, and 401 without a session", async () => {
    for (const payload of [
      { language: "fr" },
      { language: "DE" },
      {},
      { language: "de", userId: b.user.id },
      { language: ["de"] },
    ])
      expect((await put(a.userHeaders, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    expect(await languageOf(a.userHeaders)).toBeNull();
    expect((await put(undefined, { language: "de" })).statusCode).toBe(401);
  });
});

describe("health", () => {
  it("answers ok while the database answers", async () => {
    const res = await t.app.inject({ url: "/api/health" });
    expect(res.json()).toEqual({ status: "ok" });
  });
});
