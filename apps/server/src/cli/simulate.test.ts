import { describe, expect, it } from "vitest";
import { withoutPassword } from "../lib/urls.js";
import { createLiveParts } from "../modules/demo/demo.live.js";
import { parseSimulateArgs } from "./simulate.js";

describe("npm run simulate: credentials and plant", () => {
  it("takes the MQTT login from --username and --password", () => {
    expect(parseSimulateArgs(["--username", "u-1", "--password", "lwm_x"], {})).toMatchObject({
      username: "u-1",
      password: "lwm_x",
    });
  });

  it("takes it from MQTT_USERNAME and MQTT_PASSWORD, the flags winning", () => {
    const env = { MQTT_USERNAME: "env-user", MQTT_PASSWORD: "env-pass" };
    expect(parseSimulateArgs([], env)).toMatchObject({ username: "env-user", password: "env-pass" });
    expect(parseSimulateArgs(["--username", "flag-user"], env)).toMatchObject({
      username: "flag-user",
      password: "env-pass",
    });
    expect(parseSimulateArgs([], {})).toMatchObject({ username: undefined, password: undefined });
  });

  it("without --url publishes where the app would: MQTT_URL, else the embedded broker on MQTT_PORT", () => {
    expect(parseSimulateArgs([], {})).toMatchObject({ url: "mqtt://127.0.0.1:1883" });
    expect(parseSimulateArgs([], { MQTT_PORT: "1884" })).toMatchObject({ url: "mqtt://127.0.0.1:1884" });
    expect(parseSimulateArgs([], { MQTT_URL: "mqtt://broker:1883", MQTT_PORT: "1884" })).toMatchObject({
      url: "mqtt://broker:1883",
    });
    expect(parseSimulateArgs(["--url", "mqtt://other:1885"], { MQTT_PORT: "1884" })).toMatchObject({
      url: "mqtt://other:1885",
    });
  });

  it("refuses a password without a username", () => {
    expect(parseSimulateArgs(["--password", "p"], {})).toEqual({
      error: "--password needs --username (or MQTT_USERNAME)",
    });
  });

  it("simulates one demo plant with --plant (a plant's login covers its own topics only)", () => {
    expect(parseSimulateArgs(["--plant", "stuttgart"], {})).toMatchObject({ plant: "Stuttgart Components" });
    expect(parseSimulateArgs(["--plant", "paris"], {})).toEqual({
      error: '--plant must be one of detroit, stuttgart, got "paris"',
    });
  });

  it("makes only the chosen plant's parts, on its topics", () => {
    const parts = createLiveParts({
      rate: 60,
      startedAt: Date.UTC(2026, 10, 22),
      plants: ["Stuttgart Components"],
    });
    expect(parts.lines).toEqual(["Valve Machining"]);
    const due = parts.due(Date.UTC(2026, 10, 22, 0, 5));
    expect(due.length).toBeGreaterThan(0);
    expect(due.every((r) => r.topic.startsWith("linewatch/demo/stuttgart/"))).toBe(true);
  });

  it("never prints a password given in the broker URL", () => {
    expect(withoutPassword("mqtt://linewatch:s3cret@broker.example.com:1883")).toBe(
      "mqtt://linewatch:***@broker.example.com:1883",
    );
    expect(withoutPassword("mqtt://127.0.0.1:1883")).toBe("mqtt://127.0.0.1:1883");
  });
});
