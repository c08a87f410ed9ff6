import { sql } from "drizzle-orm";
import mqtt from "mqtt";
import type { Db } from "../../src/db/client.js";
import { partRecords } from "../../src/db/schema/index.js";

/** The broker on this machine (Mosquitto) if one answers on 127.0.0.1:1883, else undefined. */
export async function reachableExternalBroker(url = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883") {
  try {
    const c = await mqtt.connectAsync(url, { connectTimeout: 1_000, reconnectPeriod: 0 });
    await c.endAsync();
    return url;
  } catch {
    return undefined;
  }
}

/** Polls until the check passes or the time is up (ms). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How many part records with this part id are stored. */
export async function storedCount(db: Db, partId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(partRecords)
    .where(sql`${partRecords.partId} = ${partId}`);
  return row?.n ?? 0;
}

/** A one-record MQTT payload of a Torque measurement, stamped now. */
export const torqueRecord = (partId: string) =>
  JSON.stringify({ partId, timestamp: new Date().toISOString(), measurements: { Torque: 12.5 } });
