import { describe, expect, it } from "vitest";
import { describeSettings, loadConfig } from "./config.js";
import { CONNECT_MAX_BYTES, MQTT_MAX_PACKET_BYTES } from "./ingest/packet-size.js";

describe("loadConfig: security settings", () => {
  it("refuses a METRICS_TOKEN shorter than 32 characters (/metrics has no rate limit)", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "short-secret" }, [])).toThrow(
      /METRICS_TOKEN must be at least 32/,
    );
    const long = "a".repeat(32);
    expect(loadConfig({ METRICS_TOKEN: long }, []).metricsToken).toBe(long);
    expect(loadConfig({ METRICS_TOKEN: "" }, []).metricsToken).toBeUndefined();
  });

  it("defaults: 20 failed sign-ins per address, 120 and 1200 requests a minute, no proxy trusted", () => {
    const c = loadConfig({}, []);
    expect(c.signinFailuresPerAddress).toBe(20);
    expect(c.rateLimitPerMinute).toBe(120);
    expect(c.ingestRateLimitPerMinute).toBe(1200);
    expect(c.trustProxy).toBe(false);
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

describe("loadConfig: worker and ingest settings", () => {
  it("defaults: poll 5 s, lease 2 min, batches of 8, a 60 s minute; no client id, no shared subscriptions", () => {
    const c = loadConfig({}, []);
    expect(c.worker).toEqual({
      pollMs: 5_000,
      leaseMs: 120_000,
      batchSize: 8,
      minuteMs: 60_000,
      id: undefined,
    });
    expect(c.ingestClientId).toBeUndefined();
    expect(c.mqttSharedSubscriptions).toBe(false);
  });

  it("reads WORKER_*, INGEST_CLIENT_ID and MQTT_SHARED_SUBSCRIPTIONS, and names a bad value", () => {
    const c = loadConfig(
      {
        WORKER_POLL_MS: "100",
        WORKER_LEASE_MS: "600",
        WORKER_BATCH_SIZE: "4",
        WORKER_MINUTE_MS: "1000",
        WORKER_ID: "w1",
        INGEST_CLIENT_ID: "ingest-1",
        MQTT_SHARED_SUBSCRIPTIONS: "true",
      },
      [],
    );
    expect(c.worker).toEqual({ pollMs: 100, leaseMs: 600, batchSize: 4, minuteMs: 1_000, id: "w1" });
    expect(c.ingestClientId).toBe("ingest-1");
    expect(c.mqttSharedSubscriptions).toBe(true);
    expect(() => loadConfig({ WORKER_BATCH_SIZE: "2.5" }, [])).toThrow(/WORKER_BATCH_SIZE/);
  });
});

describe("loadConfig: MQTT_MAX_PACKET_BYTES", () => {
  it("defaults to the ingest body's limit plus a topic's room, and takes a larger or smaller value", () => {
    expect(loadConfig({}, []).mqttMaxPacketBytes).toBe(MQTT_MAX_PACKET_BYTES);
    expect(loadConfig({ MQTT_MAX_PACKET_BYTES: "65536" }, []).mqttMaxPacketBytes).toBe(65_536);
  });

  it("refuses a limit below the largest CONNECT packet, naming the setting, the minimum and the default", () => {
    expect(() => loadConfig({ MQTT_MAX_PACKET_BYTES: "100" }, [])).toThrow(
      `MQTT_MAX_PACKET_BYTES must be at least ${CONNECT_MAX_BYTES} bytes`,
    );
    expect(() => loadConfig({ MQTT_MAX_PACKET_BYTES: "100" }, [])).toThrow(
      `default of ${MQTT_MAX_PACKET_BYTES}`,
    );
    expect(() => loadConfig({ MQTT_MAX_PACKET_BYTES: "-5" }, [])).toThrow(/whole number/);
  });
});

describe("describeSettings: the start-up log line", () => {
  it("names the roles, ports and database kind, and holds no secret", () => {
    const secrets = {
      DATABASE_URL: "postgres://linewatch:db-secret-pw@db.example:5432/linewatch",
      MQTT_URL: "mqtt://ingest:mqtt-secret-pw@broker.example:1883",
      ENCRYPTION_KEY: "c2VjcmV0LWtleS1zZWNyZXQta2V5LXNlY3JldC1rZXk=",
      METRICS_TOKEN: "metrics-secret-token-0123456789abcdef",
    };
    const worker = describeSettings(
      loadConfig({ ...secrets, HEALTH_PORT: "9470" }, ["node", "main", "--role", "worker,ingest"]),
    );
    const text = JSON.stringify(worker);
    for (const secret of ["db-secret-pw", "mqtt-secret-pw", secrets.ENCRYPTION_KEY, secrets.METRICS_TOKEN])
      expect(text).not.toContain(secret);
    expect(worker).toMatchObject({
      roles: "worker,ingest",
      database: { kind: "postgres", url: "postgres://linewatch:***@db.example:5432/linewatch" },
      health: "on HEALTH_PORT 9470",
      metrics: "on (METRICS_TOKEN set)",
      mqtt: { url: "mqtt://ingest:***@broker.example:1883" },
      encryptionKey: "set",
    });
    const all = describeSettings(loadConfig({}, []));
    expect(all).toMatchObject({ roles: "api,worker,ingest", port: 8080, health: "on PORT 8080" });
    expect(all.database).toMatchObject({ kind: "pglite" });
    expect(
      describeSettings(loadConfig({ HEALTH_PORT: "0" }, ["node", "main", "--role", "worker"])).health,
    ).toBe("off");
  });
});
