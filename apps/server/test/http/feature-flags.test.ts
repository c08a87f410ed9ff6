import { defaultFeatureFlags, FEATURE_FLAG_KEYS, SERVER_MESSAGES } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createProviderStaff, createTenant, createUser, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

describe("feature flags", () => {
  it("serves every flag with the defaults to any signed-in user", async () => {
    const res = await t.app.inject({ url: "/api/feature-flags", headers: a.userHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ flags: defaultFeatureFlags(), etqOverride: false });
    expect(Object.keys(res.json().flags).sort()).toEqual([...FEATURE_FLAG_KEYS].sort());
  });

  it("has every flag on for the demo customer", async () => {
    const demo = await createCustomer(t.database.db, { isDemo: true });
    const u = await createUser(t.database.db, demo.id);
    const res = await t.app.inject({ url: "/api/feature-flags", headers: await signIn(t.app, u.email) });
    expect(Object.values(res.json().flags).every(Boolean)).toBe(true);
  });

  it("lets provider staff switch a flag for the customer they act for only", async () => {
    const staff = await createProviderStaff(t.app, t.database.db);
    const sw = await t.app.inject({
      method: "POST",
      url: "/api/auth/switch-customer",
      headers: staff.headers,
      payload: { customerId: a.customer.id },
    });
    expect(sw.statusCode).toBe(200);
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/feature-flags/userDeletion",
      headers: staff.headers,
      payload: { enabled: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().flags.userDeletion).toBe(true);
    const again = await t.app.inject({ url: "/api/feature-flags", headers: a.userHeaders });
    expect(again.json().flags.userDeletion).toBe(true);
    const other = await t.app.inject({ url: "/api/feature-flags", headers: b.userHeaders });
    expect(other.json().flags.userDeletion).toBe(false);
  });

  it("shows administrators the flags read-only: PUT answers 403 and changes nothing", async () => {
    const before = (await t.app.inject({ url: "/api/feature-flags", headers: b.adminHeaders })).json();
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/feature-flags/userDeletion",
      headers: b.adminHeaders,
      payload: { enabled: !before.flags.userDeletion },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: SERVER_MESSAGES.forbidden });
    const after = await t.app.inject({ url: "/api/feature-flags", headers: b.adminHeaders });
    expect(after.json()).toEqual(before);
  });

  it("answers 401 without a session, 403 to users, 400 for unknown flags and bad bodies", async () => {
    expect((await t.app.inject({ url: "/api/feature-flags" })).statusCode).toBe(401);
    const staff = (await createProviderStaff(t.app, t.database.db)).headers;
    const put = (headers: { cookie: string }, key: string, payload: unknown) =>
      t.app.inject({ method: "PUT", url: `/api/feature-flags/${key}`, headers, payload: payload as object });
    expect((await put(a.userHeaders, "userDeletion", { enabled: true })).statusCode).toBe(403);
    const unknown = await put(staff, "noSuchFlag", { enabled: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/params/);
    expect((await put(staff, "userDeletion", { enabled: "yes" })).statusCode).toBe(400);
    expect((await put(staff, "userDeletion", { enabled: true, extra: 1 })).statusCode).toBe(400);
  });
});
