import { AUTH_MESSAGES, SESSION_COOKIE } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createTenant, createUser, PASSWORD, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

const login = (email: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });

describe("sign-in", () => {
  it("signs in with the right password and sets an httpOnly SameSite=Lax session cookie", async () => {
    const c = await createCustomer(t.database.db);
    const u = await createUser(t.database.db, c.id, { email: "Jane@Example.test" });
    const res = await login("jane@example.test", PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: u.id, email: "Jane@Example.test", isAdministrator: false });
    const cookie = res.cookies.find((x) => x.name === SESSION_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.secure).toBeFalsy();
  });

  it("marks the cookie Secure behind an https proxy that TRUST_PROXY names, and only then", async () => {
    // From loopback, as a proxy on the same host would send it.
    const httpsViaProxy = async (app: TestContext) => {
      const c = await createCustomer(app.database.db);
      const u = await createUser(app.database.db, c.id);
      const res = await app.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: "127.0.0.1",
        headers: { "x-forwarded-proto": "https" },
        payload: { email: u.email, password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      return res.cookies.find((x) => x.name === SESSION_COOKIE)?.secure;
    };
    // By default no proxy is trusted: the header is the client's word, even from loopback.
    expect(await httpsViaProxy(t)).toBeFalsy();
    const proxied = await createTestApp({ trustProxy: "127.0.0.1" });
    try {
      expect(await httpsViaProxy(proxied)).toBe(true);
    } finally {
      await closeTestApp(proxied);
    }
  });

  it("answers the same text for a wrong password and an unknown email", async () => {
    const c = await createCustomer(t.database.db);
    const u = await createUser(t.database.db, c.id);
    const wrong = await login(u.email, "not the password");
    const unknown = await login("nobody@example.test", "whatever");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.invalidCredentials });
    expect(unknown.json()).toEqual({ message: AUTH_MESSAGES.invalidCredentials });
  });

  it("answers 429 after five failures for one email within 5 minutes, and lets it in again later", async () => {
    const c = await createCustomer(t.database.db);
    const u = await createUser(t.database.db, c.id);
    for (let i = 0; i < 5; i++) expect((await login(u.email, "wrong")).statusCode).toBe(401);
    const blocked = await login(u.email, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(AUTH_MESSAGES.tooManyAttempts);
    // Another email is not affected.
    const other = await createUser(t.database.db, c.id);
    expect((await login(other.email, PASSWORD)).statusCode).toBe(200);
    const saved = t.now.value;
    t.now.value = new Date(saved.getTime() + 5 * 60_000 + 1000);
    try {
      expect((await login(u.email, PASSWORD)).statusCode).toBe(200);
    } finally {
      t.now.value = saved;
    }
  });

  it("gives a new session id at every sign-in and deletes the session at sign-out", async () => {
    const c = await createCustomer(t.database.db);
    const u = await createUser(t.database.db, c.id);
    const a = await signIn(t.app, u.email);
    const b = await signIn(t.app, u.email);
    expect(a.cookie).not.toBe(b.cookie);
    const out = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: a });
    expect(out.statusCode).toBe(204);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: a })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: b })).statusCode).toBe(200);
  });

  it("ends a session after 12 h idle and after 7 days in all", async () => {
    const c = await createCustomer(t.database.db);
    const u = await createUser(t.database.db, c.id);
    const saved = t.now.value;
    try {
      const idle = await signIn(t.app, u.email);
      t.now.value = new Date(saved.getTime() + 12 * 3_600_000 + 1000);
      expect((await t.app.inject({ url: "/api/auth/me", headers: idle })).statusCode).toBe(401);

      t.now.value = saved;
      const busy = await signIn(t.app, u.email);
      // Used every 11 hours: never idle, but over 7 days old in the end.
      for (let h = 11; h < 7 * 24; h += 11) {
        t.now.value = new Date(saved.getTime() + h * 3_600_000);
        expect((await t.app.inject({ url: "/api/auth/me", headers: busy })).statusCode).toBe(200);
      }
      t.now.value = new Date(saved.getTime() + 7 * 24 * 3_600_000 + 1000);
      expect((await t.app.inject({ url: "/api/auth/me", headers: busy })).statusCode).toBe(401);
    } finally {
      t.now.value = saved;
    }
  });

  it("rejects bad bodies with 400 and a clear message", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: 5, extra: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/body/);
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "a@b.c", password: "x", admin: true },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("body: unknown field(s) admin");
  });
});

describe("session gate", () => {
  it("answers 401 Unauthorized on /api routes without a session, but not on health and sign-in", async () => {
    for (const url of [
      "/api/auth/me",
      "/api/plants",
      "/api/check-current-user-roles",
      "/api/no-such-route",
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthorized" });
    }
    expect((await t.app.inject({ url: "/api/health" })).statusCode).toBe(200);
  });

  it("checks the body only after the session: a bad body without a session is 401", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/add-user?customerId=x",
      payload: { bad: 1 },
    });
    expect(res.statusCode).toBe(401);
  });

  it("GET /api/check-current-user-roles answers isAdministrator", async () => {
    const tenant = await createTenant(t.app, t.database.db);
    const admin = await t.app.inject({ url: "/api/check-current-user-roles", headers: tenant.adminHeaders });
    const user = await t.app.inject({ url: "/api/check-current-user-roles", headers: tenant.userHeaders });
    expect(admin.json()).toEqual({ isAdministrator: true });
    expect(user.json()).toEqual({ isAdministrator: false });
  });

  it("serves the OpenAPI document listing the routes", async () => {
    const res = await t.app.inject({ url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/auth/login",
        "/api/customer-users-for-user",
        "/api/plants/{plantId}/data-sources",
      ]),
    );
    expect(doc.paths["/api/auth/login"].post.requestBody).toBeDefined();
  });
});
