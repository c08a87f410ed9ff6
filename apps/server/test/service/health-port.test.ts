// A process without the api role (here: ingest only, as main.ts runs it) answers /health, /ready
// and /metrics on HEALTH_PORT; a HEALTH_PORT another process holds stops its start-up with a
// message naming the setting.
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import {
  exited,
  freePort,
  type IngestProcess,
  type SharedDatabase,
  sharedDatabase,
  startIngestProcess,
} from "../helpers/ingest-process.js";
import { eventually } from "../helpers/mqtt.js";

const TOKEN = "scrape-me-please-0123456789abcdef";
const children: IngestProcess[] = [];
const databases: SharedDatabase[] = [];
afterAll(async () => {
  for (const c of children) {
    c.child.kill("SIGTERM");
    await exited(c.child);
  }
  for (const d of databases) await d.drop();
});

describe("HEALTH_PORT", () => {
  it("an ingest-only process answers /health, /ready (database and broker) and /metrics on it", async () => {
    const database = await sharedDatabase();
    databases.push(database);
    const healthPort = await freePort();
    const ingest = await startIngestProcess({
      ...database.env,
      MQTT_PORT: String(await freePort()),
      HEALTH_PORT: String(healthPort),
      METRICS_TOKEN: TOKEN,
    });
    children.push(ingest);
    const base = `http://127.0.0.1:${healthPort}`;

    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });

    let ready: { status: number; body: unknown } | undefined;
    await eventually(async () => {
      const res = await fetch(`${base}/ready`);
      ready = { status: res.status, body: await res.json() };
      return res.status === 200;
    });
    expect(ready?.body).toEqual({ status: "ready", checks: { database: "ok", broker: "ok" } });

    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^linewatch_process_info\{roles="ingest",database="(pglite|postgres)"\} 1$/m);
    expect(text).toMatch(
      database.postgres ? /^linewatch_db_pool_connections\{/m : /^linewatch_db_pglite_statements\{/m,
    );
    // The ingest role's alerting series exist from the start, at 0.
    expect(text).toMatch(/^linewatch_ingest_dead_letters_total\{reason="not_json"\} 0$/m);
    expect(text).not.toMatch(/^linewatch_evaluations_total\{/m);

    // Start-up settings at info: the roles and where the endpoints are, never the token.
    const out = ingest.output();
    expect(out).toContain(`on HEALTH_PORT ${healthPort}`);
    expect(out).toContain(`health endpoints on`);
    expect(out).not.toContain(TOKEN);
  }, 90_000);

  it("a HEALTH_PORT another process holds stops start-up with a message naming HEALTH_PORT", async () => {
    const database = await sharedDatabase();
    databases.push(database);
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "0.0.0.0", () => resolve()));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      await expect(
        startIngestProcess({
          ...database.env,
          MQTT_PORT: String(await freePort()),
          HEALTH_PORT: String(taken),
        }),
      ).rejects.toThrow(/exited 1: [\s\S]*HEALTH_PORT: cannot listen on 0\.0\.0\.0:\d+, the port is taken/);
    } finally {
      holder.close();
    }
  }, 90_000);
});
