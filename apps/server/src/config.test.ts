import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("loadConfig: security settings", () => {
  it("defaults: 20 failed sign-ins per address, 120 and 1200 requests a minute, proxies on private networks", () => {
    const c = loadConfig({}, []);
    expect(c.signinFailuresPerAddress).toBe(20);
    expect(c.rateLimitPerMinute).toBe(120);
    expect(c.ingestRateLimitPerMinute).toBe(1200);
    expect(c.trustProxy).toBe("loopback,linklocal,uniquelocal");
  });

  it("reads the environment, 0 turning a limit off", () => {
    const c = loadConfig(
      {
        SIGNIN_FAILURES_PER_ADDRESS: "0",
        RATE_LIMIT_PER_MINUTE: "30",
        INGEST_RATE_LIMIT_PER_MINUTE: "0",
        TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
      },
      [],
    );
    expect(c).toMatchObject({
      signinFailuresPerAddress: 0,
      rateLimitPerMinute: 30,
      ingestRateLimitPerMinute: 0,
      trustProxy: "10.0.0.0/8, 127.0.0.1",
    });
    expect(loadConfig({ TRUST_PROXY: "true" }, []).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "false" }, []).trustProxy).toBe(false);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: "lots" }, [])).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });
});
