import {
  CAP_MONITOR_DEFAULTS,
  MONITOR_MESSAGES,
  RULE_DEFAULTS,
  RULE_MESSAGES,
  SERVER_MESSAGES,
  SIGNAL_MESSAGES,
  type TMonitor,
  type TMonitorRule,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitors } from "../../src/db/schema/index.js";
import { createLine, createStationWithSignals, createTenant, setFeatureFlag } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let sa: Awaited<ReturnType<typeof createStationWithSignals>>;
let sb: Awaited<ReturnType<typeof createStationWithSignals>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  sa = await createStationWithSignals(t.database.db, a.customer.id, a.line.id, { measurements: 6 });
  sb = await createStationWithSignals(t.database.db, b.customer.id, b.line.id);
});
afterAll(() => closeTestApp(t));

type Headers = { cookie: string };
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (method: Method, url: string, headers?: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

let nameSeq = 0;
/** A valid MVD task for tenant A; each call differs (sample size) so none is a duplicate. */
function task(over: Record<string, unknown> = {}, details: Record<string, unknown> = {}) {
  nameSeq++;
  return {
    task_name: `Monitor ${nameSeq}`,
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
      signal_uuids: [sa.measurements[0]?.id, sa.measurements[1]?.id],
      evaluation_ratio: 0.2,
      sample_size: 200 + nameSeq,
      ...details,
    },
    ...over,
  };
}
const create = (body: unknown, headers: Headers = a.userHeaders) => call("POST", "/api/tasks", headers, body);
async function created(body: unknown = task()) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TMonitor;
}
async function expect400(body: unknown, message: string) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toContain(message);
}

describe("monitors: access", () => {
  it("answers 401 on every route without a session", async () => {
    const id = crypto.randomUUID();
    const routes: [Method, string, unknown?][] = [
      ["POST", "/api/tasks", task()],
      ["PUT", "/api/tasks", { ...task(), task_uuid: id }],
      ["POST", "/api/tasks/get-by-id", { taskId: id }],
      ["DELETE", "/api/tasks", { monitor_uuid: id }],
      ["GET", `/api/lines/${a.line.id}/monitors?type=mvd`],
      ["GET", `/api/lines/${a.line.id}/monitors/next-name?type=mvd`],
      ["POST", "/api/monitors", { signalId: id }],
      ["PATCH", `/api/monitors/${id}`, { active: true }],
      ["GET", `/api/notifications/monitor-rules/${id}`],
      ["PATCH", `/api/notifications/monitor-rules/${id}`, []],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, undefined, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
    }
  });

  it("answers 404 for another customer's monitor, line, signals and groups", async () => {
    const m = await created();
    const id = m.monitor_uuid;
    const h = b.userHeaders;
    expect((await call("POST", "/api/tasks/get-by-id", h, { taskId: id })).statusCode).toBe(404);
    expect((await call("PUT", "/api/tasks", h, { ...task(), task_uuid: id })).statusCode).toBe(404);
    expect((await call("DELETE", "/api/tasks", h, { monitor_uuid: id })).statusCode).toBe(404);
    expect((await call("PATCH", `/api/monitors/${id}`, h, { active: false })).statusCode).toBe(404);
    expect((await call("GET", `/api/notifications/monitor-rules/${id}`, h)).statusCode).toBe(404);
    expect((await call("PATCH", `/api/notifications/monitor-rules/${id}`, h, [])).statusCode).toBe(404);
    expect((await call("GET", `/api/lines/${a.line.id}/monitors`, h)).statusCode).toBe(404);
    expect((await call("GET", `/api/lines/${a.line.id}/monitors/next-name?type=svd`, h)).statusCode).toBe(
      404,
    );
    expect((await call("POST", "/api/monitors", h, { signalId: sa.measurements[0]?.id })).statusCode).toBe(
      404,
    );
    // B's own customer with A's line, and A with B's signals or group
    const bTask = task(
      {},
      {
        cust_uuid: b.customer.id,
        plant_uuid: b.plant.id,
        line_uuid: a.line.id,
        signal_uuids: sb.measurements.slice(0, 2).map((s) => s.id),
      },
    );
    expect((await create(bTask, h)).statusCode).toBe(404);
    expect((await create(task({}, { cust_uuid: b.customer.id }))).statusCode).toBe(404);
    const withB = await create(task({}, { signal_uuids: [sa.measurements[0]?.id, sb.measurements[0]?.id] }));
    expect(withB.statusCode).toBe(404);
    expect(withB.json().message).toBe(SIGNAL_MESSAGES.notFound);
    const withBGroup = await create(task({}, { signal_uuids: [], signal_group_uuids: [sb.group.id] }));
    expect(withBGroup.statusCode).toBe(404);
    expect(withBGroup.json().message).toBe(SIGNAL_MESSAGES.groupNotFound);
    // still there for A
    expect((await call("POST", "/api/tasks/get-by-id", a.userHeaders, { taskId: id })).statusCode).toBe(200);
  });
});

describe("monitors: the MVD monitor creation flag", () => {
  it("refuses to create MVD monitors while the flag is off, and allows SVD", async () => {
    const off = await setFeatureFlag(t.app, t.database.db, a.customer.id, "mvdMonitorCreation", false);
    expect(off.statusCode, off.body).toBe(200);
    try {
      const res = await create(task());
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(MONITOR_MESSAGES.mvdCreationDisabled);
      await created(task({ task_type: "svd" }, { signal_uuids: [sa.measurements[2]?.id] }));
    } finally {
      await setFeatureFlag(t.app, t.database.db, a.customer.id, "mvdMonitorCreation", true);
    }
    await created(task());
  });
});

describe("monitors: validation (requirements.md monitor-forms §5, §9)", () => {
  it("checks the name: required, 3 to 100 characters, no leading spaces", async () => {
    await expect400(task({ task_name: "" }), MONITOR_MESSAGES.nameRequired);
    await expect400(task({ task_name: "ab" }), MONITOR_MESSAGES.nameMin);
    await expect400(task({ task_name: "x".repeat(101) }), MONITOR_MESSAGES.nameMax);
    await expect400(task({ task_name: " Leading" }), MONITOR_MESSAGES.nameLeadingSpaces);
    await created(task({ task_name: "abc" }));
    await created(task({ task_name: "y".repeat(100) }));
  });

  it("checks frequency (whole minutes 5 to 1440) and notes (at most 1000)", async () => {
    await expect400(task({ frequency: 4 }), MONITOR_MESSAGES.frequencyMin);
    await expect400(task({ frequency: 1441 }), MONITOR_MESSAGES.frequencyMax);
    await expect400(task({ frequency: 7.5 }), MONITOR_MESSAGES.frequencyWhole);
    await expect400(task({ notes: "n".repeat(1001) }), MONITOR_MESSAGES.notesMax);
    await created(task({ frequency: 5, notes: "n".repeat(1000) }));
    await created(task({ frequency: 1440 }));
  });

  it("checks signal counts per type", async () => {
    await expect400(task({}, { signal_uuids: [sa.measurements[0]?.id] }), MONITOR_MESSAGES.mvdSignals);
    await expect400(task({}, { signal_uuids: [] }), MONITOR_MESSAGES.mvdSignals);
    await created(task({}, { signal_uuids: [], signal_group_uuids: [sa.group.id] }));
    await expect400(task({ task_type: "svd" }, { signal_uuids: [] }), MONITOR_MESSAGES.svdSignalNone);
    await expect400(task({ task_type: "svd" }), MONITOR_MESSAGES.svdSignalRequired);
    await expect400(
      task(
        { task_type: "svd" },
        { signal_uuids: [sa.measurements[0]?.id], signal_group_uuids: [sa.group.id] },
      ),
      MONITOR_MESSAGES.svdSignalRequired,
    );
    await created(task({ task_type: "svd" }, { signal_uuids: [sa.measurements[2]?.id] }));
  });

  it("accepts only active measurements and groups of the monitor's line", async () => {
    await expect400(
      task({}, { signal_uuids: [sa.measurements[0]?.id, sa.inactive.id] }),
      MONITOR_MESSAGES.signalsNotOnLine,
    );
    await expect400(
      task({}, { signal_uuids: [sa.measurements[0]?.id, sa.result.id] }),
      MONITOR_MESSAGES.signalsNotOnLine,
    );
    const other = await createLine(t.database.db, a.customer.id, a.plant.id);
    const so = await createStationWithSignals(t.database.db, a.customer.id, other.id);
    await expect400(
      task({}, { signal_uuids: [sa.measurements[0]?.id, so.measurements[0]?.id] }),
      MONITOR_MESSAGES.signalsNotOnLine,
    );
    await expect400(
      task({}, { signal_uuids: [], signal_group_uuids: [so.group.id] }),
      MONITOR_MESSAGES.groupsNotOnLine,
    );
  });

  it("checks the query bounds: records 50 to 10000, evaluation ratio 0.01 to 0.5 with at least 25 evaluation records", async () => {
    await expect400(task({}, { sample_size: 49 }), MONITOR_MESSAGES.sampleSizeMin(50));
    await expect400(task({}, { sample_size: 10_001 }), MONITOR_MESSAGES.sampleSizeMax(10_000));
    await expect400(task({}, { sample_size: 100.5 }), MONITOR_MESSAGES.sampleSizeWhole);
    await expect400(task({}, { evaluation_ratio: 0.005 }), MONITOR_MESSAGES.evaluationRatioMin(0.01));
    await expect400(task({}, { evaluation_ratio: 0.51 }), MONITOR_MESSAGES.evaluationRatioMax(0.5));
    // 100 records × 0.2 = 20 < 25: the lower bound is 25 / 100 = 0.25
    await expect400(
      task({}, { sample_size: 100, evaluation_ratio: 0.2 }),
      MONITOR_MESSAGES.evaluationRatioMin(0.25),
    );
    await created(task({}, { sample_size: 100, evaluation_ratio: 0.25 }));
    await created(task({}, { sample_size: 50, evaluation_ratio: 0.5 }));
    await created(task({}, { sample_size: 10_000, evaluation_ratio: 0.01 }));
  });

  it("checks part attributes", async () => {
    await expect400(
      task({}, { part_attributes: [{ attribute_uuid: sa.attribute.id, selected_attribute_values: [] }] }),
      MONITOR_MESSAGES.partAttributeRequired,
    );
    await expect400(
      task({}, { part_attributes: [{ attribute_uuid: "", selected_attribute_values: ["A"] }] }),
      MONITOR_MESSAGES.partAttributeRequired,
    );
    for (const id of [crypto.randomUUID(), sa.measurements[0]?.id, sb.attribute.id, "not-an-id"]) {
      await expect400(
        task({}, { part_attributes: [{ attribute_uuid: id, selected_attribute_values: ["A"] }] }),
        MONITOR_MESSAGES.partAttributesNotFound,
      );
    }
    const m = await created(
      task({}, { part_attributes: [{ attribute_uuid: sa.attribute.id, selected_attribute_values: ["A"] }] }),
    );
    expect(m.monitor_filter.part_attributes).toEqual([
      { attributeUuid: sa.attribute.id, selectedAttributeValues: ["A"] },
    ]);
  });

  it("refuses unknown fields and a plant the line is not in", async () => {
    const res = await create({ ...task(), extra: 1 });
    expect(res.statusCode).toBe(400);
    const plantB = await create(task({}, { plant_uuid: b.plant.id }));
    expect(plantB.statusCode).toBe(404);
  });
});

describe("monitors: duplicates and names", () => {
  it("answers 409 with the existing task_uuid for the same settings on the line", async () => {
    const body = task(
      {},
      { signal_uuids: [sa.measurements[3]?.id, sa.measurements[4]?.id], part_numbers: ["B", "A"] },
    );
    const first = await created(body);
    // same settings in another order, another name: still a duplicate
    const again = await create({
      ...body,
      task_name: "Another name",
      task_details: {
        ...body.task_details,
        signal_uuids: [sa.measurements[4]?.id, sa.measurements[3]?.id],
        part_numbers: ["A", "B"],
      },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: MONITOR_MESSAGES.duplicate, task_uuid: first.monitor_uuid });
    // another type with the same filter is not a duplicate of it
    expect(
      (
        await create({
          ...body,
          task_name: "Other type",
          task_type: "cap",
          task_details: { ...body.task_details, signal_uuids: [sa.measurements[3]?.id] },
        })
      ).statusCode,
    ).toBe(201);
  });

  it("answers 409 when the name is taken on the line for the type", async () => {
    const m = await created(task({ task_name: "Taken name" }));
    const res = await create(task({ task_name: "Taken name" }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(MONITOR_MESSAGES.nameTaken("Taken name"));
    expect(res.json().task_uuid).toBeUndefined();
    // the same name for another type is fine
    await created(
      task({ task_name: "Taken name", task_type: "svd" }, { signal_uuids: [sa.measurements[5]?.id] }),
    );
    // update to a taken name
    const other = await created(task({ task_name: "Free name" }));
    const upd = await call("PUT", "/api/tasks", a.userHeaders, {
      ...task({ task_name: m.monitor_name }),
      task_uuid: other.monitor_uuid,
    });
    expect(upd.statusCode).toBe(409);
  });

  it("offers the smallest free default name", async () => {
    const line = await createLine(t.database.db, a.customer.id, a.plant.id, { name: "Press" });
    const s = await createStationWithSignals(t.database.db, a.customer.id, line.id);
    const next = async (type: string) => {
      const res = await call("GET", `/api/lines/${line.id}/monitors/next-name?type=${type}`, a.userHeaders);
      expect(res.statusCode).toBe(200);
      return res.json().name as string;
    };
    expect(await next("mvd")).toBe("Press MVD Monitor 1");
    expect(await next("svd")).toBe("Press SVD Monitor 1");
    const on = (name: string, sample: number) =>
      task(
        { task_name: name },
        {
          line_uuid: line.id,
          signal_uuids: s.measurements.slice(0, 2).map((x) => x.id),
          sample_size: sample,
        },
      );
    await created(on("Press MVD Monitor 1", 300));
    await created(on("Press MVD Monitor 3", 301));
    expect(await next("mvd")).toBe("Press MVD Monitor 2");
    expect(await next("cap")).toBe("Press CAP Monitor 1");
    // A line with a friendly name is named by it, as everywhere else on screen.
    const friendly = await createLine(t.database.db, a.customer.id, a.plant.id, {
      name: "L-07",
      friendlyName: "Front Press",
    });
    const res = await call("GET", `/api/lines/${friendly.id}/monitors/next-name?type=mvd`, a.userHeaders);
    expect(res.json().name).toBe("Front Press MVD Monitor 1");
    expect(
      (await call("GET", `/api/lines/${line.id}/monitors/next-name?type=xyz`, a.userHeaders)).statusCode,
    ).toBe(400);
  });
});

describe("monitors: happy path", () => {
  it("creates, gets, updates, lists, deactivates, activates and deletes", async () => {
    const body = task(
      { task_name: "Round trip", active: true, notes: "first" },
      {
        alert_threshold: "HIGH",
        pass_fail_filter: ["pass"],
        part_numbers: ["M-1"],
        evaluation_ratio: 0.123456,
      },
    );
    const m = await created(body);
    expect(m).toMatchObject({
      monitor_name: "Round trip",
      monitor_type: "mvd",
      active: true,
      frequency: 15,
      notes: "first",
      use_excluded_part_ids: false,
      use_excluded_model_numbers: false,
      monitor_filter: {
        cust_uuid: a.customer.id,
        plant_uuid: a.plant.id,
        line_uuid: a.line.id,
        alert_threshold: "high",
        pass_fail_filter: ["pass"],
        part_numbers: ["M-1"],
        evaluation_ratio: 0.1235,
      },
    });
    const row = async () =>
      (await t.database.db.select().from(monitors).where(eq(monitors.id, m.monitor_uuid)))[0];
    expect((await row())?.nextRunAt?.getTime()).toBe(t.now.value.getTime());
    expect((await row())?.filter).toMatchObject({
      signal_uuids: body.task_details.signal_uuids,
      sample_size: body.task_details.sample_size,
    });

    const got = await call("POST", "/api/tasks/get-by-id", a.userHeaders, { taskId: m.monitor_uuid });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(m);

    const upd = await call("PUT", "/api/tasks", a.userHeaders, {
      ...body,
      task_uuid: m.monitor_uuid,
      task_name: "Round trip 2",
      active: false,
      frequency: 30,
      task_details: { ...body.task_details, alert_threshold: "LOW" },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject({
      monitor_name: "Round trip 2",
      active: false,
      frequency: 30,
      monitor_filter: { alert_threshold: "low" },
    });
    expect((await row())?.nextRunAt).toBeNull();
    const typeChange = await call("PUT", "/api/tasks", a.userHeaders, {
      ...body,
      task_uuid: m.monitor_uuid,
      task_type: "svd",
      task_details: { ...body.task_details, signal_uuids: [sa.measurements[0]?.id] },
    });
    expect(typeChange.statusCode).toBe(400);
    expect(typeChange.json().message).toBe(MONITOR_MESSAGES.typeChange);

    const list = await call("GET", `/api/lines/${a.line.id}/monitors?type=mvd`, a.userHeaders);
    expect(list.statusCode).toBe(200);
    const names = (list.json() as TMonitor[]).map((x) => x.monitor_name);
    expect(names).toContain("Round trip 2");
    expect(names).toEqual([...names].sort());
    expect((list.json() as TMonitor[]).every((x) => x.monitor_type === "mvd")).toBe(true);
    const svd = await call("GET", `/api/lines/${a.line.id}/monitors?type=svd`, a.userHeaders);
    expect((svd.json() as TMonitor[]).map((x) => x.monitor_name)).not.toContain("Round trip 2");

    t.now.value = new Date(t.now.value.getTime() + 60_000);
    const on = await call("PATCH", `/api/monitors/${m.monitor_uuid}`, a.userHeaders, { active: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().active).toBe(true);
    expect((await row())?.nextRunAt?.getTime()).toBe(t.now.value.getTime());
    const off = await call("PATCH", `/api/monitors/${m.monitor_uuid}`, a.userHeaders, { active: false });
    expect(off.json().active).toBe(false);
    expect((await row())?.nextRunAt).toBeNull();
    expect((await call("PATCH", `/api/monitors/${m.monitor_uuid}`, a.userHeaders, {})).statusCode).toBe(400);

    const del = await call("DELETE", "/api/tasks", a.userHeaders, { monitor_uuid: m.monitor_uuid });
    expect(del.statusCode).toBe(204);
    expect(
      (await call("POST", "/api/tasks/get-by-id", a.userHeaders, { taskId: m.monitor_uuid })).statusCode,
    ).toBe(404);
    expect(
      (await call("DELETE", "/api/tasks", a.userHeaders, { monitor_uuid: m.monitor_uuid })).statusCode,
    ).toBe(404);
  });

  it("stores an inactive monitor with no next run", async () => {
    const m = await created(task({ active: false }));
    const [row] = await t.database.db.select().from(monitors).where(eq(monitors.id, m.monitor_uuid));
    expect(row?.nextRunAt).toBeNull();
  });

  it("creates a cap monitor from a signal with the new-cap defaults (capability-service variant)", async () => {
    const signalId = sa.measurements[5]?.id;
    const res = await call("POST", "/api/monitors", a.userHeaders, { signalId });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const got = (
      await call("POST", "/api/tasks/get-by-id", a.userHeaders, { taskId: id })
    ).json() as TMonitor;
    expect(got).toMatchObject({
      monitor_type: "cap",
      active: CAP_MONITOR_DEFAULTS.active,
      frequency: 15,
      notes: "",
      monitor_name: `${a.line.name} CAP Monitor 1`,
      monitor_filter: {
        signal_uuids: [signalId],
        sample_size: 150,
        evaluation_ratio: 0.2,
        alert_threshold: "medium",
      },
    });
    const dup = await call("POST", "/api/monitors", a.userHeaders, { signalId });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().task_uuid).toBe(id);
    const patched = await call("PATCH", `/api/monitors/${id}`, a.userHeaders, {
      active: true,
      useExcludedModelNumbers: true,
      useExcludedPartIds: true,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      active: true,
      use_excluded_model_numbers: true,
      use_excluded_part_ids: true,
    });
    const bad = await call("POST", "/api/monitors", a.userHeaders, { signalId: sa.inactive.id });
    expect(bad.statusCode).toBe(400);
    expect((await call("POST", "/api/monitors", a.userHeaders, { signalId: "nope" })).statusCode).toBe(400);
  });
});

describe("monitor rules (requirements.md monitor-forms §5 alert rules)", () => {
  const rules = (over: Partial<Record<TMonitorRule["type"], Partial<TMonitorRule>>>) =>
    [
      { active: true, type: "Consecutive", details: { breaches: 3 } },
      { active: true, type: "ExceedanceRuns", details: { runs: 15, breaches: 7 } },
      { active: true, type: "ExceedanceTime", details: { breaches: 7, seconds: 900 } },
    ].map((r) => ({ ...r, ...over[r.type as TMonitorRule["type"]] }));

  it("answers the defaults, all off, before any save; saves and reads back", async () => {
    const m = await created();
    const url = `/api/notifications/monitor-rules/${m.monitor_uuid}`;
    const before = await call("GET", url, a.userHeaders);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual([
      {
        active: false,
        type: "Consecutive",
        details: { runs: null, breaches: RULE_DEFAULTS.consecutiveBreaches, seconds: null },
      },
      {
        active: false,
        type: "ExceedanceRuns",
        details: { runs: RULE_DEFAULTS.runs, breaches: RULE_DEFAULTS.breachesForRuns, seconds: null },
      },
      {
        active: false,
        type: "ExceedanceTime",
        details: { runs: null, breaches: RULE_DEFAULTS.breachesForTime, seconds: RULE_DEFAULTS.seconds },
      },
    ]);
    const saved = await call(
      "PATCH",
      url,
      a.userHeaders,
      rules({ ExceedanceTime: { active: false, details: { breaches: 2, seconds: 5 } } }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const after = (await call("GET", url, a.userHeaders)).json();
    expect(after).toEqual(saved.json());
    expect(after).toEqual([
      { active: true, type: "Consecutive", details: { runs: null, breaches: 3, seconds: null } },
      { active: true, type: "ExceedanceRuns", details: { runs: 15, breaches: 7, seconds: null } },
      // bounds are not enforced on a switched-off rule
      { active: false, type: "ExceedanceTime", details: { runs: null, breaches: 2, seconds: 5 } },
    ]);
  });

  it("enforces each bound of an enabled rule with the spec's message", async () => {
    const m = await created();
    const url = `/api/notifications/monitor-rules/${m.monitor_uuid}`;
    const cases: [Partial<Record<TMonitorRule["type"], Partial<TMonitorRule>>>, string][] = [
      [{ ExceedanceRuns: { details: { runs: 0, breaches: 0 } } }, RULE_MESSAGES.runsMin],
      [{ ExceedanceRuns: { details: { runs: 1000, breaches: 7 } } }, RULE_MESSAGES.runsMax],
      [{ ExceedanceRuns: { details: { breaches: 7 } } }, RULE_MESSAGES.runsRequired],
      [{ ExceedanceRuns: { details: { runs: 15, breaches: 0 } } }, RULE_MESSAGES.breachesMin],
      [{ ExceedanceRuns: { details: { runs: 15 } } }, RULE_MESSAGES.breachesRequired],
      [{ ExceedanceTime: { details: { breaches: 1000, seconds: 900 } } }, RULE_MESSAGES.breachesMax],
      [{ ExceedanceRuns: { details: { runs: 5, breaches: 6 } } }, RULE_MESSAGES.breachesExceedRuns],
      [{ ExceedanceTime: { details: { breaches: 7, seconds: 59 } } }, RULE_MESSAGES.timeMin],
      [{ ExceedanceTime: { details: { breaches: 7, seconds: 86_401 } } }, RULE_MESSAGES.timeMax],
      [{ ExceedanceTime: { details: { breaches: 7, seconds: null } } }, RULE_MESSAGES.timeRequired],
      [{ Consecutive: { details: { breaches: 0 } } }, RULE_MESSAGES.consecutiveMin],
      [{ Consecutive: { details: { breaches: 1000 } } }, RULE_MESSAGES.consecutiveMax],
      [{ Consecutive: { details: { breaches: 2.5 } } }, RULE_MESSAGES.breachesWhole],
    ];
    for (const [over, message] of cases) {
      const res = await call("PATCH", url, a.userHeaders, rules(over));
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const edges = rules({
      Consecutive: { details: { breaches: 999 } },
      ExceedanceRuns: { details: { runs: 999, breaches: 999 } },
      ExceedanceTime: { details: { breaches: 1, seconds: 86_400 } },
    });
    expect((await call("PATCH", url, a.userHeaders, edges)).statusCode).toBe(200);
    const low = rules({
      ExceedanceRuns: { details: { runs: 1, breaches: 1 } },
      ExceedanceTime: { details: { breaches: 1, seconds: 60 } },
    });
    expect((await call("PATCH", url, a.userHeaders, low)).statusCode).toBe(200);
    const twice = [...rules({}), rules({})[0]];
    expect((await call("PATCH", url, a.userHeaders, twice)).statusCode).toBe(400);
    expect(
      (await call("PATCH", url, a.userHeaders, [{ active: true, type: "Other", details: {} }])).statusCode,
    ).toBe(400);
  });
});
