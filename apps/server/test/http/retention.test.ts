// GET/PUT /api/retention (issue 31 §2; docs/decisions/0301-retention-per-customer.md): roles,
// validation, tenancy and the audit record.
import { RETENTION_DEFAULTS, RETENTION_MESSAGES, SERVER_MESSAGES } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderStaff, createTenant } from "../factories.js";
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

const get = (headers?: { cookie: string }) => t.app.inject({ url: "/api/retention", headers });
const put = (headers: { cookie: string } | undefined, payload: unknown) =>
  t.app.inject({ method: "PUT", url: "/api/retention", headers, payload: payload as object });
const SHORT = { partRecordsDays: 30, evaluationsDays: 14, resolvedAlertsDays: 365, auditLogDays: 3650 };

describe("data retention routes", () => {
  it("answers the defaults to an administrator of a customer that set none", async () => {
    const res = await get(a.adminHeaders);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...RETENTION_DEFAULTS, isDefault: true });
  });

  it("answers 401 without a session and 403 to users who are not administrators, changing nothing", async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await put(undefined, SHORT)).statusCode).toBe(401);
    const read = await get(a.userHeaders);
    expect(read.statusCode).toBe(403);
    expect(read.json()).toEqual({ message: SERVER_MESSAGES.forbidden });
    expect((await put(a.userHeaders, SHORT)).statusCode).toBe(403);
    expect((await get(a.adminHeaders)).json().isDefault).toBe(true);
  });

  it("lets an administrator set the customer's retention, for that customer only, and audits it", async () => {
    const res = await put(a.adminHeaders, SHORT);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...SHORT, isDefault: false });
    expect((await get(a.adminHeaders)).json()).toEqual({ ...SHORT, isDefault: false });
    // The other customer still has the defaults.
    expect((await get(b.adminHeaders)).json()).toEqual({ ...RETENTION_DEFAULTS, isDefault: true });

    const log = await t.app.inject({ url: "/api/audit-log?resource=retention", headers: a.adminHeaders });
    expect(log.statusCode).toBe(200);
    const [entry, ...rest] = log.json().entries;
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      resource: "retention",
      action: "update",
      resourceId: a.customer.id,
      actorEmail: a.admin.email,
      actorIsProviderStaff: false,
      before: RETENTION_DEFAULTS,
      after: SHORT,
    });
    // Its history is the administrators' too.
    const history = `/api/audit-log/resources/retention/${a.customer.id}`;
    expect((await t.app.inject({ url: history, headers: a.adminHeaders })).json().entries).toHaveLength(1);
    expect((await t.app.inject({ url: history, headers: a.userHeaders })).statusCode).toBe(403);
    const other = await t.app.inject({ url: "/api/audit-log?resource=retention", headers: b.adminHeaders });
    expect(other.json().entries).toEqual([]);

    // The same values again change nothing and record nothing.
    expect((await put(a.adminHeaders, SHORT)).statusCode).toBe(200);
    const again = await t.app.inject({ url: "/api/audit-log?resource=retention", headers: a.adminHeaders });
    expect(again.json().entries).toHaveLength(1);

    // Back to keeping the audit log for ever: null.
    const forever = await put(a.adminHeaders, { ...SHORT, auditLogDays: null });
    expect(forever.json()).toEqual({ ...SHORT, auditLogDays: null, isDefault: false });
  });

  it("lets provider staff set it for the customer they act for, recorded as provider staff", async () => {
    const staff = await createProviderStaff(t.app, t.database.db);
    const sw = await t.app.inject({
      method: "POST",
      url: "/api/auth/switch-customer",
      headers: staff.headers,
      payload: { customerId: b.customer.id },
    });
    expect(sw.statusCode).toBe(200);
    const res = await put(staff.headers, { ...RETENTION_DEFAULTS, partRecordsDays: 200 });
    expect(res.statusCode).toBe(200);
    expect((await get(b.adminHeaders)).json()).toEqual({
      ...RETENTION_DEFAULTS,
      partRecordsDays: 200,
      isDefault: false,
    });
    const log = await t.app.inject({ url: "/api/audit-log?resource=retention", headers: b.adminHeaders });
    expect(log.json().entries[0]).toMatchObject({
      actorIsProviderStaff: true,
      after: { partRecordsDays: 200 },
    });
  });

  it("answers 400 naming the field for days out of bounds, fractions, text, missing and unknown fields", async () => {
    const cases: [unknown, string, string][] = [
      [{ ...SHORT, partRecordsDays: 6 }, "partRecordsDays", RETENTION_MESSAGES.min("partRecordsDays")],
      [{ ...SHORT, evaluationsDays: 3651 }, "evaluationsDays", RETENTION_MESSAGES.max("evaluationsDays")],
      [{ ...SHORT, auditLogDays: 364 }, "auditLogDays", RETENTION_MESSAGES.min("auditLogDays")],
      [
        { ...SHORT, resolvedAlertsDays: 45.5 },
        "resolvedAlertsDays",
        RETENTION_MESSAGES.whole("resolvedAlertsDays"),
      ],
      [
        { ...SHORT, partRecordsDays: "30" },
        "partRecordsDays",
        RETENTION_MESSAGES.required("partRecordsDays"),
      ],
      [
        { partRecordsDays: 30, evaluationsDays: 14, resolvedAlertsDays: 365 },
        "auditLogDays",
        RETENTION_MESSAGES.required("auditLogDays"),
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await put(a.adminHeaders, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields).toEqual([{ in: "body", field, message }]);
    }
    const unknown = await put(a.adminHeaders, { ...SHORT, everything: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("body: unknown field(s) everything");
    // Nothing was stored by the refusals.
    expect((await get(a.adminHeaders)).json().partRecordsDays).toBe(SHORT.partRecordsDays);
  });
});
