// The probe of bench:stall-ingest, in a process of its own so the server's event loop cannot
// delay its clock: publishes one small part record with QoS 1 every PROBE_MS, open loop (the
// next one leaves on time whatever the acknowledgements take), and writes one JSON line a
// publish: when it left (epoch ms) and how long its PUBACK took (ms). Stops when stdin closes.
import mqtt from "mqtt";

const [url, topic, everyArg] = process.argv.slice(2);
const every = Number(everyArg ?? 100);

const client = await mqtt.connectAsync(url ?? "", {
  clientId: `lw-stall-probe-${process.pid}`,
  clean: true,
  reconnectPeriod: 0,
  username: process.env.MQTT_USERNAME || undefined,
  password: process.env.MQTT_PASSWORD || undefined,
});
let n = 0;
let pending = 0;
let stopping = false;
const base = Date.now();
const timer = setInterval(() => {
  const i = n++;
  const sentAt = Date.now();
  const body = JSON.stringify({
    partId: `PROBE-${base}-${i}`,
    timestamp: new Date(sentAt).toISOString(),
    measurements: { Torque: 12 + (i % 10) / 10 },
  });
  pending++;
  client.publish(topic ?? "", body, { qos: 1 }, (err) => {
    pending--;
    process.stdout.write(
      `${JSON.stringify({ sentAt, latencyMs: Date.now() - sentAt, ...(err ? { error: err.message } : {}) })}\n`,
    );
    if (stopping && pending === 0) void client.endAsync().then(() => process.exit(0));
  });
}, every);
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  clearInterval(timer);
  stopping = true;
  if (pending === 0) void client.endAsync().then(() => process.exit(0));
});
