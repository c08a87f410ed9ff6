// Publishes part records of 40 measurements each over MQTT with QoS 1, as fast as the broker
// acknowledges them (at most WINDOW in flight), then reports how many were acknowledged.
import mqtt from "mqtt";

const [url, topicRoot, countArg, stationsArg, rateArg] = process.argv.slice(2);
/** Records per second at most (0 = as fast as the broker acknowledges). */
const rate = Number(rateArg ?? 0);
const total = Number(countArg);
const stations = Number(stationsArg ?? 4);
const WINDOW = 2_000;
const MEASUREMENTS = Array.from({ length: 40 }, (_, i) => `M${String(i + 1).padStart(2, "0")}`);
const base = Date.UTC(2026, 0, 1);

const client = await mqtt.connectAsync(url ?? "", {
  clientId: `lw-bench-pub-${process.pid}`,
  clean: true,
  // The embedded broker's login, from the bench (ingest.internalLogin).
  username: process.env.MQTT_USERNAME || undefined,
  password: process.env.MQTT_PASSWORD || undefined,
});
let sent = 0;
let acked = 0;
await new Promise<void>((resolve) => {
  const t0 = Date.now();
  const pump = () => {
    while (sent < total && sent - acked < WINDOW) {
      if (rate > 0 && sent >= ((Date.now() - t0) / 1000) * rate) {
        setTimeout(pump, 5);
        return;
      }
      const i = sent++;
      const measurements: Record<string, number> = {};
      for (let j = 0; j < MEASUREMENTS.length; j++)
        measurements[MEASUREMENTS[j] as string] = 10 + j + Math.sin(i + j);
      const body = JSON.stringify({
        partId: `P-${i}`,
        modelNumber: "M-100",
        timestamp: new Date(base + i * 10).toISOString(),
        measurements,
      });
      client.publish(`${topicRoot}/Bench Line/OP${(i % stations) + 10}`, body, { qos: 1 }, (err) => {
        if (err) throw err;
        acked++;
        if (acked === total) resolve();
        else pump();
      });
    }
  };
  pump();
});
await client.endAsync();
process.stdout.write(`${JSON.stringify({ acked })}\n`);
