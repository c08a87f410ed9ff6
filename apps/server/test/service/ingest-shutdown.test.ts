// SIGTERM ends the process even while a message is being retried (the database keeps refusing it
// as "busy"): the message is left unacknowledged for the broker to redeliver, and the log names
// the topic but never the payload.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDataSourceRow,
  exited,
  freePort,
  sharedDatabase,
  startIngestProcess,
} from "../helpers/ingest-process.js";
import { eventually, reachableExternalBroker } from "../helpers/mqtt.js";

const external = await reachableExternalBroker();
const cases = [
  { name: "embedded broker", external: false },
  ...(external ? [{ name: "Mosquitto", external: true }] : []),
];

describe.each(cases)("SIGTERM with a message in flight on the $name", ({ external: useExternal }) => {
  let child: ChildProcess | undefined;
  let publisher: mqtt.MqttClient | undefined;
  afterEach(async () => {
    child?.kill("SIGKILL");
    await publisher?.endAsync(true);
  });

  it("stops the process and leaves the message unacknowledged", { timeout: 120_000 }, async () => {
    const shared = await sharedDatabase();
    const run = randomBytes(4).toString("hex");
    const topicRoot = `lwterm-${run}`;
    const db = await shared.open();
    const { login } = await createDataSourceRow(db, `${topicRoot}/#`);
    // Every insert of this part is refused as "insufficient resources": retried for ever.
    await db.db.execute(
      sql.raw(`create function lw_test_busy() returns trigger language plpgsql as $$
        begin
          if new.part_id like 'STUCK-%' then raise exception 'busy for the test' using errcode = '53000'; end if;
          return new;
        end $$`),
    );
    await db.db.execute(
      sql.raw(
        "create trigger lw_test_busy before insert on part_records for each row execute function lw_test_busy()",
      ),
    );
    if (!shared.postgres) await db.close();

    const port = await freePort();
    const ingest = await startIngestProcess({
      ...shared.env,
      ...(useExternal
        ? { MQTT_URL: external ?? "", INGEST_CLIENT_ID: `lwterm-${run}` }
        : { MQTT_PORT: String(port) }),
    });
    child = ingest.child;
    const url = useExternal ? (external ?? "") : `mqtt://127.0.0.1:${port}`;
    publisher = await mqtt.connectAsync(url, {
      clientId: `lwterm-pub-${run}`,
      reconnectPeriod: 0,
      ...(useExternal ? {} : login),
    });
    await eventually(async () => /subscribed to/.test(ingest.output()) || !useExternal, 30_000);
    let acknowledged = false;
    const body = JSON.stringify({
      partId: `STUCK-${run}`,
      timestamp: new Date().toISOString(),
      measurements: { M: 1 },
    });
    void publisher.publishAsync(`${topicRoot}/line/op`, body, { qos: 1 }).then(
      () => (acknowledged = true),
      () => {},
    );
    await eventually(async () => /retrying in/.test(ingest.output()), 30_000);

    child.kill("SIGTERM");
    const code = await exited(child);
    child = undefined;
    // 0: it stopped by itself, not through the 9 s deadline (which exits with 1).
    expect(code).toBe(0);
    expect(ingest.output()).toMatch(/SIGTERM: stopping/);
    expect(ingest.output()).toContain(`${topicRoot}/line/op`);
    expect(ingest.output()).not.toContain(`STUCK-${run}`);
    // The embedded broker acknowledges only after the commit, which never came.
    if (!useExternal) expect(acknowledged).toBe(false);
    if (shared.postgres) await shared.drop();
  });
});
