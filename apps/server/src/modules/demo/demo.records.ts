/**
 * Generates the demo part records: for each simulated line, one part a minute for DEMO_DAYS days
 * ending at `end`, through every station, as compact rows (values in slot order, as stored in
 * part_records). Deterministic: the same seed gives the same values (and, for the same `end`,
 * the same rows). Model numbers run in batches, challenge parts run at every shift change.
 */

import { DEMO_CATALOG } from "./demo.catalog.js";
import { DEMO_DAYS, DEMO_PART_INTERVAL_MS, DEMO_SEED } from "./demo.constants.js";
import { createRandom, deriveSeed, type Random } from "./demo.random.js";
import { LINE_SIMULATORS, type LineSimulator, type PartContext, type Values } from "./demo.simulate.js";
import { type DemoLine, type DemoPlant, stationLayout } from "./demo.types.js";

export type DemoRecord = {
  station: string;
  ts: Date;
  partId: string;
  op: number;
  modelNumber: string;
  numValues: (number | null)[];
  textValues: (string | null)[];
};

export type DemoLineRecords = { plant: string; line: string; records: DemoRecord[] };

export type GenerateOptions = { seed?: number; end: Date; days?: number };

/** A challenge (master) part runs every 8 hours, i.e. about at each shift change. */
const CHALLENGE_EVERY_PARTS = 480;
const PARTS_PER_LOT = 2 * 1440;

const hourFormats = new Map<string, Intl.DateTimeFormat>();
function localHour(ts: Date, timeZone: string): number {
  let f = hourFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "numeric", hourCycle: "h23" });
    hourFormats.set(timeZone, f);
  }
  return Number(f.format(ts));
}

export function shiftAt(ts: Date, timeZone: string): PartContext["shift"] {
  const h = localHour(ts, timeZone);
  return h >= 6 && h < 14 ? "A" : h >= 14 && h < 22 ? "B" : "C";
}

/** Puts a station's named values into its record arrays, in the catalog's slot order. */
function toArrays(layout: ReturnType<typeof stationLayout>, values: Values) {
  const numValues: (number | null)[] = new Array(layout.numCount).fill(null);
  const textValues: (string | null)[] = new Array(layout.textCount).fill(null);
  for (const [name, value] of Object.entries(values)) {
    const at = layout.slots.get(name);
    if (!at) throw new Error(`demo: no signal "${name}"`);
    if (value == null) continue;
    if (at.storage === "num") {
      if (typeof value !== "number") throw new Error(`demo: "${name}" needs a number`);
      numValues[at.slot] = value;
    } else textValues[at.slot] = String(value);
  }
  return { numValues, textValues };
}

/** Model numbers in production runs of 3 to 9 hours, alternating. */
function modelSchedule(rng: Random, models: readonly string[]) {
  let current = 0;
  let remaining = rng.int(180, 540);
  return () => {
    if (remaining-- <= 0) {
      current = (current + 1) % models.length;
      remaining = rng.int(180, 540);
    }
    return models[current] as string;
  };
}

export function generateLineRecords(
  plant: DemoPlant,
  line: DemoLine,
  sim: LineSimulator,
  opts: GenerateOptions,
): DemoRecord[] {
  const seed = opts.seed ?? DEMO_SEED;
  const end = opts.end.getTime();
  const count = Math.round(((opts.days ?? DEMO_DAYS) * 86_400_000) / DEMO_PART_INTERVAL_MS);
  const start = end - count * DEMO_PART_INTERVAL_MS;
  const rng = createRandom(deriveSeed(seed, line.name));
  const nextModel = modelSchedule(rng, sim.productionModels);
  const layouts = line.stations.map(stationLayout);
  if (layouts.length !== sim.stationOffsetsMs.length) throw new Error(`demo: stations of ${line.name}`);
  const finalStation = line.stations.length - 1;
  const records: DemoRecord[] = [];

  const push = (station: number, ts: number, part: PartContext, op: number, values: Values) => {
    // Parts still on their way at `end` have not reached the station yet.
    if (ts > end) return;
    const layout = layouts[station];
    const def = line.stations[station];
    if (!layout || !def) throw new Error(`demo: station ${station} of ${line.name}`);
    records.push({
      station: def.name,
      ts: new Date(ts),
      partId: part.partId,
      op,
      modelNumber: part.modelNumber,
      ...toArrays(layout, values),
    });
  };

  for (let index = 0; index < count; index++) {
    const nominal = start + index * DEMO_PART_INTERVAL_MS;
    const started = nominal + rng.int(-10_000, 10_000);
    const isChallenge = index % CHALLENGE_EVERY_PARTS === 0;
    const challengeId = sim.challengeParts[(index / CHALLENGE_EVERY_PARTS) % sim.challengeParts.length];
    const part: PartContext = {
      index,
      count,
      msBeforeEnd: end - nominal,
      partId: isChallenge && challengeId ? challengeId : `${sim.partPrefix}${String(index).padStart(6, "0")}`,
      modelNumber: isChallenge ? sim.challengeModel : nextModel(),
      isChallenge,
      shift: shiftAt(new Date(started), plant.timeZone),
      lotIndex: Math.floor(index / PARTS_PER_LOT),
    };
    const arrivals = sim.stationOffsetsMs.map((offset) => started + offset + rng.int(0, 4_000));
    const { values, retest } = sim.simulate(rng, part);
    values.forEach((v, station) => {
      push(station, arrivals[station] ?? started, part, 1, v);
    });
    // A failed final test is retested 4 minutes later (operation count 2).
    if (retest) push(finalStation, (arrivals[finalStation] ?? started) + 240_000, part, 2, retest);
  }
  return records;
}

/** Records for every simulated line of the catalog. */
export function generateDemoRecords(opts: GenerateOptions): DemoLineRecords[] {
  const out: DemoLineRecords[] = [];
  for (const plant of DEMO_CATALOG) {
    for (const line of plant.lines) {
      const sim = LINE_SIMULATORS[line.name];
      if (!line.hasRecords || !sim) continue;
      out.push({ plant: plant.name, line: line.name, records: generateLineRecords(plant, line, sim, opts) });
    }
  }
  return out;
}
