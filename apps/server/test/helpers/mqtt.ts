import mqtt from "mqtt";

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
