// Text the database cannot hold — NUL, an unpaired surrogate — answers 400 naming the field on
// every route that takes a body, never 500; on POST /api/ingest and the CSV upload the record
// (or row) that holds it is rejected and the good ones beside it are stored.
import { TEXT_MESSAGES } from "@linewatch/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type Segment = string | number;

/** A field the body must hold so a string beside it is read: a union's discriminator (`mode: "TIME"`). */
type Fixed = { path: Segment[]; value: unknown };
type StringField = { path: Segment[]; maxLength: number; fixed: Fixed[] };

/** The discriminators of an alternative: its properties with one allowed value. */
function discriminators(schema: JsonSchema, at: Segment[]): Fixed[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => {
    if (child.const !== undefined) return [{ path: [...at, key], value: child.const }];
    if (child.enum?.length === 1) return [{ path: [...at, key], value: child.enum[0] }];
    return [];
  });
}

/** Every free-text string in a body schema, as a path (uuids, enums and patterns are not free text). */
function stringPaths(schema: JsonSchema, at: Segment[] = [], fixed: Fixed[] = []): StringField[] {
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const found = alternatives.flatMap((s) => stringPaths(s, at, fixed));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (
    types.includes("string") &&
    !schema.format &&
    !schema.enum &&
    !schema.pattern &&
    schema.const === undefined
  ) {
    found.push({ path: at, maxLength: schema.maxLength ?? 200, fixed });
  }
  const own = [...fixed, ...discriminators(schema, at)];
  for (const [key, child] of Object.entries(schema.properties ?? {}))
    found.push(...stringPaths(child, [...at, key], own));
  if (schema.items) found.push(...stringPaths(schema.items, [...at, 0], own));
  return found;
}

/** Sets `value` at `path` in `into`, creating objects and one-element arrays on the way. */
function setAt(into: unknown, path: Segment[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(into) ? into : [];
    list[head] = setAt(list[head], rest, value);
    return list;
  }
  const object = (into !== null && typeof into === "object" ? into : {}) as Record<string, unknown>;
  object[head as string] = setAt(object[head as string], rest, value);
  return object;
}

/**
 * A body holding `value` at `path`, the discriminators of the unions on the way, and nothing else:
 * the other fields' errors do not hide this one's.
 */
function bodyWith(field: StringField, value: string): unknown {
  let body: unknown;
  for (const f of field.fixed) body = setAt(body, f.path, f.value);
  return setAt(body, field.path, value);
}

const BAD = ["\u0000", "\uD800", "\uDFFF"] as const;
/** Strings within a field's length with one NUL or unpaired surrogate somewhere in them. */
const unstorable = (maxLength: number) =>
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...BAD), fc.string({ maxLength: 8 }))
    .map(([a, bad, b]) => `${a}${bad}${b}`.slice(0, Math.max(1, maxLength)))
    .filter((s) => BAD.some((c) => s.includes(c)) && /[^\s]/.test(s));

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

describe("text the database cannot hold", () => {
  it("answers 400 naming the field on every string field of every body route", async () => {
    const doc = t.app.swagger() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
      >;
    };
    const routes = Object.entries(doc.paths).flatMap(([url, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => {
        const schema = op.requestBody?.content["application/json"]?.schema;
        return schema ? [{ method: method.toUpperCase(), url, schema }] : [];
      }),
    );
    const fields = routes.flatMap((r) => stringPaths(r.schema).map((f) => ({ ...r, ...f })));
    // Every body route with text is covered: sign-in, users, alerts, data sources, tokens, integrations, monitors.
    expect(new Set(fields.map((f) => f.url)).size).toBeGreaterThanOrEqual(12);
    for (const field of fields) {
      const url = field.url.replace(/\{[^}]+\}/g, () => crypto.randomUUID());
      await fc.assert(
        fc.asyncProperty(unstorable(field.maxLength), async (text) => {
          const res = await t.app.inject({
            method: field.method as "POST",
            url,
            headers: tenant.adminHeaders,
            payload: bodyWith(field, text) as object,
          });
          const where = ["body", ...field.path].join(".");
          expect(res.statusCode, `${field.method} ${field.url} ${where}`).toBe(400);
          expect(res.json().message).toContain(`${where}: ${TEXT_MESSAGES.unstorable}`);
        }),
        { numRuns: 5 },
      );
    }
  });

  it("rejects only the record that holds it on POST /api/ingest, and stores the others", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/ingest-tokens`,
      headers: tenant.adminHeaders,
      payload: { name: "text test" },
    });
    expect(created.statusCode).toBe(201);
    const secret = created.json().secret as string;
    const record = (partId: string, extra: object = {}) => ({
      line: "Text Line",
      station: "OP10",
      partId,
      timestamp: "2026-11-22T10:00:00Z",
      measurements: { M: 1 },
      ...extra,
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ingest",
      headers: { authorization: `Bearer ${secret}` },
      payload: [
        record("T-1"),
        record("T\u00002"),
        record("T-3", { attributes: { Shift: "A\uD800" } }),
        record("T-4", { measurements: { "M\u0000": 1 } }),
        record("T-5"),
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.stored).toBe(2);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3]);
    expect(body.rejected[0].reason).toBe(`partId: ${TEXT_MESSAGES.unstorable}`);
    expect(body.rejected[1].reason).toBe(`attributes.Shift: ${TEXT_MESSAGES.unstorable}`);
    // The refused name shows as text in the answer (which is stored and shown too).
    expect(body.rejected[2].reason).toMatch(/^measurements\.M\\u0000: /);
  });

  it("rejects only the CSV row that holds it, and stores the others", async () => {
    const csv = [
      "line,station,partId,timestamp,Torque,attr:Shift",
      "CSV Line,OP10,C-1,2026-11-22T10:00:00Z,1.5,A",
      "CSV Line,OP10,C\u00002,2026-11-22T10:01:00Z,1.6,A",
      "CSV Line,OP10,C-3,2026-11-22T10:02:00Z,1.7,B\u0000",
      "CSV Line,OP10,C-4,2026-11-22T10:03:00Z,1.8,B",
    ].join("\n");
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/part-records/csv`,
      headers: { ...tenant.adminHeaders, "content-type": "text/csv" },
      payload: csv,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.stored).toBe(2);
    expect(body.rejected.map((r: { row: number }) => r.row)).toEqual([3, 4]);
    expect(body.rejected[0].reason).toContain(TEXT_MESSAGES.unstorable);
  });
});
