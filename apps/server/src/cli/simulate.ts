import { parseArgs } from "node:util";
import { DEMO_PLANTS, DEMO_SEED } from "../modules/demo/demo.constants.js";
import { startLineSimulator } from "../modules/demo/demo.live.mqtt.js";
import { cycleMs, DEMO_LIVE_SCHEDULE } from "../modules/demo/demo.live.schedule.js";
import { runIfEntryPoint } from "./run-command.js";

const USAGE =
  "Usage: npm run simulate -- [--url mqtt://127.0.0.1:1883] [--rate <parts a minute per station>] [--seed <n>] [--duration <minutes>] [--plant detroit|stuttgart] [--username <MQTT username> --password <MQTT password>]\n" +
  "With a plant's MQTT credential (Settings → Data Sources) simulate that plant only: --plant.\n" +
  "MQTT_USERNAME and MQTT_PASSWORD in the environment do the same as --username and --password (and keep the password out of the process list).\n" +
  "Without --url: MQTT_URL, else the embedded broker on 127.0.0.1:MQTT_PORT (1883), as the app.";

export type SimulateArgs = {
  url: string;
  rate: number;
  seed: number;
  durationMinutes: number | undefined;
  /** Only this demo plant's lines (its name); all when unset. */
  plant?: string;
  username?: string;
  password?: string;
};

/** The options, or a message for the person at the terminal. Flags win over MQTT_USERNAME / MQTT_PASSWORD. */
export function parseSimulateArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): SimulateArgs | { error: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: "string" },
        rate: { type: "string" },
        seed: { type: "string" },
        duration: { type: "string" },
        plant: { type: "string" },
        username: { type: "string" },
        password: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (values.help) return { error: USAGE };
  const num = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : undefined);
  const rate = num(values.rate) ?? 1;
  if (!Number.isFinite(rate) || rate <= 0)
    return { error: `--rate must be a number above 0, got "${values.rate}"` };
  const seed = num(values.seed) ?? DEMO_SEED;
  if (!Number.isSafeInteger(seed)) return { error: `--seed must be a whole number, got "${values.seed}"` };
  const durationMinutes = num(values.duration);
  if (durationMinutes !== undefined && !(durationMinutes > 0))
    return { error: `--duration must be a number of minutes above 0, got "${values.duration}"` };
  // Without --url, the broker the app itself would use with the same settings: MQTT_URL, else the
  // embedded broker on MQTT_PORT (a simulator on 1883 beside an app on MQTT_PORT=1884 published to
  // whatever else held 1883).
  const url =
    typeof values.url === "string" ? values.url : env.MQTT_URL || `mqtt://127.0.0.1:${env.MQTT_PORT || 1883}`;
  if (!/^(mqtts?|wss?|tcp|ssl):\/\//.test(url))
    return { error: `--url must be a broker URL such as mqtt://127.0.0.1:1883, got "${url}"` };
  let plant: string | undefined;
  if (typeof values.plant === "string") {
    plant = DEMO_PLANTS[values.plant.toLowerCase() as keyof typeof DEMO_PLANTS]?.name;
    if (!plant)
      return {
        error: `--plant must be one of ${Object.keys(DEMO_PLANTS).join(", ")}, got "${values.plant}"`,
      };
  }
  const username = (typeof values.username === "string" ? values.username : env.MQTT_USERNAME) || undefined;
  const password = (typeof values.password === "string" ? values.password : env.MQTT_PASSWORD) || undefined;
  if (password && !username) return { error: "--password needs --username (or MQTT_USERNAME)" };
  return { url, rate, seed, durationMinutes, plant, username, password };
}

export async function main(argv: string[]): Promise<number> {
  const args = parseSimulateArgs(argv);
  if ("error" in args) {
    console.error(args.error === USAGE ? USAGE : `Error: ${args.error}\n${USAGE}`);
    return args.error === USAGE ? 0 : 1;
  }
  const stamp = () => new Date().toISOString().slice(11, 19);
  const simulator = startLineSimulator({
    url: args.url,
    rate: args.rate,
    seed: args.seed,
    plants: args.plant ? [args.plant] : undefined,
    username: args.username,
    password: args.password,
    log: (m) => console.log(`${stamp()} ${m}`),
  });
  console.log(
    `Line simulator: ${args.rate} parts a minute per station of ${simulator.lines.join(", ")} to ${simulator.url}` +
      `${args.username ? ` as ${args.username}` : ""}` +
      `${args.durationMinutes ? ` for ${args.durationMinutes} min` : ""} (Ctrl-C stops)`,
  );
  console.log(`Disturbances, repeating every ${cycleMs() / 60_000} min:`);
  for (const d of DEMO_LIVE_SCHEDULE.disturbances)
    console.log(`  ${String(d.startMinute).padStart(3)}–${d.startMinute + d.minutes} min  ${d.what}`);

  await new Promise<void>((resolve) => {
    const timer = args.durationMinutes ? setTimeout(resolve, args.durationMinutes * 60_000) : undefined;
    for (const sig of ["SIGINT", "SIGTERM"] as const)
      process.once(sig, () => {
        if (timer) clearTimeout(timer);
        resolve();
      });
  });
  await simulator.stop();
  const s = simulator.stats();
  console.log(
    `${stamp()} stopped: ${s.published} part records published` +
      `${s.queued ? `, ${s.queued} not sent` : ""}${s.dropped ? `, ${s.dropped} dropped` : ""}`,
  );
  return 0;
}

runIfEntryPoint(import.meta.url, main);
