import {
  AUDIT_EXPORT_MAX,
  AUDIT_PAGE_MAX,
  AUDIT_TEXTS,
  parseCsv,
  SERVER_MESSAGES,
  type TAuditLogPage,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "../../src/modules/audit-log/audit-log.service.js";
import { createCustomer, createTenant, createUser, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  // One real change each, through the routes: A's administrator names A's line, B's names B's.
  for (const tn of [a, b]) {
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/lines/${tn.line.id}`,
      headers: tn.adminHeaders,
      payload: { friendlyName: "Assembly" },
    });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(() => closeTestApp(t));

type Headers = { cookie: string };
const get = (url: string, headers?: Headers) => t.app.inject({ method: "GET", url, headers });
const page = (res: { json: () => unknown }) => res.json() as TAuditLogPage;

const routes = () => [
  "/api/audit-log",
  "/api/audit-log/export",
  `/api/audit-log/resources/line/${a.line.id}`,
];

/** A record written as a service writes one (in its own transaction), for A. */
const record = (
  name: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) =>
  t.database.db.transaction((tx) =>
    recordAudit(
      tx,
      { customerId: a.customer.id, userId: a.admin.id, email: a.admin.email, isProviderStaff: false },
      {
        resource: "data_source",
        resourceId: "00000000-0000-4000-8000-00000000d5d5",
        resourceName: name,
        action: before === null ? "create" : "update",
        plantId: a.plant.id,
        before,
        after,
      },
    ),
  );

describe("audit log: access", () => {
  it("answers 401 without a session", async () => {
    for (const url of routes()) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
    }
  });

  it("answers 403 to a user who is not an administrator, on the log and its export", async () => {
    for (const url of ["/api/audit-log", "/api/audit-log/export"]) {
      expect((await get(url, a.userHeaders)).statusCode, url).toBe(403);
    }
  });

  it("lets every user read a line's history, and only administrators a user's", async () => {
    const line = await get(`/api/audit-log/resources/line/${a.line.id}`, a.userHeaders);
    expect(line.statusCode).toBe(200);
    expect(page(line).entries.map((e) => e.resourceName)).toEqual(["Assembly"]);
    const user = `/api/audit-log/resources/user/${a.user.id}`;
    expect((await get(user, a.userHeaders)).statusCode).toBe(403);
    expect((await get(user, a.adminHeaders)).statusCode).toBe(200);
  });

  it("answers 400 for an unknown resource, bad dates, a bad user id and a page over the maximum", async () => {
    for (const url of [
      "/api/audit-log?resource=printer",
      "/api/audit-log?from=yesterday",
      "/api/audit-log?to=2026-13-01T00:00:00Z",
      "/api/audit-log?userId=me",
      `/api/audit-log?limit=${AUDIT_PAGE_MAX + 1}`,
      "/api/audit-log?limit=0",
      "/api/audit-log?colour=red",
      "/api/audit-log/export?from=2026-01-01",
      `/api/audit-log/resources/printer/${a.line.id}`,
      `/api/audit-log/resources/line/${a.line.id}?limit=${AUDIT_PAGE_MAX + 1}`,
    ]) {
      expect((await get(url, a.adminHeaders)).statusCode, url).toBe(400);
    }
  });

  it("has no route that changes or deletes a record", async () => {
    const id = page(await get("/api/audit-log", a.adminHeaders)).entries[0]?.id;
    for (const method of ["PUT", "PATCH", "DELETE", "POST"] as const) {
      for (const url of [
        "/api/audit-log",
        `/api/audit-log/${id}`,
        `/api/audit-log/resources/line/${a.line.id}`,
      ]) {
        const res = await t.app.inject({ method, url, headers: a.adminHeaders, payload: {} });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    }
    expect(page(await get("/api/audit-log", a.adminHeaders)).entries[0]?.id).toBe(id);
  });
});

describe("audit log: tenancy", () => {
  it("shows each customer only its own records; another customer's resource has an empty history", async () => {
    const mine = page(await get("/api/audit-log", a.adminHeaders));
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(mine.entries.every((e) => e.resourceId !== b.line.id)).toBe(true);
    const theirs = page(await get("/api/audit-log", b.adminHeaders));
    expect(theirs.entries.every((e) => e.resourceId !== a.line.id)).toBe(true);
    const crossed = await get(`/api/audit-log/resources/line/${b.line.id}`, a.adminHeaders);
    expect(crossed.statusCode).toBe(200);
    expect(page(crossed)).toEqual({ entries: [], total: 0 });
    const csv = (await get("/api/audit-log/export", a.adminHeaders)).body;
    expect(csv).not.toContain(b.line.id);
  });
});

describe("audit log: list", () => {
  it("answers the change made through a route: who, what, and the field before and after", async () => {
    const res = await get(`/api/audit-log?resource=line&resourceId=${a.line.id}`, a.adminHeaders);
    expect(res.statusCode).toBe(200);
    const [entry] = page(res).entries;
    expect(entry).toMatchObject({
      actorUserId: a.admin.id,
      actorEmail: a.admin.email,
      actorIsProviderStaff: false,
      resource: "line",
      resourceId: a.line.id,
      resourceName: "Assembly",
      action: "update",
      plantId: a.plant.id,
      lineId: a.line.id,
    });
    expect(entry?.before).toMatchObject({ friendlyName: null });
    expect(entry?.after).toMatchObject({ friendlyName: "Assembly" });
  });

  it("filters by resource, user and period, newest first, and pages with the total", async () => {
    const other = await createUser(t.database.db, a.customer.id, { admin: true });
    const otherHeaders = await signIn(t.app, other.email);
    await t.app.inject({
      method: "PUT",
      url: `/api/notifications/notifications/lines/${a.line.id}/alert-viewing-window`,
      headers: otherHeaders,
      payload: { alertViewingWindowDays: 30 },
    });
    const byOther = page(await get(`/api/audit-log?userId=${other.id}`, a.adminHeaders));
    expect(byOther.total).toBe(1);
    expect(byOther.entries[0]).toMatchObject({
      actorEmail: other.email,
      after: { alertViewingWindowDays: 30 },
    });

    const lines = page(await get("/api/audit-log?resource=line", a.adminHeaders));
    expect(lines.total).toBe(2);
    expect(lines.entries.map((e) => e.actorEmail)).toEqual([other.email, a.admin.email]);
    const first = page(await get("/api/audit-log?resource=line&limit=1", a.adminHeaders));
    const second = page(await get("/api/audit-log?resource=line&limit=1&offset=1", a.adminHeaders));
    expect(first.total).toBe(2);
    expect([first.entries[0]?.id, second.entries[0]?.id]).toEqual(lines.entries.map((e) => e.id));

    const hour = 3_600_000;
    const from = new Date(Date.now() - hour).toISOString();
    const to = new Date(Date.now() + hour).toISOString();
    const within = page(await get(`/api/audit-log?resource=line&from=${from}&to=${to}`, a.adminHeaders));
    expect(within.total).toBe(2);
    const before = page(await get(`/api/audit-log?to=${from}`, a.adminHeaders));
    expect(before.total).toBe(0);
  });
});

describe("audit log: CSV export", () => {
  it("answers a UTF-8 file with a BOM, the header, one row per changed field, and cells a spreadsheet cannot run", async () => {
    await record('=HYPERLINK("http://evil.example","click")', null, { name: "x;=SUM(A1:A9)", topic: "t/#" });
    await record(
      'Press "A", hall 2\nnorth',
      { name: "Press", topic: "a/#" },
      { name: "Press", topic: "b/#" },
    );
    const res = await get("/api/audit-log/export?resource=data_source", a.adminHeaders);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="audit-log.csv"');
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    // Cells escaped as every export of the product escapes them (packages/contracts csv.ts).
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(res.body).toContain('"Press ""A"", hall 2\nnorth"');
    // A semicolon-locale spreadsheet splits at the ';' whatever the quotes say: guarded there too.
    expect(res.body).toContain(`,"x;'=SUM(A1:A9)"\r\n`);
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([...AUDIT_TEXTS.csvHeader]);
    // Newest first: the update's one changed field, then the create's two fields.
    expect(rows.slice(1).map((r) => [r[5], r[6], r[7], r[8], r[9]])).toEqual([
      ['Press "A", hall 2\nnorth', "Changed", "topic", "a/#", "b/#"],
      ['\'=HYPERLINK("http://evil.example","click")', "Created", "name", "", "x;'=SUM(A1:A9)"],
      ['\'=HYPERLINK("http://evil.example","click")', "Created", "topic", "", "t/#"],
    ]);
    expect(rows[1]?.slice(1, 5)).toEqual([
      a.admin.email,
      "No",
      "Data source",
      "00000000-0000-4000-8000-00000000d5d5",
    ]);
  });

  it(`refuses an export of more than ${AUDIT_EXPORT_MAX.toLocaleString("en-US")} records with the message saying so`, async () => {
    const big = await createCustomer(t.database.db);
    const admin = await createUser(t.database.db, big.id, { admin: true });
    await t.database.db.execute(sql`
      insert into audit_log (customer_id, actor_email, actor_is_provider_staff, resource, resource_id, resource_name, action, after)
      select ${big.id}, 'bulk@example.test', false, 'line', g::text, 'Line', 'create', '{"active":true}'::jsonb
      from generate_series(1, ${AUDIT_EXPORT_MAX + 1}) g`);
    const headers = await signIn(t.app, admin.email);
    const res = await get("/api/audit-log/export", headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AUDIT_TEXTS.exportTooLarge);
    // A narrower selection exports.
    const one = await get("/api/audit-log/export?resource=line&resourceId=7", headers);
    expect(one.statusCode).toBe(200);
    expect(parseCsv(one.body)).toHaveLength(2);
  });
});
