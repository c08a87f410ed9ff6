import { randomUUID } from "node:crypto";
import { DATA_SOURCE_MESSAGES, DATA_SOURCE_NAME_MAX, TEXT_MESSAGES, ZDataSource } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlant, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let changes = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

type Tenant = Awaited<ReturnType<typeof createTenant>>;
const tenant = () => createTenant(t.app, t.database.db);
const listUrl = (plantId: string) => `/api/plants/${plantId}/data-sources`;
const oneUrl = (id: string) => `/api/data-sources/${id}`;

async function addSource(
  tn: Tenant,
  body: Record<string, unknown> = {},
  plantId = tn.plant.id,
): Promise<{ id: string; name: string; topic: string; createdAt: string; ingestorId: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: listUrl(plantId),
    headers: tn.adminHeaders,
    payload: {
      name: `Source ${randomUUID().slice(0, 8)}`,
      topic: `p-${randomUUID().slice(0, 8)}/line1/#`,
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe("access", () => {
  it("answers 401 Unauthorized on every data source route without a session, before reading the body", async () => {
    const tn = await tenant();
    const src = await addSource(tn);
    const calls = [
      { method: "GET", url: listUrl(tn.plant.id) },
      { method: "POST", url: listUrl(tn.plant.id), payload: { bad: 1 } },
      { method: "GET", url: oneUrl(src.id) },
      { method: "DELETE", url: oneUrl(src.id) },
    ] as const;
    for (const c of calls) {
      const res = await t.app.inject(c);
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthorized" });
    }
  });

  it("answers 403 Forbidden resource to a plain user on every data source route (administrators only)", async () => {
    const tn = await tenant();
    const src = await addSource(tn);
    const calls = [
      { method: "GET", url: listUrl(tn.plant.id) },
      { method: "POST", url: listUrl(tn.plant.id), payload: { name: "Mine", topic: "a/b" } },
      { method: "GET", url: oneUrl(src.id) },
      { method: "DELETE", url: oneUrl(src.id) },
    ] as const;
    for (const c of calls) {
      const res = await t.app.inject({ ...c, headers: tn.userHeaders });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(403);
      expect(res.json()).toEqual({ message: "Forbidden resource" });
    }
    // Nothing changed.
    const list = await t.app.inject({ url: listUrl(tn.plant.id), headers: tn.adminHeaders });
    expect(list.json()).toHaveLength(1);
  });

  it("answers 404 for another customer's plant and data source, and changes nothing there", async () => {
    const a = await tenant();
    const b = await tenant();
    const bSource = await addSource(b);

    const list = await t.app.inject({ url: listUrl(b.plant.id), headers: a.adminHeaders });
    expect(list.statusCode).toBe(404);
    expect(list.json()).toEqual({ message: "Plant not found" });

    const create = await t.app.inject({
      method: "POST",
      url: listUrl(b.plant.id),
      headers: a.adminHeaders,
      payload: { name: "Intruder", topic: "x/#" },
    });
    expect(create.statusCode).toBe(404);

    const get = await t.app.inject({ url: oneUrl(bSource.id), headers: a.adminHeaders });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toEqual({ message: DATA_SOURCE_MESSAGES.notFound });

    const del = await t.app.inject({ method: "DELETE", url: oneUrl(bSource.id), headers: a.adminHeaders });
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ message: DATA_SOURCE_MESSAGES.notFound });

    const still = await t.app.inject({ url: listUrl(b.plant.id), headers: b.adminHeaders });
    expect(still.json()).toEqual([bSource]);
  });

  it("answers 404 for ids that do not exist and 400 for ids that are not uuids", async () => {
    const tn = await tenant();
    const missing = randomUUID();
    expect((await t.app.inject({ url: listUrl(missing), headers: tn.adminHeaders })).statusCode).toBe(404);
    expect((await t.app.inject({ url: oneUrl(missing), headers: tn.adminHeaders })).statusCode).toBe(404);
    const badList = await t.app.inject({ url: listUrl("not-a-uuid"), headers: tn.adminHeaders });
    expect(badList.statusCode).toBe(400);
    expect(badList.json().message).toContain("params.plantId");
    const badOne = await t.app.inject({ method: "DELETE", url: oneUrl("42"), headers: tn.adminHeaders });
    expect(badOne.statusCode).toBe(400);
    expect(badOne.json().message).toContain("params.dataSourceId");
  });
});

describe("GET /api/plants/:plantId/data-sources", () => {
  it("lists the plant's sources by name (letter case ignored), each as the spec's entity", async () => {
    const tn = await tenant();
    const ingestor = (
      await t.app.inject({ url: `/api/plants/${tn.plant.id}/ingestor`, headers: tn.adminHeaders })
    ).json();
    const empty = await t.app.inject({ url: listUrl(tn.plant.id), headers: tn.adminHeaders });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);

    await addSource(tn, { name: "beta", topic: "b/#" });
    await addSource(tn, { name: "Alpha", topic: "a/+/c" });
    await addSource(tn, { name: "Gamma", topic: "g" });
    const res = await t.app.inject({ url: listUrl(tn.plant.id), headers: tn.adminHeaders });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((s: { name: string }) => s.name)).toEqual(["Alpha", "beta", "Gamma"]);
    for (const s of list) {
      expect(ZDataSource.strict().parse(s)).toEqual(s);
      expect(s.ingestorId).toBe(ingestor.id);
    }
  });

  it("keeps each plant's sources apart within one customer", async () => {
    const tn = await tenant();
    const other = await createPlant(t.database.db, tn.customer.id);
    await addSource(tn, { name: "Here" });
    await addSource(tn, { name: "There" }, other.id);
    const here = await t.app.inject({ url: listUrl(tn.plant.id), headers: tn.adminHeaders });
    const there = await t.app.inject({ url: listUrl(other.id), headers: tn.adminHeaders });
    expect(here.json().map((s: { name: string }) => s.name)).toEqual(["Here"]);
    expect(there.json().map((s: { name: string }) => s.name)).toEqual(["There"]);
  });
});

describe("POST /api/plants/:plantId/data-sources", () => {
  it("adds a source with trimmed name and topic, answers 201 with it, and tells the ingestor", async () => {
    const tn = await tenant();
    const before = Date.now();
    const res = await t.app.inject({
      method: "POST",
      url: listUrl(tn.plant.id),
      headers: tn.adminHeaders,
      payload: { name: "  Press line  ", topic: " plant1/press/+/records " },
    });
    expect(res.statusCode).toBe(201);
    const src = res.json();
    expect(src).toMatchObject({ name: "Press line", topic: "plant1/press/+/records" });
    expect(new Date(src.createdAt).getTime()).toBeGreaterThanOrEqual(before - 5000);
    const get = await t.app.inject({ url: oneUrl(src.id), headers: tn.adminHeaders });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(src);
  });

  it("notifies the ingestor of each change (create and delete)", async () => {
    const tn = await tenant();
    const { createDataSourcesService } = await import(
      "../../src/modules/data-sources/data-sources.service.js"
    );
    const svc = createDataSourcesService({
      db: t.database.db,
      plants: t.services.plants,
      onChange: () => {
        changes++;
      },
    });
    // The acting administrator: every change is recorded in the audit log with who made it.
    const ctx = {
      customerId: tn.customer.id,
      userId: tn.admin.id,
      email: tn.admin.email,
      isProviderStaff: false,
    } as Parameters<typeof svc.create>[0];
    const start = changes;
    const src = await svc.create(ctx, tn.plant.id, { name: "Notify", topic: "n/#" });
    expect(changes).toBe(start + 1);
    await svc.delete(ctx, src.id);
    expect(changes).toBe(start + 2);
    await expect(svc.delete(ctx, src.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(changes).toBe(start + 2);
  });

  it("accepts the MQTT topic filters the standard allows", async () => {
    // Wildcards this broad overlap every other plant's topics: a database of their own.
    const t2 = await createTestApp();
    try {
      const tn = await createTenant(t2.app, t2.database.db);
      for (const topic of ["#", "+", "a/b/c", "a/+/c", "a/#", "+/+/#", "/leading/slash", "with space/x"]) {
        const res = await t2.app.inject({
          method: "POST",
          url: `/api/plants/${tn.plant.id}/data-sources`,
          headers: tn.adminHeaders,
          payload: { name: `Source ${topic}`, topic },
        });
        expect(res.statusCode, topic).toBe(201);
      }
    } finally {
      await closeTestApp(t2);
    }
  });

  it.each([
    ["a/#/b", DATA_SOURCE_MESSAGES.topicInvalid],
    ["a+/b", DATA_SOURCE_MESSAGES.topicInvalid],
    ["a/b#", DATA_SOURCE_MESSAGES.topicInvalid],
    ["a/+b", DATA_SOURCE_MESSAGES.topicInvalid],
    ["a/\u0000", TEXT_MESSAGES.unstorable],
    ["", DATA_SOURCE_MESSAGES.topicRequired],
    ["   ", DATA_SOURCE_MESSAGES.topicRequired],
    ["$SYS/#", DATA_SOURCE_MESSAGES.topicReserved],
    ["$share/g/a", DATA_SOURCE_MESSAGES.topicReserved],
    ["t".repeat(256), DATA_SOURCE_MESSAGES.topicTooLong],
  ])("rejects the topic filter %j with 400 and the message saying why", async (topic, message) => {
    const tn = await tenant();
    const res = await t.app.inject({
      method: "POST",
      url: listUrl(tn.plant.id),
      headers: tn.adminHeaders,
      payload: { name: "Bad topic", topic },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`body.topic: ${message}`);
  });

  it.each([
    ["a missing body", undefined, "Body cannot be empty"],
    ["a missing name", { topic: "a/b" }, "body.name"],
    ["a number as name", { name: 5, topic: "a/b" }, "body.name"],
    ["an array as topic", { name: "n", topic: ["a"] }, "body.topic"],
    ["a null topic", { name: "n", topic: null }, "body.topic"],
    ["an empty name", { name: "  ", topic: "a/b" }, DATA_SOURCE_MESSAGES.nameRequired],
    [
      "an oversized name",
      { name: "n".repeat(DATA_SOURCE_NAME_MAX + 1), topic: "a" },
      DATA_SOURCE_MESSAGES.nameTooLong,
    ],
    ["an unknown field", { name: "n", topic: "a", ingestorId: randomUUID() }, "ingestorId"],
    ["a list body", [{ name: "n", topic: "a" }], "body"],
  ])("rejects %s with 400 and a clear message", async (_what, payload, expected) => {
    const tn = await tenant();
    const res = await t.app.inject({
      method: "POST",
      url: listUrl(tn.plant.id),
      headers: { ...tn.adminHeaders, "content-type": "application/json" },
      payload: payload === undefined ? "" : JSON.stringify(payload),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(expected);
    const list = await t.app.inject({ url: listUrl(tn.plant.id), headers: tn.adminHeaders });
    expect(list.json()).toEqual([]);
  });

  it("accepts a name of exactly the maximum length", async () => {
    const tn = await tenant();
    const src = await addSource(tn, { name: "n".repeat(DATA_SOURCE_NAME_MAX) });
    expect(src.name).toHaveLength(DATA_SOURCE_NAME_MAX);
  });

  it("answers 409 when the plant already has a source of that name, letter case and spaces ignored", async () => {
    const tn = await tenant();
    await addSource(tn, { name: "Press" });
    for (const name of ["Press", "press", "  PRESS "]) {
      const res = await t.app.inject({
        method: "POST",
        url: listUrl(tn.plant.id),
        headers: tn.adminHeaders,
        payload: { name, topic: "other/#" },
      });
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toEqual({ message: DATA_SOURCE_MESSAGES.nameTaken });
    }
    // The same name is free in another plant and at another customer.
    const other = await createPlant(t.database.db, tn.customer.id);
    await addSource(tn, { name: "Press" }, other.id);
    const b = await tenant();
    await addSource(b, { name: "Press" });
  });

  it("answers 409, not 500, when two requests race for one name", async () => {
    const tn = await tenant();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.app.inject({
          method: "POST",
          url: listUrl(tn.plant.id),
          headers: tn.adminHeaders,
          payload: { name: "Racer", topic: "r/#" },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
  });

  it("recognises the unique index's error from this database driver (the race's safety net)", async () => {
    const tn = await tenant();
    const { createDataSourcesRepo, isUniqueViolation } = await import(
      "../../src/modules/data-sources/data-sources.repo.js"
    );
    const repo = createDataSourcesRepo(t.database.db);
    const ingestorId = (
      await t.services.plants.ingestor({ customerId: tn.customer.id } as never, tn.plant.id)
    ).id;
    const values = { customerId: tn.customer.id, ingestorId, name: "Twice", topic: "t" };
    await repo.insert(values);
    const err = await repo.insert(values).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(new Error("other"))).toBe(false);
  });
});

describe("GET /api/data-sources/:dataSourceId", () => {
  it("answers the source", async () => {
    const tn = await tenant();
    const src = await addSource(tn, { name: "Weld", topic: "weld/+/out" });
    const res = await t.app.inject({ url: oneUrl(src.id), headers: tn.adminHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(src);
  });
});

describe("DELETE /api/data-sources/:dataSourceId", () => {
  it("deletes the source with 204 and no body; a second delete is 404", async () => {
    const tn = await tenant();
    const keep = await addSource(tn, { name: "Keep" });
    const gone = await addSource(tn, { name: "Gone" });
    const res = await t.app.inject({ method: "DELETE", url: oneUrl(gone.id), headers: tn.adminHeaders });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    const list = await t.app.inject({ url: listUrl(tn.plant.id), headers: tn.adminHeaders });
    expect(list.json()).toEqual([keep]);
    expect((await t.app.inject({ url: oneUrl(gone.id), headers: tn.adminHeaders })).statusCode).toBe(404);
    const again = await t.app.inject({ method: "DELETE", url: oneUrl(gone.id), headers: tn.adminHeaders });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: DATA_SOURCE_MESSAGES.notFound });
  });

  it("frees the name for a new source", async () => {
    const tn = await tenant();
    const src = await addSource(tn, { name: "Reuse" });
    await t.app.inject({ method: "DELETE", url: oneUrl(src.id), headers: tn.adminHeaders });
    await addSource(tn, { name: "Reuse" });
  });
});

describe("topic ownership across plants and customers", () => {
  it("refuses a topic that overlaps another plant's data source, so no source reads another's records", async () => {
    const { createTestApp: make, closeTestApp: close } = await import("../helpers/app.js");
    const { createTenant: tenant } = await import("../factories.js");
    const t2 = await make();
    try {
      const x = await tenant(t2.app, t2.database.db);
      const y = await tenant(t2.app, t2.database.db);
      const post = (who: typeof x, topic: string) =>
        t2.app.inject({
          method: "POST",
          url: `/api/plants/${who.plant.id}/data-sources`,
          headers: who.adminHeaders,
          payload: { name: `src ${topic}`, topic },
        });
      expect((await post(x, "acme/press/#")).statusCode).toBe(201);
      // Same plant: another source under the same tree is fine.
      expect((await post(x, "acme/press/line1/+")).statusCode).toBe(201);
      for (const topic of ["#", "acme/#", "+/press/line9", "acme/press"]) {
        const res = await post(y, topic);
        expect(res.statusCode, topic).toBe(409);
        expect(res.json().message).toBe(DATA_SOURCE_MESSAGES.topicTaken);
      }
      expect((await post(y, "acme/paint/#")).statusCode).toBe(201);
    } finally {
      await close(t2);
    }
  });
});
