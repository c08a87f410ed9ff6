import { afterEach, describe, expect, it, vi } from "vitest";

// zod-setup.ts sets zod's jitless option through zod's global configuration object, without
// importing zod: these check that zod reads it, whether zod is loaded after it or before it.
const g = globalThis as { document?: unknown; __zod_globalConfig?: { jitless?: boolean } };

describe("zod-setup", () => {
  afterEach(() => {
    delete g.document;
    if (g.__zod_globalConfig) delete g.__zod_globalConfig.jitless;
    vi.resetModules();
  });

  it("in a browser, zod is jitless when it loads after the setup", async () => {
    delete g.__zod_globalConfig;
    g.document = {};
    await import("./zod-setup.js");
    const { z } = await import("zod");
    expect(z.config().jitless).toBe(true);
    // and a schema still parses (the interpreted parser)
    expect(z.object({ a: z.string() }).parse({ a: "x" })).toEqual({ a: "x" });
  });

  it("in a browser, zod is jitless when it was loaded before the setup", async () => {
    const { z } = await import("zod");
    g.document = {};
    await import("./zod-setup.js");
    expect(z.config().jitless).toBe(true);
  });

  it("on the server (no document), zod keeps its compiled parsers", async () => {
    await import("./zod-setup.js");
    const { z } = await import("zod");
    expect(z.config().jitless).toBeUndefined();
  });
});
