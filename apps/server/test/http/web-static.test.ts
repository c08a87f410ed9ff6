import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// The built web app as scripts/build-web.mjs leaves it: hashed files under assets/, each with a
// brotli and a gzip copy beside it, and index.html (with its copies) at the top.
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `export const greeting = ${JSON.stringify("Linewatch ".repeat(500))};\n`;
const UNCOMPRESSED_ONLY = "body { margin: 0 }\n";

function writeWithCopies(file: string, text: string) {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

let dist: string;
let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), "linewatch-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeWithCopies(path.join(dist, "index.html"), INDEX);
  writeWithCopies(path.join(dist, "assets/index-Ab12Cd34.js"), SCRIPT);
  writeFileSync(path.join(dist, "assets/small-Ef56Gh78.css"), UNCOMPRESSED_ONLY);
  t = await createTestApp({ webDist: dist });
  a = await createTenant(t.app, t.database.db);
});
afterAll(async () => {
  await closeTestApp(t);
  rmSync(dist, { recursive: true, force: true });
});

const IMMUTABLE = "public, max-age=31536000, immutable";

describe("hashed assets", () => {
  it("are sent brotli-compressed to a browser that accepts br, and kept for a year", async () => {
    const res = await t.app.inject({
      url: "/assets/index-Ab12Cd34.js",
      headers: { "accept-encoding": "gzip, deflate, br, zstd" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it("are sent gzip-compressed when the browser accepts gzip only", async () => {
    const res = await t.app.inject({
      url: "/assets/index-Ab12Cd34.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it("are sent as they are without Accept-Encoding, or when the build left no compressed copy", async () => {
    const plain = await t.app.inject({ url: "/assets/index-Ab12Cd34.js" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers["cache-control"]).toBe(IMMUTABLE);

    const small = await t.app.inject({
      url: "/assets/small-Ef56Gh78.css",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers["content-type"]).toMatch(/^text\/css/);
    expect(small.body).toBe(UNCOMPRESSED_ONLY);
    expect(small.headers["cache-control"]).toBe(IMMUTABLE);
  });

  it("answer 404 for a file that is not there, never the page", async () => {
    const res = await t.app.inject({
      url: "/assets/index-Old00000.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
  });
});

describe("the single page", () => {
  it("is index.html for / and every app route, compressed, revalidated every time, under the CSP", async () => {
    for (const url of [
      "/",
      "/login",
      "/lines/3b0f5c8e-0000-4000-8000-000000000000",
      "/settings?section=DATA_SOURCES",
    ]) {
      const res = await t.app.inject({ url, headers: { "accept-encoding": "br, gzip" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/^text\/html/);
      expect(res.headers["content-encoding"], url).toBe("br");
      expect(res.headers["cache-control"], url).toBe("no-cache");
      expect(res.headers["content-security-policy"], url).toContain("script-src 'self'");
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
    const gzip = await t.app.inject({ url: "/login", headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(INDEX);
    const plain = await t.app.inject({ url: "/login" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(INDEX);
    expect(plain.headers["cache-control"]).toBe("no-cache");
  });

  it("answers HEAD as GET, without a body (uptime checks, proxies)", async () => {
    for (const url of ["/", "/login"]) {
      const res = await t.app.inject({ method: "HEAD", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/^text\/html/);
      expect(res.body, url).toBe("");
    }
  });

  it("is not what an unknown /api route or a non-GET request gets", async () => {
    const api = await t.app.inject({ url: "/api/no-such-thing", headers: a.adminHeaders });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: "Route GET /api/no-such-thing not found" });
    expect(api.headers["cache-control"]).toBe("no-store");
    // Without a session the API answers 401 before it looks for the route, as it always has.
    const signedOut = await t.app.inject({ url: "/api/no-such-thing" });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers["content-type"]).toMatch(/^application\/json/);
    const post = await t.app.inject({ method: "POST", url: "/login", payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it("leaves the API as it was: a known route still answers", async () => {
    const res = await t.app.inject({ url: "/api/health" });
    expect(res.statusCode).toBe(200);
  });
});
