import {
  AUDIT_SECRET_MARK,
  AUTH_MESSAGES,
  LOCATION_PROVIDER,
  LOGIN_LIMIT,
  PASSWORD_LINK_TEXTS,
  SERVER_MESSAGES,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../src/db/schema/index.js";
import { createCustomer, createTenant, createUser, PASSWORD, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// Passwords (issue 33 §2 and §5, decision 0318): a user changes their own from the user menu; an
// administrator issues a new one-time link, which ends the user's sessions.

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

const NEW_PASSWORD = "a brand new passphrase";
const change = (headers: { cookie: string }, currentPassword: string, newPassword = NEW_PASSWORD) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/me/password",
    headers,
    payload: { currentPassword, newPassword },
  });
const login = (email: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
const me = (headers: { cookie: string }) => t.app.inject({ url: "/api/auth/me", headers });
const passwordLink = (headers: { cookie: string }, userId: string) =>
  t.app.inject({ method: "POST", url: `/api/users/${userId}/password-link`, headers });
const setPassword = (link: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/set-password",
    payload: { token: new URL(link).searchParams.get("token"), password },
  });
const auditOf = (userId: string) =>
  t.database.db
    .select({ actorUserId: auditLog.actorUserId, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.resource, "user"), eq(auditLog.resourceId, userId)));

describe("changing one's own password", () => {
  it("needs the current password; the new one signs in, the old one no longer", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const headers = await signIn(t.app, u.email);
    const wrong = await change(headers, "not my password");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      message: AUTH_MESSAGES.wrongCurrentPassword,
      fields: [{ in: "body", field: "currentPassword" }],
    });
    expect((await login(u.email, NEW_PASSWORD)).statusCode).toBe(401);

    expect((await change(headers, PASSWORD)).statusCode).toBe(204);
    expect((await login(u.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(u.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("ends the user's other sessions and keeps the one that changed it", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const mine = await signIn(t.app, u.email);
    const other = await signIn(t.app, u.email);
    expect((await me(other)).statusCode).toBe(200);
    expect((await change(mine, PASSWORD)).statusCode).toBe(204);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(mine)).statusCode).toBe(200);
  });

  it("records the change in the audit log without either password", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    expect((await change(await signIn(t.app, u.email), PASSWORD)).statusCode).toBe(204);
    const rows = await auditOf(u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorUserId: u.id, after: { password: AUDIT_SECRET_MARK } });
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    expect(JSON.stringify(rows)).not.toContain(NEW_PASSWORD);
  });

  it("is limited like sign-in: after 5 wrong current passwords even the right one waits, and so does sign-in", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const headers = await signIn(t.app, u.email);
    for (let i = 0; i < LOGIN_LIMIT.failures; i++)
      expect((await change(headers, `wrong ${i}`)).statusCode).toBe(400);
    const blocked = await change(headers, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(AUTH_MESSAGES.tooManyAttempts);
    expect((await login(u.email, PASSWORD)).statusCode).toBe(429);
    const saved = t.now.value;
    t.now.value = new Date(saved.getTime() + LOGIN_LIMIT.windowMs + 1000);
    try {
      expect((await change(headers, PASSWORD)).statusCode).toBe(204);
    } finally {
      t.now.value = saved;
    }
  });

  it("refuses a short new password and answers 401 without a session", async () => {
    const res = await change(a.userHeaders, PASSWORD, "short");
    expect(res.statusCode).toBe(400);
    const none = await t.app.inject({
      method: "POST",
      url: "/api/auth/me/password",
      payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe(SERVER_MESSAGES.unauthorized);
  });
});

describe("an administrator's password link", () => {
  it("answers a one-time link that sets the password, and ends the user's sessions at once", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const session = await signIn(t.app, u.email);
    expect((await me(session)).statusCode).toBe(200);
    const res = await passwordLink(a.adminHeaders, u.id);
    expect(res.statusCode).toBe(200);
    const link = res.json().passwordLink as string;
    expect(link).toMatch(/^http:\/\/localhost:8080\/set-password\?token=/);
    expect((await me(session)).statusCode).toBe(401);
    // The password itself is unchanged until the link is used.
    expect((await setPassword(link, NEW_PASSWORD)).statusCode).toBe(204);
    expect((await login(u.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await setPassword(link, "yet another passphrase")).statusCode).toBe(400);
  });

  it("makes the user's earlier links stop working", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const first = (await passwordLink(a.adminHeaders, u.id)).json().passwordLink as string;
    const second = (await passwordLink(a.adminHeaders, u.id)).json().passwordLink as string;
    const refused = await setPassword(first, NEW_PASSWORD);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(AUTH_MESSAGES.invalidPasswordLink);
    expect((await setPassword(second, NEW_PASSWORD)).statusCode).toBe(204);
  });

  it("records the link in the audit log, by the administrator, without the link", async () => {
    const u = await createUser(t.database.db, a.customer.id);
    const link = (await passwordLink(a.adminHeaders, u.id)).json().passwordLink as string;
    const rows = await auditOf(u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorUserId: a.admin.id, after: { passwordLink: AUDIT_SECRET_MARK } });
    expect(JSON.stringify(rows)).not.toContain(new URL(link).searchParams.get("token"));
  });

  it("answers 404 for another customer's user and leaves that user's sessions alone", async () => {
    const session = await signIn(t.app, b.user.email);
    const res = await passwordLink(a.adminHeaders, b.user.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(USER_MESSAGES.userNotFound);
    expect((await me(session)).statusCode).toBe(200);
    expect(await auditOf(b.user.id)).toHaveLength(0);
  });

  it("is for administrators only, and provider staff's rows are provider staff's", async () => {
    const res = await passwordLink(a.userHeaders, a.admin.id);
    expect(res.statusCode).toBe(403);
    expect((await me(a.adminHeaders)).statusCode).toBe(200);
    const staff = await createUser(t.database.db, a.customer.id, { locationName: LOCATION_PROVIDER });
    // A provider location in a customer that is not the provider is not provider staff: allowed.
    expect((await passwordLink(a.adminHeaders, staff.id)).statusCode).toBe(200);
    expect((await passwordLink(a.adminHeaders, crypto.randomUUID())).statusCode).toBe(404);
    expect((await passwordLink(a.adminHeaders, "not-a-uuid")).statusCode).toBe(400);
  });
});

describe("provider staff's password link", () => {
  it("only provider staff may send one to provider staff", async () => {
    const provider = await createCustomer(t.database.db, { isProvider: true });
    const staff = await createUser(t.database.db, provider.id, { locationName: LOCATION_PROVIDER });
    const admin = await createUser(t.database.db, provider.id, { admin: true });
    const res = await passwordLink(await signIn(t.app, admin.email), staff.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(PASSWORD_LINK_TEXTS.providerStaffOnly);
  });
});
