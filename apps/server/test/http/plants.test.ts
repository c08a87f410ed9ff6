import { randomUUID } from "node:crypto";
import { LINE_MESSAGES, ZLine, ZPlant } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLine, createPlant, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

const tenant = () => createTenant(t.app, t.database.db);

describe("session and role gates", () => {
  it("answers 401 Unauthorized on the plant and line routes without a session", async () => {
    const tn = await tenant();
    for (const url of [
      "/api/plants",
      `/api/plants/${tn.plant.id}/ingestor`,
      `/api/plants/${tn.plant.id}/lines`,
      `/api/lines/${tn.line.id}`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ message: "Unauthorized" });
    }
  });

  it("answers 403 Forbidden resource to a plain user on the ingestor (administrators only)", async () => {
    const tn = await tenant();
    const res = await t.app.inject({ url: `/api/plants/${tn.plant.id}/ingestor`, headers: tn.userHeaders });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: "Forbidden resource" });
  });

  it("lets a plain user read plants, lines and a line (no role needed)", async () => {
    const tn = await tenant();
    for (const url of ["/api/plants", `/api/plants/${tn.plant.id}/lines`, `/api/lines/${tn.line.id}`]) {
      expect((await t.app.inject({ url, headers: tn.userHeaders })).statusCode, url).toBe(200);
    }
  });
});

describe("GET /api/plants", () => {
  it("lists only the caller's customer's plants, by name, with their time zones", async () => {
    const a = await tenant();
    const b = await tenant();
    await createPlant(t.database.db, a.customer.id, { name: "Aachen", timeZone: "Europe/Berlin" });
    await createPlant(t.database.db, a.customer.id, { name: "Zwickau", timeZone: "America/Chicago" });
    const res = await t.app.inject({ url: "/api/plants", headers: a.userHeaders });
    expect(res.statusCode).toBe(200);
    const plants = res.json();
    expect(plants.map((p: { name: string }) => p.name)).toEqual(["Aachen", a.plant.name, "Zwickau"]);
    for (const p of plants) expect(ZPlant.strict().parse(p)).toEqual(p);
    expect(plants.find((p: { name: string }) => p.name === "Zwickau").timeZone).toBe("America/Chicago");
    expect(plants.some((p: { id: string }) => p.id === b.plant.id)).toBe(false);
  });
});

describe("GET /api/plants/:plantId/ingestor", () => {
  it("answers the plant's one ingestor, the same every time", async () => {
    const tn = await tenant();
    const url = `/api/plants/${tn.plant.id}/ingestor`;
    const first = await t.app.inject({ url, headers: tn.adminHeaders });
    expect(first.statusCode).toBe(200);
    expect(Object.keys(first.json())).toEqual(["id"]);
    expect(first.json().id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await t.app.inject({ url, headers: tn.adminHeaders });
    expect(again.json()).toEqual(first.json());
    const other = await createPlant(t.database.db, tn.customer.id);
    const otherIngestor = await t.app.inject({
      url: `/api/plants/${other.id}/ingestor`,
      headers: tn.adminHeaders,
    });
    expect(otherIngestor.json().id).not.toBe(first.json().id);
  });

  it("answers 404 for another customer's plant or an unknown one, and 400 for a non-uuid", async () => {
    const a = await tenant();
    const b = await tenant();
    for (const id of [b.plant.id, randomUUID()]) {
      const res = await t.app.inject({ url: `/api/plants/${id}/ingestor`, headers: a.adminHeaders });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: "Plant not found" });
    }
    const bad = await t.app.inject({ url: "/api/plants/plant-1/ingestor", headers: a.adminHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("params.plantId");
  });
});

describe("GET /api/plants/:plantId/lines", () => {
  it("lists the plant's lines by name, each as the contract's line", async () => {
    const tn = await tenant();
    await createLine(t.database.db, tn.customer.id, tn.plant.id, { name: "AAA Assembly" });
    const otherPlant = await createPlant(t.database.db, tn.customer.id);
    await createLine(t.database.db, tn.customer.id, otherPlant.id, { name: "Elsewhere" });
    const res = await t.app.inject({ url: `/api/plants/${tn.plant.id}/lines`, headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    const lines = res.json();
    expect(lines.map((l: { name: string }) => l.name)).toEqual(["AAA Assembly", tn.line.name]);
    for (const l of lines) {
      expect(ZLine.strict().parse(l)).toEqual(l);
      expect(l.plantId).toBe(tn.plant.id);
    }
  });

  it("answers an empty list for a plant with no lines", async () => {
    const tn = await tenant();
    const empty = await createPlant(t.database.db, tn.customer.id);
    const res = await t.app.inject({ url: `/api/plants/${empty.id}/lines`, headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("answers 404 for another customer's plant or an unknown one, and 400 for a non-uuid", async () => {
    const a = await tenant();
    const b = await tenant();
    for (const id of [b.plant.id, randomUUID()]) {
      const res = await t.app.inject({ url: `/api/plants/${id}/lines`, headers: a.adminHeaders });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: "Plant not found" });
    }
    const bad = await t.app.inject({ url: "/api/plants/123/lines", headers: a.userHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("params.plantId");
  });
});

describe("GET /api/lines/:lineId", () => {
  it("answers the line with its details", async () => {
    const tn = await tenant();
    const res = await t.app.inject({ url: `/api/lines/${tn.line.id}`, headers: tn.userHeaders });
    expect(res.statusCode).toBe(200);
    const line = res.json();
    expect(ZLine.strict().parse(line)).toEqual(line);
    expect(line).toMatchObject({
      id: tn.line.id,
      plantId: tn.plant.id,
      name: tn.line.name,
      feederLineIds: [],
    });
  });

  it("answers 404 for another customer's line or an unknown one, and 400 for a non-uuid", async () => {
    const a = await tenant();
    const b = await tenant();
    for (const id of [b.line.id, randomUUID()]) {
      const res = await t.app.inject({ url: `/api/lines/${id}`, headers: a.adminHeaders });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: LINE_MESSAGES.notFound });
    }
    const bad = await t.app.inject({ url: "/api/lines/line-1", headers: a.userHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("params.lineId");
  });
});

describe("line monitor counts", () => {
  it("counts the line's active SVD and MVD monitors, not cap or inactive ones", async () => {
    const { createTestApp: make, closeTestApp: close } = await import("../helpers/app.js");
    const { createTenant: tenant } = await import("../factories.js");
    const { monitors } = await import("../../src/db/schema/index.js");
    const t2 = await make();
    try {
      const x = await tenant(t2.app, t2.database.db);
      const base = {
        customerId: x.customer.id,
        plantId: x.plant.id,
        lineId: x.line.id,
        frequency: 5,
        filter: {},
        filterMd5: "x",
      };
      await t2.database.db.insert(monitors).values([
        { ...base, name: "a", type: "svd", active: true },
        { ...base, name: "b", type: "mvd", active: true },
        { ...base, name: "c", type: "cap", active: true },
        { ...base, name: "d", type: "svd", active: false },
      ]);
      const res = await t2.app.inject({ url: `/api/lines/${x.line.id}`, headers: x.userHeaders });
      expect(res.json().activeMonitorsCount).toBe(2);
    } finally {
      await close(t2);
    }
  });
});
