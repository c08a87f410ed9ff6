import {
  API_TOKEN_BOUNDS,
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  AUDIT_SECRET_MARK,
  SERVER_MESSAGES,
  type TApiToken,
  type TCreateApiTokenResponse,
} from "@linewatch/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, auditLog } from "../../src/db/schema/index.js";
import { hashToken } from "../../src/lib/tokens.js";
import { createTenant, createUser, setFeatureFlag, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// Personal API tokens (issue 33 §3 and §5, decision 0319).

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function createToken(
  headers: { cookie: string },
  body: { name?: string; expiresInDays?: number; scope?: "read" | "role" } = {},
): Promise<TCreateApiTokenResponse> {
  const res = await call("POST", "/api/auth/tokens", headers, {
    name: body.name ?? `Script ${crypto.randomUUID().slice(0, 8)}`,
    expiresInDays: body.expiresInDays ?? 30,
    scope: body.scope ?? "role",
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Runs with the clock moved on by `ms`, then puts it back. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const saved = t.now.value;
  t.now.value = new Date(saved.getTime() + ms);
  try {
    return await fn();
  } finally {
    t.now.value = saved;
  }
}

describe("API tokens: created and listed", () => {
  it("answers the secret once, stores only its SHA-256, and lists the token without it", async () => {
    const created = await createToken(a.userHeaders, { name: "Grafana", expiresInDays: 90, scope: "read" });
    expect(created.secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
    // 32 random bytes in base64url after the prefix.
    expect(created.secret.length).toBe(API_TOKEN_PREFIX.length + 43);
    expect(created.token).toMatchObject({ name: "Grafana", scope: "read", lastUsedAt: null });
    expect(created.token.prefix).toBe(created.secret.slice(0, API_TOKEN_PREFIX.length + 6));
    const days = (Date.parse(created.token.expiresAt) - t.now.value.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(90, 5);

    const [stored] = await t.database.db
      .select({ tokenHash: apiTokens.tokenHash })
      .from(apiTokens)
      .where(eq(apiTokens.id, created.token.id));
    expect(stored?.tokenHash).toBe(hashToken(created.secret));
    expect(stored?.tokenHash).not.toContain(created.secret);

    const list = await call("GET", "/api/auth/tokens", a.userHeaders);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(created.token);
    expect(list.body).not.toContain(created.secret);
    // Another user's list does not hold it.
    const other = (await call("GET", "/api/auth/tokens", a.adminHeaders)).json() as TApiToken[];
    expect(other.map((x) => x.id)).not.toContain(created.token.id);
  });

  it("records the creation and the revocation in the audit log without the secret", async () => {
    const created = await createToken(a.userHeaders, { name: "Audit me" });
    expect((await call("DELETE", `/api/auth/tokens/${created.token.id}`, a.userHeaders)).statusCode).toBe(
      204,
    );
    const rows = await t.database.db
      .select({
        action: auditLog.action,
        after: auditLog.after,
        before: auditLog.before,
        customerId: auditLog.customerId,
      })
      .from(auditLog)
      .where(and(eq(auditLog.resource, "api_token"), eq(auditLog.resourceId, created.token.id)));
    expect(rows.map((r) => r.action).sort()).toEqual(["create", "delete"]);
    expect(rows.every((r) => r.customerId === a.customer.id)).toBe(true);
    expect(rows.find((r) => r.action === "create")?.after).toMatchObject({ token: AUDIT_SECRET_MARK });
    expect(JSON.stringify(rows)).not.toContain(created.secret);
  });

  it("refuses bad bodies: no name, 0 or more than a year of days, an unknown scope", async () => {
    for (const body of [
      { name: "", expiresInDays: 30, scope: "read" },
      { name: "x", expiresInDays: 0, scope: "read" },
      { name: "x", expiresInDays: API_TOKEN_BOUNDS.maxDays + 1, scope: "read" },
      { name: "x", expiresInDays: 30, scope: "admin" },
      { name: "x", expiresInDays: 1.5, scope: "read" },
    ]) {
      expect(
        (await call("POST", "/api/auth/tokens", a.userHeaders, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  it("answers 401 on token management without a session", async () => {
    expect((await call("GET", "/api/auth/tokens")).statusCode).toBe(401);
    expect(
      (await call("POST", "/api/auth/tokens", {}, { name: "x", expiresInDays: 1, scope: "read" })).statusCode,
    ).toBe(401);
    expect((await call("DELETE", `/api/auth/tokens/${crypto.randomUUID()}`)).statusCode).toBe(401);
  });
});

describe("API tokens: used", () => {
  it("acts as its user on the API routes the user may call, and writes the last use", async () => {
    const { secret, token } = await createToken(a.userHeaders);
    const me = await call("GET", "/api/auth/me", bearer(secret));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: a.user.id, customer: { id: a.customer.id } });
    expect((await call("GET", `/api/lines/${a.line.id}/signals`, bearer(secret))).statusCode).toBe(200);
    // What the user may not call, the token may not either.
    expect((await call("GET", "/api/customer-users-for-user", bearer(secret))).statusCode).toBe(403);
    const listed = (await call("GET", "/api/auth/tokens", a.userHeaders)).json() as TApiToken[];
    expect(listed.find((x) => x.id === token.id)?.lastUsedAt).toBe(t.now.value.toISOString());
  });

  it("needs no cookie and passes the cross-site check a browser's cookie request must pass", async () => {
    const { secret } = await createToken(a.adminHeaders);
    const res = await call(
      "PATCH",
      `/api/users/${a.user.id}`,
      {
        ...bearer(secret),
        origin: "https://elsewhere.example",
        "sec-fetch-site": "cross-site",
      },
      { locationName: null, locationPlantId: null },
    );
    expect(res.statusCode, res.body).toBe(204);
    expect(res.headers["set-cookie"]).toBeUndefined();
    // The same request with the session cookie is refused as cross-site.
    const withCookie = await call(
      "PATCH",
      `/api/users/${a.user.id}`,
      {
        ...a.adminHeaders,
        origin: "https://elsewhere.example",
        "sec-fetch-site": "cross-site",
      },
      { locationName: null, locationPlantId: null },
    );
    expect(withCookie.statusCode).toBe(403);
    expect(withCookie.json().message).toBe(SERVER_MESSAGES.crossOrigin);
  });

  it("is judged by the token alone: a bad token with a good cookie is 401", async () => {
    const res = await call("GET", "/api/auth/me", { ...a.userHeaders, ...bearer(`${API_TOKEN_PREFIX}nope`) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(API_TOKEN_MESSAGES.invalid);
  });

  it("leaves other Authorization headers to the cookie (a proxy's sign-in, an ingest token)", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNz", "Bearer lwi_someingesttoken", "Bearer proxy-token"]) {
      expect((await call("GET", "/api/auth/me", { ...a.userHeaders, authorization })).statusCode).toBe(200);
      expect((await call("GET", "/api/auth/me", { authorization })).statusCode).toBe(401);
    }
  });

  it("is not accepted on the ingest route", async () => {
    const { secret } = await createToken(a.adminHeaders);
    const res = await call("POST", "/api/ingest", bearer(secret), []);
    expect(res.statusCode).toBe(401);
  });

  it("is not accepted on token management, the own password, sign-out or the customer switch", async () => {
    const { secret, token } = await createToken(a.userHeaders);
    const refused: [Method, string, unknown?][] = [
      ["GET", "/api/auth/tokens"],
      ["POST", "/api/auth/tokens", { name: "x", expiresInDays: 1, scope: "role" }],
      ["DELETE", `/api/auth/tokens/${token.id}`],
      ["POST", "/api/auth/me/password", { currentPassword: "x", newPassword: "long enough password" }],
      ["POST", "/api/auth/logout"],
      ["POST", "/api/auth/switch-customer", { customerId: b.customer.id }],
    ];
    for (const [method, url, payload] of refused) {
      const res = await call(method, url, bearer(secret), payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(API_TOKEN_MESSAGES.sessionOnly);
    }
    // Still there and still working.
    expect((await call("GET", "/api/auth/me", bearer(secret))).statusCode).toBe(200);
  });
});

describe("API tokens: scoped", () => {
  it("a read-only token reads what its user may read and answers 403 on any change", async () => {
    const { secret } = await createToken(a.adminHeaders, { scope: "read" });
    expect((await call("GET", "/api/customer-users-for-user", bearer(secret))).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ["PATCH", `/api/users/${a.user.id}`, { locationName: null, locationPlantId: null }],
      [
        "POST",
        "/api/update-user-roles",
        { userId: a.user.id, role: "administrator", customerId: a.customer.id },
      ],
      ["POST", `/api/users/${a.user.id}/password-link`],
      ["PATCH", "/api/auth/me/selection", { selectedPlantId: a.plant.id }],
    ] as [Method, string, unknown?][]) {
      const res = await call(method, url, bearer(secret), payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(API_TOKEN_MESSAGES.readOnly);
    }
  });

  it("a role token follows the user's role when it is used", async () => {
    const admin = await createUser(t.database.db, a.customer.id, { admin: true });
    const headers = await signIn(t.app, admin.email);
    const { secret } = await createToken(headers, { scope: "role" });
    const patch = () =>
      call("PATCH", `/api/users/${a.user.id}`, bearer(secret), { locationName: null, locationPlantId: null });
    expect((await patch()).statusCode).toBe(204);
    const removed = await call("PUT", "/api/update-user-roles", a.adminHeaders, {
      userId: admin.id,
      role: "administrator",
      customerId: a.customer.id,
    });
    expect(removed.statusCode).toBe(204);
    expect((await patch()).statusCode).toBe(403);
    expect((await call("GET", "/api/customer-users-for-user", bearer(secret))).statusCode).toBe(403);
  });
});

describe("API tokens: expired and revoked", () => {
  it("stops at its expiry", async () => {
    const { secret } = await createToken(a.userHeaders, { expiresInDays: 1 });
    expect(
      (await later(86_400_000 - 1000, () => call("GET", "/api/auth/me", bearer(secret)))).statusCode,
    ).toBe(200);
    const expired = await later(86_400_000 + 1000, () => call("GET", "/api/auth/me", bearer(secret)));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(API_TOKEN_MESSAGES.invalid);
  });

  it("stops at once when revoked, and leaves the list", async () => {
    const { secret, token } = await createToken(a.userHeaders);
    expect((await call("GET", "/api/auth/me", bearer(secret))).statusCode).toBe(200);
    expect((await call("DELETE", `/api/auth/tokens/${token.id}`, a.userHeaders)).statusCode).toBe(204);
    expect((await call("GET", "/api/auth/me", bearer(secret))).statusCode).toBe(401);
    const listed = (await call("GET", "/api/auth/tokens", a.userHeaders)).json() as TApiToken[];
    expect(listed.map((x) => x.id)).not.toContain(token.id);
    expect((await call("DELETE", `/api/auth/tokens/${token.id}`, a.userHeaders)).statusCode).toBe(404);
  });

  it("goes with its user", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const { secret } = await createToken(await signIn(t.app, u.email));
    expect((await call("GET", "/api/auth/me", bearer(secret))).statusCode).toBe(200);
    await setUserDeletion(true);
    const del = await call("POST", "/api/users", a.adminHeaders, { userId: u.id, customerId: a.customer.id });
    expect(del.statusCode, del.body).toBe(204);
    expect((await call("GET", "/api/auth/me", bearer(secret))).statusCode).toBe(401);
  });
});

describe("API tokens: tenancy", () => {
  it("answers 404 for another customer's ids, as a session does", async () => {
    const { secret } = await createToken(a.adminHeaders);
    for (const [method, url, payload] of [
      ["GET", `/api/lines/${b.line.id}/signals`],
      ["PATCH", `/api/users/${b.user.id}`, { locationName: null, locationPlantId: null }],
      ["POST", `/api/users/${b.user.id}/password-link`],
    ] as [Method, string, unknown?][]) {
      const res = await call(method, url, bearer(secret), payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it("revoking another user's token, of this customer or another, is 404 and leaves it working", async () => {
    const theirs = await createToken(b.userHeaders);
    const colleague = await createToken(a.adminHeaders);
    for (const id of [theirs.token.id, colleague.token.id]) {
      const res = await call("DELETE", `/api/auth/tokens/${id}`, a.userHeaders);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(API_TOKEN_MESSAGES.notFound);
    }
    expect((await call("GET", "/api/auth/me", bearer(theirs.secret))).statusCode).toBe(200);
    expect((await call("GET", "/api/auth/me", bearer(colleague.secret))).statusCode).toBe(200);
  });
});

describe("API tokens: the OpenAPI document", () => {
  it("declares the bearer scheme, and session only on the routes that refuse tokens", async () => {
    const doc = (await call("GET", "/api/docs/json")).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual(expect.arrayContaining([{ apiToken: [] }, { session: [] }]));
    for (const [path, method] of [
      ["/api/auth/tokens", "get"],
      ["/api/auth/tokens", "post"],
      ["/api/auth/tokens/{tokenId}", "delete"],
      ["/api/auth/me/password", "post"],
    ] as const) {
      expect(doc.paths[path][method].security, `${method} ${path}`).toEqual([{ session: [] }]);
    }
  });
});

/** Lets administrators delete users (as provider staff switch it). */
async function setUserDeletion(enabled: boolean) {
  const res = await setFeatureFlag(t.app, t.database.db, a.customer.id, "userDeletion", enabled);
  expect(res.statusCode).toBe(200);
}
