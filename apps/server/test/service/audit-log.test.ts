import { randomBytes, randomUUID } from "node:crypto";
import {
  AUDIT_SECRET_MARK,
  AUDIT_TEXTS,
  DEFAULT_MONITOR_RULES,
  LOCATION_CORPORATE,
  LOCATION_PROVIDER,
  parseCsv,
  type TAuditResource,
  ZTaskCreateBody,
} from "@linewatch/contracts";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { auditLog, stations } from "../../src/db/schema/index.js";
import { createSecretBox } from "../../src/lib/crypto.js";
import { createAuditLogRepo } from "../../src/modules/audit-log/audit-log.repo.js";
import { createAuditLogService } from "../../src/modules/audit-log/audit-log.service.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createServices, type Services } from "../../src/services.js";
import {
  createCustomer,
  createLine,
  createPlant,
  createStationWithSignals,
  createUser,
} from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

// The audit trail (issue 18 §2): every configuring service method writes one record in the
// change's own transaction, with who, what and the fields before and after; a change that fails
// writes none; no secret value reaches a record; records belong to the customer acted for.

const WEBHOOK_SIG = "sig-audit-7f3a9c";
const WEBHOOK_URL = `https://prod-01.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=${WEBHOOK_SIG}`;
const CLIENT_SECRET = "etq-client-secret-51c2";

let database: Database;
let services: Services;

type Tenant = Awaited<ReturnType<typeof tenant>>;
let a: Tenant;
let b: Tenant;
let staffCtx: AuthContext;

const ctxOf = (
  user: { id: string; email: string; customerId: string },
  opts: Partial<AuthContext> = {},
): AuthContext => ({
  sessionHash: "s",
  userId: user.id,
  email: user.email,
  homeCustomerId: user.customerId,
  customerId: user.customerId,
  isAdministrator: true,
  isProviderStaff: false,
  locationName: null,
  locationPlantId: null,
  selectedPlantId: null,
  selectedLineId: null,
  language: null,
  ...opts,
});

async function tenant() {
  const db = database.db;
  const customer = await createCustomer(db);
  const plant = await createPlant(db, customer.id);
  const line = await createLine(db, customer.id, plant.id);
  const admin = await createUser(db, customer.id, { admin: true });
  const signals = await createStationWithSignals(db, customer.id, line.id);
  return { customer, plant, line, admin, signals, ctx: ctxOf(admin) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices({
    db: database.db,
    publicUrl: "http://localhost:8080",
    notifications: { secrets: createSecretBox(randomBytes(32)) },
  });
  a = await tenant();
  b = await tenant();
  const provider = await createCustomer(database.db, { isProvider: true });
  const staff = await createUser(database.db, provider.id, { admin: true, locationName: LOCATION_PROVIDER });
  // Provider staff acting for A (docs/architecture.md "who may change what").
  staffCtx = ctxOf(staff, {
    customerId: a.customer.id,
    isProviderStaff: true,
    locationName: LOCATION_PROVIDER,
  });
});
afterAll(() => database?.close());

/** A's records of one resource, oldest first. */
const recordsOf = (resource: TAuditResource, resourceId?: string, customerId = a.customer.id) =>
  database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.customerId, customerId),
        eq(auditLog.resource, resource),
        resourceId ? eq(auditLog.resourceId, resourceId) : undefined,
      ),
    )
    .orderBy(asc(auditLog.at), asc(auditLog.id));

const countAll = async () => (await database.db.select({ id: auditLog.id }).from(auditLog)).length;

/** Runs a change that must fail and checks it left no record anywhere. */
async function expectFailsWithoutRecord(change: () => Promise<unknown>) {
  const before = await countAll();
  await expect(change()).rejects.toThrow();
  expect(await countAll()).toBe(before);
}

const byA = (r: { actorUserId: string | null; actorEmail: string; actorIsProviderStaff: boolean }) => {
  expect(r.actorUserId).toBe(a.admin.id);
  expect(r.actorEmail).toBe(a.admin.email);
  expect(r.actorIsProviderStaff).toBe(false);
};

describe("audit log: lines and feeder lines", () => {
  it("records a line's changed settings and its feeder lines, each as its own resource", async () => {
    const feeder = await createLine(database.db, a.customer.id, a.plant.id, { name: "Feeder A" });
    await services.lines.update(a.ctx, a.line.id, { friendlyName: "Assembly", feederLineIds: [feeder.id] });
    const [line] = await recordsOf("line", a.line.id);
    expect(line).toMatchObject({
      resourceName: "Assembly",
      action: "update",
      plantId: a.plant.id,
      lineId: a.line.id,
    });
    byA(line as NonNullable<typeof line>);
    expect(line?.before).toMatchObject({ friendlyName: null, active: true });
    expect(line?.after).toMatchObject({ friendlyName: "Assembly", active: true });
    const [feeders] = await recordsOf("feeder_line", a.line.id);
    expect(feeders?.before).toEqual({ feederLineIds: [] });
    expect(feeders?.after).toEqual({ feederLineIds: [feeder.id] });

    await services.lines.setAlertViewingWindow(a.ctx, a.line.id, 14);
    const lines = await recordsOf("line", a.line.id);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.before).toMatchObject({ alertViewingWindowDays: expect.any(Number) });
    expect(lines[1]?.after).toMatchObject({ alertViewingWindowDays: 14 });
  });

  it("records nothing for a change that changes nothing, or one that is refused", async () => {
    const n = (await recordsOf("line", a.line.id)).length;
    await services.lines.update(a.ctx, a.line.id, { friendlyName: "Assembly" });
    expect(await recordsOf("line", a.line.id)).toHaveLength(n);
    // The same feeder lines sent in another order are no change.
    const f1 = await createLine(database.db, a.customer.id, a.plant.id);
    const f2 = await createLine(database.db, a.customer.id, a.plant.id);
    await services.lines.update(a.ctx, a.line.id, { feederLineIds: [f1.id, f2.id] });
    const feeders = (await recordsOf("feeder_line", a.line.id)).length;
    await services.lines.update(a.ctx, a.line.id, { feederLineIds: [f2.id, f1.id] });
    expect(await recordsOf("feeder_line", a.line.id)).toHaveLength(feeders);
    // A feeder cycle is refused inside the transaction (409).
    const other = await createLine(database.db, a.customer.id, a.plant.id);
    await services.lines.update(a.ctx, other.id, { feederLineIds: [a.line.id] });
    await expectFailsWithoutRecord(() =>
      services.lines.update(a.ctx, a.line.id, { friendlyName: "Cycle", feederLineIds: [other.id] }),
    );
  });
});

describe("audit log: monitors and their rules", () => {
  it("records create, update and delete of a monitor with its settings", async () => {
    const signalId = a.signals.measurements[1]?.id as string;
    const { id } = await services.monitors.createCap(a.ctx, signalId);
    const [created] = await recordsOf("monitor", id);
    expect(created).toMatchObject({ action: "create", before: null, lineId: a.line.id, plantId: a.plant.id });
    byA(created as NonNullable<typeof created>);
    expect(created?.after).toMatchObject({ monitor_type: "cap", signal_uuids: [signalId], active: false });
    expect(created?.resourceName).toBe((await services.monitors.get(a.ctx, id)).monitor_name);

    await services.monitors.patch(a.ctx, id, { active: true });
    const updated = (await recordsOf("monitor", id))[1];
    expect(updated).toMatchObject({ action: "update" });
    expect(updated?.before).toMatchObject({ active: false });
    expect(updated?.after).toMatchObject({ active: true });
    // No run state in a record: it is configuration only.
    expect(updated?.after).not.toHaveProperty("next_run_at");

    // A second cap monitor for the same signal is a duplicate (409): no record.
    await expectFailsWithoutRecord(() => services.monitors.createCap(a.ctx, signalId));

    await services.monitors.remove(a.ctx, id);
    const removed = (await recordsOf("monitor", id))[2];
    expect(removed).toMatchObject({ action: "delete", after: null });
    expect(removed?.before).toMatchObject({ active: true, signal_uuids: [signalId] });
    await expectFailsWithoutRecord(() => services.monitors.remove(a.ctx, id));
  });

  it("records a task form's create and update with the filter fields that changed", async () => {
    const body = ZTaskCreateBody.parse({
      task_name: "Audit MVD",
      task_type: "mvd",
      active: true,
      frequency: 15,
      notes: "",
      task_details: {
        cust_uuid: a.customer.id,
        plant_uuid: a.plant.id,
        line_uuid: a.line.id,
        use_excluded_part_ids: false,
        use_excluded_model_numbers: false,
        alert_threshold: "MEDIUM",
        part_attributes: [],
        part_groups: [],
        part_numbers: [],
        pass_fail_filter: [],
        signal_group_uuids: [],
        signal_uuids: [a.signals.measurements[0]?.id, a.signals.measurements[1]?.id],
        evaluation_ratio: 0.2,
        sample_size: 200,
      },
    });
    const monitor = await services.monitors.create(a.ctx, body);
    await services.monitors.update(a.ctx, {
      ...body,
      task_uuid: monitor.monitor_uuid,
      task_details: { ...body.task_details, sample_size: 300 },
    });
    const recs = await recordsOf("monitor", monitor.monitor_uuid);
    expect(recs.map((r) => r.action)).toEqual(["create", "update"]);
    expect(recs[0]).toMatchObject({
      resourceName: "Audit MVD",
      after: { monitor_name: "Audit MVD", sample_size: 200 },
    });
    expect(recs[1]).toMatchObject({ before: { sample_size: 200 }, after: { sample_size: 300 } });
    // A second monitor by the same name is refused (409): no record.
    await expectFailsWithoutRecord(() =>
      services.monitors.create(a.ctx, { ...body, task_details: { ...body.task_details, sample_size: 400 } }),
    );
  });

  it("records a save of alert rules as the monitor's rules, by rule type", async () => {
    const { id } = await services.monitors.createCap(a.ctx, a.signals.measurements[2]?.id as string);
    const rules = DEFAULT_MONITOR_RULES.map((r) => (r.type === "Consecutive" ? { ...r, active: true } : r));
    await services.monitors.saveRules(a.ctx, id, rules);
    const [saved] = await recordsOf("monitor_rules", id);
    expect(saved).toMatchObject({ action: "update", lineId: a.line.id });
    expect(saved?.before).toMatchObject({ Consecutive: { active: false } });
    expect(saved?.after).toMatchObject({ Consecutive: { active: true } });
    // Saving the same rules again changes nothing and records nothing.
    await services.monitors.saveRules(a.ctx, id, rules);
    expect(await recordsOf("monitor_rules", id)).toHaveLength(1);
    // Another customer's monitor is not found: no record.
    await expectFailsWithoutRecord(() => services.monitors.saveRules(b.ctx, id, rules));
  });
});

describe("audit log: signals, stations and SPC limits", () => {
  it("records each signal whose attributes change, and nothing when the database refuses the change", async () => {
    const [m0, m1] = a.signals.measurements;
    const request = { customer_uuid: a.customer.id, plant_uuid: a.plant.id, line_uuid: a.line.id };
    await services.signals.updateAttributes(a.ctx, {
      signalRequest: request,
      signals: [{ signal_uuid: m0?.id as string, signal_attributes: { signal_friendly_name: "Torque A" } }],
    });
    const [rec] = await recordsOf("signal", m0?.id);
    expect(rec).toMatchObject({ action: "update", resourceName: "Torque 1", lineId: a.line.id });
    expect(rec?.before).toMatchObject({ friendlyName: null });
    expect(rec?.after).toMatchObject({ friendlyName: "Torque A" });
    await expectFailsWithoutRecord(() =>
      services.signals.updateAttributes(a.ctx, {
        signalRequest: request,
        signals: [
          { signal_uuid: m0?.id as string, signal_attributes: { signal_friendly_name: "Kept out" } },
          // NUL: the contract refuses it; past it, PostgreSQL does, after the first signal's write.
          { signal_uuid: m1?.id as string, signal_attributes: { signal_friendly_name: "bad\u0000name" } },
        ],
      }),
    );
  });

  it("records a result signal's classifications", async () => {
    const id = a.signals.result.id;
    await services.signals.saveResultClassifications(a.ctx, {
      [id]: {
        resultClassifications: {
          pass: [{ value: "OK", failureMode: null }],
          fail: [{ value: "NOK", failureMode: "Torque low" }],
          other: [],
        },
      },
    });
    const [rec] = await recordsOf("signal", id);
    expect(rec?.before).toEqual({
      resultClassifications: {
        pass: [{ value: "OK", failureMode: null }],
        fail: [{ value: "NOK", failureMode: "Torque low" }],
        other: [{ value: "SKIP", failureMode: null }],
      },
    });
    expect(rec?.after).toMatchObject({ resultClassifications: { other: [] } });
    // A measurement is not a result signal (400): no record.
    await expectFailsWithoutRecord(() =>
      services.signals.saveResultClassifications(a.ctx, {
        [a.signals.measurements[0]?.id as string]: {
          resultClassifications: { pass: [], fail: [], other: [] },
        },
      }),
    );
  });

  it("records a measurement's single side", async () => {
    const id = a.signals.measurements[2]?.id as string;
    await services.flags.set(staffCtx, "capSingleSided", true);
    await services.signals.setSingleSides(a.ctx, [{ id, singleSide: "UPPER" }]);
    const [rec] = await recordsOf("signal", id);
    expect(rec).toMatchObject({
      before: { singleSide: null },
      after: { singleSide: "UPPER" },
      lineId: a.line.id,
    });
    // A result signal has no single side (400): no record.
    await expectFailsWithoutRecord(() =>
      services.signals.setSingleSides(a.ctx, [{ id: a.signals.result.id, singleSide: "UPPER" }]),
    );
  });

  it("records a station marked final", async () => {
    const id = a.signals.station.id;
    await services.signals.setStationFinal(a.ctx, id, true);
    const [rec] = await recordsOf("station", id);
    expect(rec).toMatchObject({
      resourceName: a.signals.station.name,
      before: { final: false },
      after: { final: true },
      lineId: a.line.id,
      plantId: a.plant.id,
    });
    const [bare] = await database.db
      .insert(stations)
      .values({ customerId: a.customer.id, lineId: a.line.id, name: "OP-empty" })
      .returning();
    // Only a station with a result signal may become final (400): no record.
    await expectFailsWithoutRecord(() => services.signals.setStationFinal(a.ctx, bare?.id as string, true));
  });

  it("records a signal's SPC limits by model number", async () => {
    const m = a.signals.measurements[0];
    const item = {
      lineUUID: a.line.id,
      stationName: a.signals.station.name,
      signalUUID: m?.id as string,
      signalName: m?.name as string,
      singleSide: null,
    };
    const row = { model_number: "*", lslFormula: "1", lclFormula: "2", uclFormula: "8", uslFormula: "9" };
    await services.spcLimits.save(a.ctx, a.line.id, [{ ...item, limits: [row] }]);
    const [rec] = await recordsOf("spc_limit", m?.id);
    expect(rec).toMatchObject({ action: "update", resourceName: m?.name, before: {}, lineId: a.line.id });
    expect(rec?.after).toEqual({ "*": { lsl: "1", lcl: "2", ucl: "8", usl: "9" } });
    // LCL above UCL is refused (400): no record.
    await expectFailsWithoutRecord(() =>
      services.spcLimits.save(a.ctx, a.line.id, [{ ...item, limits: [{ ...row, lclFormula: "8.5" }] }]),
    );
  });
});

describe("audit log: integrations, never their secrets", () => {
  it("records a Teams webhook's host and that its URL changed, never the URL", async () => {
    const saved = await services.notifications.saveWebhook(a.ctx, a.plant.id, a.line.id, WEBHOOK_URL);
    await services.notifications.saveWebhook(a.ctx, a.plant.id, a.line.id, WEBHOOK_URL);
    await services.notifications.saveWebhook(a.ctx, a.plant.id, a.line.id, `${WEBHOOK_URL}x`);
    await services.notifications.deleteWebhook(a.ctx, saved.id);
    const recs = await recordsOf("teams_webhook", saved.id);
    // The same URL saved again changes nothing: three records, not four.
    expect(recs.map((r) => r.action)).toEqual(["create", "update", "delete"]);
    expect(recs[0]?.after).toEqual({ urlHost: "prod-01.westeurope.logic.azure.com", url: AUDIT_SECRET_MARK });
    expect(recs[1]?.after).toMatchObject({ url: AUDIT_SECRET_MARK });
    for (const r of recs) expect(JSON.stringify(r)).not.toContain(WEBHOOK_SIG);
    await expectFailsWithoutRecord(() => services.notifications.deleteWebhook(a.ctx, saved.id));
  });

  it("records ETQ settings with the client secret as a mark only when it was set or changed", async () => {
    const body = {
      apiHost: "https://etq.example.com/reliance/rest",
      clientId: "linewatch",
      tokenEndpoint: "https://login.example.com/oauth2/token",
    };
    const saved = await services.notifications.saveReliance(a.ctx, a.line.id, {
      ...body,
      clientSecret: CLIENT_SECRET,
    });
    await services.notifications.saveReliance(a.ctx, a.line.id, { ...body, clientId: "linewatch-2" });
    await services.notifications.deleteReliance(a.ctx, a.line.id);
    const recs = await recordsOf("etq_config", saved.id);
    expect(recs.map((r) => r.action)).toEqual(["create", "update", "delete"]);
    expect(recs[0]?.after).toEqual({ ...body, clientSecret: AUDIT_SECRET_MARK });
    expect(recs[1]?.before).toEqual(body);
    expect(recs[1]?.after).toEqual({ ...body, clientId: "linewatch-2" });
    for (const r of recs) expect(JSON.stringify(r)).not.toContain(CLIENT_SECRET);
    // A first save without a secret is refused inside the transaction (400): no record.
    await expectFailsWithoutRecord(() => services.notifications.saveReliance(a.ctx, a.line.id, body));
  });
});

describe("audit log: data sources, tokens and MQTT credentials", () => {
  it("records a data source's creation and deletion", async () => {
    const ds = await services.dataSources.create(a.ctx, a.plant.id, {
      name: "Press",
      topic: "audit/press/#",
    });
    await expectFailsWithoutRecord(() =>
      services.dataSources.create(a.ctx, a.plant.id, { name: "press", topic: "audit/other/#" }),
    );
    await services.dataSources.delete(a.ctx, ds.id);
    const recs = await recordsOf("data_source", ds.id);
    expect(recs.map((r) => r.action)).toEqual(["create", "delete"]);
    expect(recs[0]).toMatchObject({ resourceName: "Press", plantId: a.plant.id, after: { name: "Press" } });
    expect(recs[1]).toMatchObject({ plantId: a.plant.id, before: { name: "Press", topic: "audit/press/#" } });
    await expectFailsWithoutRecord(() => services.dataSources.delete(a.ctx, ds.id));
  });

  it("records an ingest token's creation and revocation, never its value", async () => {
    const { token, secret } = await services.ingestTokens.create(a.ctx, a.plant.id, "Line PC");
    await services.ingestTokens.revoke(a.ctx, token.id);
    // Revoking again changes nothing: no record.
    await services.ingestTokens.revoke(a.ctx, token.id);
    const recs = await recordsOf("ingest_token", token.id);
    expect(recs.map((r) => r.action)).toEqual(["create", "update"]);
    expect(recs[0]?.after).toMatchObject({ name: "Line PC", token: AUDIT_SECRET_MARK });
    expect(recs[1]).toMatchObject({
      before: { revoked: false },
      after: { revoked: true },
      plantId: a.plant.id,
    });
    for (const r of recs) expect(JSON.stringify(r)).not.toContain(secret);
    // Another customer's plant is not found: no token, no record.
    await expectFailsWithoutRecord(() => services.ingestTokens.create(a.ctx, b.plant.id, "Elsewhere"));
  });

  it("records an MQTT password rotation as a mark, never the password", async () => {
    const first = await services.mqttCredentials.rotate(a.ctx, a.plant.id);
    const second = await services.mqttCredentials.rotate(a.ctx, a.plant.id);
    const recs = await recordsOf("mqtt_credential", first.credential.username);
    expect(recs.map((r) => r.action)).toEqual(["create", "update"]);
    expect(recs[1]).toMatchObject({ resourceName: a.plant.name, after: { password: AUDIT_SECRET_MARK } });
    for (const r of recs) {
      expect(JSON.stringify(r)).not.toContain(first.password);
      expect(JSON.stringify(r)).not.toContain(second.password);
    }
    await expectFailsWithoutRecord(() => services.mqttCredentials.rotate(a.ctx, b.plant.id));
  });
});

describe("audit log: users and feature flags", () => {
  it("records adding a user, role and location changes, a password set through the link, and deletion", async () => {
    const added = await services.users.add(a.ctx, a.customer.id, {
      email: "new.person@example.test",
      locationName: LOCATION_CORPORATE,
      locationPlantId: null,
    });
    const id = added.user.id;
    await expectFailsWithoutRecord(() =>
      services.users.add(a.ctx, a.customer.id, {
        email: "new.person@example.test",
        locationName: null,
        locationPlantId: null,
      }),
    );
    await services.users.setAdministrator(a.ctx, { userId: id, customerId: a.customer.id }, true);
    await services.users.setLocation(a.ctx, id, { locationName: null, locationPlantId: a.plant.id });
    const token = new URL(added.passwordLink).searchParams.get("token") as string;
    await services.auth.setPassword(token, "a new secret passphrase");
    await services.flags.set(staffCtx, "userDeletion", true);
    await services.users.delete(a.ctx, { userId: id, customerId: a.customer.id });

    const recs = await recordsOf("user", id);
    expect(recs.map((r) => r.action)).toEqual(["create", "update", "update", "update", "delete"]);
    expect(recs[0]?.after).toEqual({
      email: "new.person@example.test",
      role: "user",
      locationName: LOCATION_CORPORATE,
    });
    expect(recs[1]).toMatchObject({ before: { role: "user" }, after: { role: "administrator" } });
    expect(recs[2]).toMatchObject({ after: { locationName: a.plant.name }, plantId: a.plant.id });
    // The password: set by the user themselves, recorded as a mark only.
    expect(recs[3]).toMatchObject({
      actorEmail: "new.person@example.test",
      after: { password: AUDIT_SECRET_MARK },
    });
    expect(JSON.stringify(recs[3])).not.toContain("a new secret passphrase");
    // The user is gone; the records of their own change are unchanged: e-mail and id stay, so
    // the log still finds them by user.
    expect(recs[3]?.actorUserId).toBe(id);
    const byUser = await services.auditLog.list(a.ctx, { userId: id, limit: 50, offset: 0 });
    expect(byUser.entries.map((e) => e.action)).toEqual(["update"]);
    expect(recs[4]).toMatchObject({ after: null, resourceName: "new.person@example.test" });
  });

  it("records a user added through the back office in the customer the user joined", async () => {
    const added = await services.users.addBackOffice(staffCtx, b.customer.id, {
      email: "joined.b@example.test",
      locationName: null,
      locationPlantId: null,
    });
    const [rec] = await recordsOf("user", added.user.id, b.customer.id);
    expect(rec).toMatchObject({ action: "create", actorUserId: staffCtx.userId, actorIsProviderStaff: true });
    expect(await recordsOf("user", added.user.id)).toEqual([]);
  });

  it("records a feature flag as provider staff acting for the customer, in that customer's log", async () => {
    await services.flags.set(staffCtx, "capLimits", false);
    await services.flags.set(staffCtx, "capLimits", true);
    const recs = await recordsOf("feature_flag", "capLimits");
    expect(recs.at(-2)).toMatchObject({
      actorUserId: staffCtx.userId,
      actorEmail: staffCtx.email,
      actorIsProviderStaff: true,
      before: { enabled: expect.any(Boolean) },
      after: { enabled: false },
    });
    expect(recs.at(-1)).toMatchObject({ before: { enabled: false }, after: { enabled: true } });
    // A customer that does not exist is not found inside the transaction: no flag, no record.
    await expectFailsWithoutRecord(() =>
      services.flags.set(
        { ...staffCtx, customerId: "00000000-0000-4000-8000-00000000abcd" },
        "capLimits",
        true,
      ),
    );
    // Nothing in the provider's own log.
    expect(await recordsOf("feature_flag", "capLimits", staffCtx.homeCustomerId)).toEqual([]);
  });
});

describe("audit log: reading", () => {
  it("lists only the customer's own records, newest first, with the total", async () => {
    await services.lines.update(b.ctx, b.line.id, { friendlyName: "B only" });
    const pageA = await services.auditLog.list(a.ctx, { limit: 500, offset: 0 });
    expect(pageA.total).toBe(pageA.entries.length);
    expect(pageA.entries.some((e) => e.resourceId === b.line.id)).toBe(false);
    const ats = pageA.entries.map((e) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const pageB = await services.auditLog.list(b.ctx, { limit: 500, offset: 0 });
    expect(pageB.entries.map((e) => e.resourceId)).toContain(b.line.id);
    const idsOfA = new Set(pageA.entries.map((e) => e.id));
    expect(pageB.entries.some((e) => idsOfA.has(e.id))).toBe(false);
    // A's history of B's line is empty: another customer's records never appear.
    const history = await services.auditLog.history(
      a.ctx,
      { resource: "line", resourceId: b.line.id },
      { limit: 50, offset: 0 },
    );
    expect(history).toEqual({ entries: [], total: 0 });
  });

  it("filters by resource, user and period", async () => {
    const byResource = await services.auditLog.list(a.ctx, { resource: "monitor", limit: 500, offset: 0 });
    expect(byResource.total).toBeGreaterThan(0);
    expect(byResource.entries.every((e) => e.resource === "monitor")).toBe(true);
    const byStaff = await services.auditLog.list(a.ctx, { userId: staffCtx.userId, limit: 500, offset: 0 });
    expect(byStaff.total).toBeGreaterThan(0);
    expect(byStaff.entries.every((e) => e.actorIsProviderStaff)).toBe(true);
    const future = await services.auditLog.list(a.ctx, {
      from: new Date(Date.now() + 3_600_000).toISOString(),
      limit: 500,
      offset: 0,
    });
    expect(future.total).toBe(0);
  });

  it("keeps records append-only: the repository has no way to change or delete one", () => {
    expect(Object.keys(createAuditLogRepo(database.db)).sort()).toEqual([
      "count",
      "insert",
      "list",
      "listAfter",
    ]);
  });
});

describe("audit log: the CSV export in pages", () => {
  it("sends every record once, newest first, ties by id, and a record added meanwhile shifts nothing", async () => {
    const db = database.db;
    const customer = await createCustomer(db);
    const admin = await createUser(db, customer.id, { admin: true });
    const at = (t: string) => sql`${t}::timestamptz`;
    const record = (name: string, time: string) => ({
      customerId: customer.id,
      actorUserId: admin.id,
      actorEmail: admin.email,
      actorIsProviderStaff: false,
      resource: "line" as const,
      resourceId: randomUUID(),
      resourceName: name,
      action: "update" as const,
      plantId: null,
      lineId: null,
      before: null,
      after: null,
      at: at(time),
    });
    // Two records a microsecond apart (a Date cannot tell them apart) and two at the same instant.
    const rows = await db
      .insert(auditLog)
      .values([
        record("first", "2026-11-20 10:00:00.000001+00"),
        record("second", "2026-11-20 10:00:00.000002+00"),
        record("tie x", "2026-11-20 11:00:00+00"),
        record("tie y", "2026-11-20 11:00:00+00"),
        record("newest", "2026-11-20 12:00:00+00"),
      ])
      .returning({ id: auditLog.id, name: auditLog.resourceName });
    const ties = rows.filter((r) => r.name.startsWith("tie")).sort((x, y) => (x.id < y.id ? 1 : -1));
    const expected = ["newest", ...ties.map((t) => t.name), "second", "first"];

    const paged = createAuditLogService({ db, exportPageSize: 2 });
    const parts: string[] = [];
    for await (const part of await paged.exportCsv(ctxOf(admin), { resource: "line" })) {
      parts.push(part);
      // After the first page, a newer record arrives: an offset would send "tie …" twice.
      if (parts.length === 2)
        await db.insert(auditLog).values(record("added meanwhile", "2026-11-21 00:00:00+00"));
    }
    // The header, then three pages of at most 2 records.
    expect(parts).toHaveLength(4);
    expect(parts[0]?.startsWith("\uFEFF")).toBe(true);
    expect(parts.slice(1).some((p) => p.includes("\uFEFF"))).toBe(false);
    const table = parseCsv(parts.join(""));
    expect(table[0]).toEqual([...AUDIT_TEXTS.csvHeader]);
    const nameColumn = AUDIT_TEXTS.csvHeader.indexOf("Name");
    expect(table.slice(1).map((r) => r[nameColumn])).toEqual(expected);
  });
});
