import { randomUUID } from "node:crypto";
import {
  PLANT_MESSAGES,
  PLANT_NAME_MAX,
  type TAuditLogPage,
  type TPlant,
  ZPlant,
} from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLine, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

type Headers = { cookie: string };
const tenant = () => createTenant(t.app, t.database.db);
const create = (headers: Headers | undefined, payload: unknown) =>
  t.app.inject({ method: "POST", url: "/api/plants", headers, payload: payload as object });
const patch = (headers: Headers | undefined, plantId: string, payload: unknown) =>
  t.app.inject({ method: "PATCH", url: `/api/plants/${plantId}`, headers, payload: payload as object });
const list = async (headers: Headers, query = ""): Promise<TPlant[]> =>
  (await t.app.inject({ url: `/api/plants${query}`, headers })).json();
const history = async (headers: Headers, plantId: string): Promise<TAuditLogPage> =>
  (await t.app.inject({ url: `/api/audit-log/resources/plant/${plantId}`, headers })).json();

describe("session, role and customer on every plant route", () => {
  it("answers 401 without a session on the list, create and change", async () => {
    const tn = await tenant();
    const answers = [
      await t.app.inject({ url: "/api/plants?includeInactive=true" }),
      await create(undefined, { name: "Plant X", timeZone: "Europe/Berlin" }),
      await patch(undefined, tn.plant.id, { name: "Renamed" }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthorized" });
    }
    expect((await list(tn.adminHeaders)).map((p) => p.name)).toEqual([tn.plant.name]);
  });

  it("answers 403 to a plain user's create and change, and changes nothing", async () => {
    const tn = await tenant();
    const created = await create(tn.userHeaders, { name: "Plant X", timeZone: "Europe/Berlin" });
    const changed = await patch(tn.userHeaders, tn.plant.id, { name: "Renamed" });
    for (const res of [created, changed]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: "Forbidden resource" });
    }
    expect(await list(tn.userHeaders, "?includeInactive=true")).toEqual([
      { id: tn.plant.id, name: tn.plant.name, timeZone: tn.plant.timeZone, active: true },
    ]);
  });

  it("answers 404 for another customer's plant and an unknown one, and leaves them alone", async () => {
    const a = await tenant();
    const b = await tenant();
    for (const id of [b.plant.id, randomUUID()]) {
      for (const body of [{ name: "Mine now" }, { active: false }]) {
        const res = await patch(a.adminHeaders, id, body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: PLANT_MESSAGES.notFound });
      }
    }
    expect((await list(b.userHeaders)).map((p) => p.name)).toEqual([b.plant.name]);
  });

  it("lists neither another customer's plants nor lets a name of theirs block one", async () => {
    const a = await tenant();
    const b = await tenant();
    const res = await create(a.adminHeaders, { name: b.plant.name, timeZone: "UTC" });
    expect(res.statusCode).toBe(201);
    expect((await list(b.adminHeaders, "?includeInactive=true")).map((p) => p.id)).toEqual([b.plant.id]);
  });
});

describe("POST /api/plants", () => {
  it("creates the plant with its ingestor, trimmed name and canonical time zone, and records it", async () => {
    const tn = await tenant();
    const res = await create(tn.adminHeaders, { name: "  Aachen Works ", timeZone: "europe/berlin" });
    expect(res.statusCode).toBe(201);
    const plant = ZPlant.strict().parse(res.json());
    expect(plant).toMatchObject({ name: "Aachen Works", timeZone: "Europe/Berlin", active: true });
    expect((await list(tn.userHeaders)).map((p) => p.name)).toEqual(["Aachen Works", tn.plant.name]);
    // Data sources hang off the plant's ingestor: it exists from the start.
    const ingestor = await t.app.inject({
      url: `/api/plants/${plant.id}/ingestor`,
      headers: tn.adminHeaders,
    });
    expect(ingestor.statusCode).toBe(200);
    const h = await history(tn.userHeaders, plant.id);
    expect(h.entries).toHaveLength(1);
    expect(h.entries[0]).toMatchObject({
      resource: "plant",
      action: "create",
      resourceId: plant.id,
      resourceName: "Aachen Works",
      plantId: plant.id,
      actorEmail: tn.admin.email,
      before: null,
      after: { name: "Aachen Works", timeZone: "Europe/Berlin", active: true },
    });
  });

  it("answers 400 for a time zone that is not an IANA name, an empty or too long name, and unknown fields", async () => {
    const tn = await tenant();
    for (const timeZone of ["Mars/Olympus", "+01:00", "Central European Time", ""]) {
      const res = await create(tn.adminHeaders, { name: "Plant TZ", timeZone });
      expect(res.statusCode, timeZone).toBe(400);
      const message = timeZone ? PLANT_MESSAGES.timeZoneInvalid : PLANT_MESSAGES.timeZoneRequired;
      expect(res.json().message, timeZone).toMatch(message);
      // The field and the contract's message, for the form to place under Time zone.
      expect(res.json().fields, timeZone).toEqual([{ in: "body", field: "timeZone", message }]);
    }
    for (const [name, message] of [
      ["   ", PLANT_MESSAGES.nameRequired],
      ["x".repeat(PLANT_NAME_MAX + 1), PLANT_MESSAGES.nameTooLong],
    ] as const) {
      const res = await create(tn.adminHeaders, { name, timeZone: "UTC" });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
      expect(res.json().fields).toEqual([{ in: "body", field: "name", message }]);
    }
    const extra = await create(tn.adminHeaders, {
      name: "Plant Y",
      timeZone: "UTC",
      customerId: randomUUID(),
    });
    expect(extra.statusCode).toBe(400);
    const named = await create(tn.adminHeaders, { name: "x".repeat(PLANT_NAME_MAX), timeZone: "UTC" });
    expect(named.statusCode).toBe(201);
    expect((await list(tn.adminHeaders)).length).toBe(2);
  });

  it("answers 409 for a name the customer has, in any letter case", async () => {
    const tn = await tenant();
    const res = await create(tn.adminHeaders, { name: ` ${tn.plant.name.toUpperCase()} `, timeZone: "UTC" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: PLANT_MESSAGES.nameTaken });
    expect(await list(tn.adminHeaders)).toHaveLength(1);
  });

  it("creates one plant of two created at once under one name, and answers the other 409", async () => {
    const tn = await tenant();
    const answers = await Promise.all(
      ["Twin Plant", "twin plant", "TWIN PLANT"].map((name) =>
        create(tn.adminHeaders, { name, timeZone: "Asia/Tokyo" }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const plants = await list(tn.adminHeaders, "?includeInactive=true");
    expect(plants.filter((p) => p.name.toLowerCase() === "twin plant")).toHaveLength(1);
  });
});

describe("PATCH /api/plants/:plantId", () => {
  it("renames and moves the time zone, recording before and after", async () => {
    const tn = await tenant();
    const renamed = await patch(tn.adminHeaders, tn.plant.id, { name: " Detroit " });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({
      id: tn.plant.id,
      name: "Detroit",
      timeZone: tn.plant.timeZone,
      active: true,
    });
    const moved = await patch(tn.adminHeaders, tn.plant.id, { timeZone: "America/Detroit" });
    expect(moved.json()).toMatchObject({ name: "Detroit", timeZone: "America/Detroit" });
    expect((await list(tn.userHeaders))[0]).toMatchObject({ name: "Detroit", timeZone: "America/Detroit" });
    // Only the letter case: still the plant's own name, not a clash with itself.
    expect((await patch(tn.adminHeaders, tn.plant.id, { name: "DETROIT" })).statusCode).toBe(200);

    const entries = (await history(tn.adminHeaders, tn.plant.id)).entries;
    expect(entries.map((e) => [e.action, e.before?.name, e.after?.name, e.after?.timeZone])).toEqual([
      ["update", "Detroit", "DETROIT", "America/Detroit"],
      ["update", "Detroit", "Detroit", "America/Detroit"],
      ["update", tn.plant.name, "Detroit", tn.plant.timeZone],
    ]);
    expect(entries[1]?.before?.timeZone).toBe(tn.plant.timeZone);
  });

  it("refuses another plant's name (409), a bad time zone and an empty change (400)", async () => {
    const tn = await tenant();
    const other = (await create(tn.adminHeaders, { name: "Other Plant", timeZone: "UTC" })).json();
    const clash = await patch(tn.adminHeaders, tn.plant.id, { name: "other plant" });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ message: PLANT_MESSAGES.nameTaken });
    const badZone = await patch(tn.adminHeaders, other.id, { timeZone: "Europe/Atlantis" });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json().message).toContain(PLANT_MESSAGES.timeZoneInvalid);
    expect((await patch(tn.adminHeaders, other.id, {})).statusCode).toBe(400);
    expect((await history(tn.adminHeaders, tn.plant.id)).entries).toEqual([]);
  });

  it("refuses to deactivate a plant with active lines, saying why; deactivates once they are inactive, and reactivates", async () => {
    const tn = await tenant();
    const second = await createLine(t.database.db, tn.customer.id, tn.plant.id);
    const refused = await patch(tn.adminHeaders, tn.plant.id, { active: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: PLANT_MESSAGES.hasActiveLines(2) });
    expect(refused.json().message).toContain("2 active lines");

    for (const line of [tn.line, second]) {
      const res = await t.app.inject({
        method: "PATCH",
        url: `/api/lines/${line.id}`,
        headers: tn.adminHeaders,
        payload: { active: false },
      });
      expect(res.statusCode).toBe(200);
    }
    const done = await patch(tn.adminHeaders, tn.plant.id, { active: false });
    expect(done.statusCode).toBe(200);
    expect(done.json().active).toBe(false);
    // The top bar's list leaves it out; the Plants page's list keeps it, to reactivate.
    expect(await list(tn.userHeaders)).toEqual([]);
    expect(await list(tn.adminHeaders, "?includeInactive=true")).toEqual([
      { id: tn.plant.id, name: tn.plant.name, timeZone: tn.plant.timeZone, active: false },
    ]);
    // Its lines are still there, by its id.
    const lines = await t.app.inject({ url: `/api/plants/${tn.plant.id}/lines`, headers: tn.userHeaders });
    expect(lines.json()).toHaveLength(2);

    const back = await patch(tn.adminHeaders, tn.plant.id, { active: true });
    expect(back.json().active).toBe(true);
    expect((await list(tn.userHeaders)).map((p) => p.id)).toEqual([tn.plant.id]);
    const entries = (await history(tn.adminHeaders, tn.plant.id)).entries;
    expect(entries.map((e) => [e.before?.active, e.after?.active])).toEqual([
      [false, true],
      [true, false],
    ]);
  });
});

describe("a deactivated plant has no active line", () => {
  it("refuses to activate its lines, saying why, and a line first seen by ingestion is created inactive", async () => {
    const tn = await tenant();
    const setLine = (active: boolean) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/lines/${tn.line.id}`,
        headers: tn.adminHeaders,
        payload: { active },
      });
    expect((await setLine(false)).statusCode).toBe(200);
    expect((await patch(tn.adminHeaders, tn.plant.id, { active: false })).statusCode).toBe(200);

    const refused = await setLine(true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: PLANT_MESSAGES.lineOfDeactivatedPlant(tn.plant.name) });

    const token = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tn.plant.id}/ingest-tokens`,
      headers: tn.adminHeaders,
      payload: { name: "Line PLC" },
    });
    expect(token.statusCode, token.body).toBe(201);
    const stored = await t.app.inject({
      method: "POST",
      url: "/api/ingest",
      headers: { authorization: `Bearer ${token.json().secret}` },
      payload: [
        {
          line: "Late Line",
          station: "OP10",
          partId: "P-1",
          timestamp: "2026-11-27T08:00:00Z",
          measurements: { Torque: 12 },
        },
      ],
    });
    expect(stored.statusCode, stored.body).toBe(200);
    const lines = await t.app.inject({ url: `/api/plants/${tn.plant.id}/lines`, headers: tn.adminHeaders });
    const late = (lines.json() as { name: string; active: boolean }[]).find((l) => l.name === "Late Line");
    expect(late?.active).toBe(false);

    // Reactivated, the plant's lines can be activated again.
    expect((await patch(tn.adminHeaders, tn.plant.id, { active: true })).statusCode).toBe(200);
    expect((await setLine(true)).statusCode).toBe(200);
  });
});

describe("OpenAPI document", () => {
  it("lists the plant routes with their bodies and the list's query", async () => {
    const res = await t.app.inject({ url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.paths["/api/plants"].post.operationId).toBe("createPlant");
    expect(doc.paths["/api/plants"].post.requestBody).toBeDefined();
    expect(doc.paths["/api/plants/{plantId}"].patch.operationId).toBe("updatePlant");
    const query = doc.paths["/api/plants"].get.parameters.map((p: { name: string }) => p.name);
    expect(query).toEqual(["includeInactive"]);
  });
});
