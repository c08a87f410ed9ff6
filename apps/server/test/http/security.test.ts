import { SERVER_MESSAGES } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

type Method = "POST" | "PUT" | "PATCH" | "DELETE";
const STATE_CHANGING = ["post", "put", "patch", "delete"];

/** Every state-changing route of the OpenAPI document, path parameters filled with a uuid. */
async function stateChangingRoutes(): Promise<{ method: Method; url: string }[]> {
  const doc = (await t.app.inject({ url: "/api/docs/json" })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => STATE_CHANGING.includes(m))
      .map((m) => ({
        method: m.toUpperCase() as Method,
        url: path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000"),
      })),
  );
}

describe("cross-origin requests", () => {
  it("refuses every state-changing route to another site's Origin, to Origin null and to Sec-Fetch-Site cross-site", async () => {
    const routes = await stateChangingRoutes();
    // The bodiless ones the issue names are among them.
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(["POST /api/auth/logout", "POST /api/auth/login", "POST /api/ingest"]),
    );
    expect(routes.length).toBeGreaterThan(20);
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "http://localhost:8080.evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { origin: "http://localhost:8080", "sec-fetch-site": "cross-site" },
    ];
    for (const { method, url } of routes) {
      for (const headers of foreign) {
        const res = await t.app.inject({
          method,
          url,
          headers: { ...headers, ...a.adminHeaders, "content-type": "text/plain" },
          payload: "{}",
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json()).toEqual({ message: SERVER_MESSAGES.crossOrigin });
      }
    }
    // The session survived every one of those logouts.
    expect((await t.app.inject({ url: "/api/auth/me", headers: a.adminHeaders })).statusCode).toBe(200);
  });

  it("accepts the app's own origin (its Host or PUBLIC_URL), same-origin fetches and requests without Origin", async () => {
    const session = await signIn(t.app, a.user.email);
    const own: Record<string, string>[] = [
      { origin: "http://localhost:8080" }, // PUBLIC_URL
      { origin: "https://linewatch.plant.example", host: "linewatch.plant.example" }, // its own Host
      { origin: "http://localhost:8080", "sec-fetch-site": "same-origin" },
      {}, // curl, a server
    ];
    for (const headers of own) {
      const res = await t.app.inject({
        method: "PATCH",
        url: "/api/auth/me/selection",
        headers: { ...headers, ...session },
        payload: { selectedPlantId: a.plant.id, selectedLineId: a.line.id },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(204);
    }
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { origin: "http://localhost:8080", ...session },
    });
    expect(out.statusCode).toBe(204);
  });

  it("leaves reads alone: a GET with another site's Origin is answered as usual", async () => {
    const res = await t.app.inject({
      url: "/api/auth/me",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site", ...a.userHeaders },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("security headers", () => {
  it("sends a Content-Security-Policy that forbids framing, and X-Frame-Options DENY, on the API and the app", async () => {
    for (const url of ["/api/health", "/login", "/api/auth/me"]) {
      const res = await t.app.inject({ url });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      // Plants run Linewatch over plain http: nothing may be upgraded to https.
      expect(csp).not.toContain("upgrade-insecure-requests");
      expect(res.headers["x-frame-options"], url).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("same-origin");
    }
  });
});

describe("a path spelled another way meets the same guards", () => {
  // Spellings the router resolves to an /api route (percent-encoded letters), and some it may
  // resolve one day (repeated slashes, dot segments): each must be guarded as /api/... itself.
  const spellings = (path: string) => [
    path.replace("/api/", "/%61pi/"),
    path.replace("/api/", "/%61%70%69/"),
    path.replace("/api/", "/ap%69/"),
    path.replace("/api/auth/", "/api/%61uth/"),
    path.replace("/api/", "//api/"),
    path.replace("/api/", "/api//"),
    path.replace("/api/", "/x/../api/"),
    path.replace("/api/", "/./api/"),
  ];

  it("refuses a cross-origin POST to every spelling of a state-changing route (403, the session kept)", async () => {
    const session = await signIn(t.app, a.user.email);
    for (const url of spellings("/api/auth/logout")) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { origin: "https://evil.example", ...session },
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({ message: SERVER_MESSAGES.crossOrigin });
    }
    expect((await t.app.inject({ url: "/api/auth/me", headers: session })).statusCode).toBe(200);
  });

  it("answers no-store, and 401 without a session, to every spelling of a signed-in GET", async () => {
    // The router reaches /api/auth/me from most of them (200); the rest are unknown routes (404).
    for (const url of spellings("/api/auth/me")) {
      const res = await t.app.inject({ url, headers: a.userHeaders });
      expect(res.headers["cache-control"], url).toBe("no-store");
      if (res.statusCode === 200) expect(res.json(), url).toMatchObject({ email: a.user.email });
      else expect(res.statusCode, url).toBe(404);
      const anonymous = await t.app.inject({ url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.headers["cache-control"], url).toBe("no-store");
    }
  });
});
