import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTenant, createUser, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// The API process keeps resolved sessions in memory while it hears the database's
// 'linewatch_auth' channel (migration 0011's triggers). What a user depends on: a sign-out, a
// password change, a role change or a deletion holds from the very next request, whichever
// process made it.

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

const me = (headers: { cookie: string }) => t.app.inject({ url: "/api/auth/me", headers });
const waitUntil = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 20_000, interval: 20 });

/**
 * SQL run as another process would: on PostgreSQL over a connection of its own, on PGlite (one
 * process by design) through the same database.
 */
async function elsewhere(statement: string, params: unknown[] = []) {
  const url = (t.database as { url?: string }).url;
  if (!url) {
    if (t.database.raw.kind !== "pglite") throw new Error("PostgreSQL without its URL");
    await t.database.raw.client.query(statement, params);
    return;
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(statement, params);
  } finally {
    await c.end();
  }
}

/** Resolves once the process has heard every notification committed before this call. */
async function heardEverythingSoFar() {
  const marker = `marker-${Math.random().toString(36).slice(2)}`;
  const heard = vi.spyOn(t.services.auth, "sessionsChanged");
  try {
    await elsewhere("select pg_notify('linewatch_auth', $1)", [marker]);
    await waitUntil(async () => expect(heard).toHaveBeenCalledWith(marker));
  } finally {
    heard.mockRestore();
  }
}

describe("session cache", () => {
  it("answers from memory while nothing changed, and reads again when a change is notified", async () => {
    const user = await createUser(t.database.db, tenant.customer.id);
    const headers = await signIn(t.app, user.email);
    // The user's creation and sign-in notify too, and may arrive after the next request has put
    // the session in memory, dropping it again: a marker sent after them, once heard, says they were.
    await heardEverythingSoFar();
    expect((await me(headers)).json().email).toBe(user.email);
    // A change that does not notify (triggers off for this transaction) is not seen: the session
    // came from memory. Then the notification alone makes the next request read it again.
    const renamed = `renamed-${user.email}`;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update users set email = ${renamed} where id = ${user.id}`);
    });
    expect((await me(headers)).json().email).toBe(user.email);
    await elsewhere("select pg_notify('linewatch_auth', $1)", [user.id]);
    await waitUntil(async () => expect((await me(headers)).json().email).toBe(renamed));
  });

  it("ends a session at sign-out from the next request on", async () => {
    const user = await createUser(t.database.db, tenant.customer.id);
    const headers = await signIn(t.app, user.email);
    expect((await me(headers)).statusCode).toBe(200);
    const out = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers });
    expect(out.statusCode).toBeLessThan(300);
    expect((await me(headers)).statusCode).toBe(401);
  });

  it("takes the administrator role away from the next request on, in the process that changed it", async () => {
    const user = await createUser(t.database.db, tenant.customer.id, { admin: true });
    const headers = await signIn(t.app, user.email);
    expect((await me(headers)).json().isAdministrator).toBe(true);
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/update-user-roles",
      headers: tenant.adminHeaders,
      payload: { userId: user.id, role: "administrator", customerId: tenant.customer.id },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect((await me(headers)).json().isAdministrator).toBe(false);
    const log = await t.app.inject({ url: "/api/audit-log", headers });
    expect(log.statusCode).toBe(403);
  });

  it("hears a role taken away and a session deleted by another process", async () => {
    const user = await createUser(t.database.db, tenant.customer.id, { admin: true });
    const headers = await signIn(t.app, user.email);
    expect((await me(headers)).json().isAdministrator).toBe(true);
    await elsewhere("delete from user_roles where user_id = $1", [user.id]);
    await waitUntil(async () => expect((await me(headers)).json().isAdministrator).toBe(false));
    await elsewhere("delete from sessions where user_id = $1", [user.id]);
    await waitUntil(async () => expect((await me(headers)).statusCode).toBe(401));
  });

  it("reads every session from the database while the channel is not heard", async () => {
    const user = await createUser(t.database.db, tenant.customer.id);
    const headers = await signIn(t.app, user.email);
    expect((await me(headers)).statusCode).toBe(200);
    t.services.auth.sessionCacheLive(false);
    try {
      const renamed = `quiet-${user.email}`;
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`update users set email = ${renamed} where id = ${user.id}`);
      });
      expect((await me(headers)).json().email).toBe(renamed);
    } finally {
      t.services.auth.sessionCacheLive(true);
    }
  });
});
