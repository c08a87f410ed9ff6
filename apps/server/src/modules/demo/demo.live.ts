/**
 * The live line simulator's parts: the demo lines keep running after their seeded history, one
 * part a minute per station at rate 1 (`rate` parts a minute), through the same physics
 * (demo.simulate.ts) and seeded PRNG, with the disturbances of demo.live.schedule.ts. Pure apart
 * from its PRNG state: `due(now)` answers the part records whose time has come, as ZPartRecord
 * JSON with the MQTT topic each is published on. demo.live.mqtt.ts publishes them.
 */
import type { TPartRecordInput } from "@linewatch/contracts";
import { DEMO_CATALOG } from "./demo.catalog.js";
import { DEMO_DAYS, DEMO_PART_INTERVAL_MS, DEMO_SEED } from "./demo.constants.js";
import {
  type ActiveDisturbance,
  DEMO_LIVE_SCHEDULE,
  type DisturbanceEffect,
  disturbancesAt,
  type LiveSchedule,
} from "./demo.live.schedule.js";
import { createRandom, deriveSeed, type Random } from "./demo.random.js";
import { shiftAt } from "./demo.records.js";
import { LINE_SIMULATORS, type LineSimulator, type PartContext, type Values } from "./demo.simulate.js";
import { type DemoLine, type DemoPlant, type DemoSignal, type DemoStation, storageOf } from "./demo.types.js";

/** Where a line's stored records end: the last record's time and the next part number. */
export type LiveResume = { lastTs: number; nextIndex: number };

export type LiveOptions = {
  /** Parts a minute per station (1 = one a minute, 60 = one a second); more than 0. */
  rate: number;
  seed?: number;
  /** The simulator's start (ms): records begin here and the schedule counts from here. */
  startedAt: number;
  /** By line name; a line without one starts at `startedAt`, numbered by the clock. */
  resume?: ReadonlyMap<string, LiveResume>;
  schedule?: LiveSchedule;
  /** Only these plants' lines (by plant name); all when unset. A plant's MQTT login covers its own topics only. */
  plants?: readonly string[];
};

export type LiveRecord = {
  topic: string;
  line: string;
  station: string;
  ts: number;
  record: TPartRecordInput & { line: string; station: string; timestamp: string };
};

// The same conventions as demo.records.ts, so live parts look like the seeded ones.
const CHALLENGE_EVERY_PARTS = 480;
const PARTS_PER_LOT = 2 * 1440;
/** Parts in the seeded period: the step change and the drift stay where the seed left them. */
const SEEDED_PARTS = Math.round((DEMO_DAYS * 86_400_000) / DEMO_PART_INTERVAL_MS);
/** A part starts up to 10 s either side of its nominal time (at rate 1). */
const START_JITTER_MS = 10_000;
const ARRIVAL_JITTER_MS = 4_000;
/** A failed final test is retested 4 minutes later (at rate 1), as in the seed. */
const RETEST_AFTER_MS = 240_000;
/** After a stall (a suspended laptop), parts older than this are skipped, not made up for. */
const MAX_CATCH_UP_MS = 5 * 60_000;

const round = (x: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};

/** The topic a record of this line and station goes to: the plant's data source topic. */
export function liveTopic(plant: DemoPlant, line: string, station: string): string {
  return `${plant.topic.replace(/\/?#$/, "")}/${line}/${station}`;
}

/** A result signal's values classified as fail, from the catalog. */
export function failValues(station: DemoStation, resultSignal: string): string[] {
  const s = station.signals.find((x) => x.name === resultSignal);
  return (s?.classifications ?? []).filter((c) => c.result === "fail").map((c) => c.value);
}

const isPass = (station: DemoStation, resultSignal: string, value: unknown) =>
  station.signals
    .find((x) => x.name === resultSignal)
    ?.classifications?.some((c) => c.value === value && c.result === "pass") ?? false;

function signalOf(station: DemoStation, name: string): DemoSignal {
  const s = station.signals.find((x) => x.name === name);
  if (!s) throw new Error(`demo live: no signal "${name}" at ${station.name}`);
  return s;
}

const limitsOf = (values: Values, s: DemoSignal) => {
  const upper = s.upper ? values[s.upper] : undefined;
  const lower = s.lower ? values[s.lower] : undefined;
  return {
    upper: typeof upper === "number" ? upper : undefined,
    lower: typeof lower === "number" ? lower : undefined,
  };
};

/** Sets a disturbed measurement, and fails the part when the new value is outside its limits. */
function setMeasurement(
  station: DemoStation,
  values: Values,
  name: string,
  value: number,
  d: { decimals: number; failResult?: string },
) {
  const s = signalOf(station, name);
  const v = round(value, d.decimals);
  values[name] = v;
  const { upper, lower } = limitsOf(values, s);
  const isOutside = (upper != null && v > upper) || (lower != null && v < lower);
  if (isOutside && d.failResult && s.result && isPass(station, s.result, values[s.result]))
    values[s.result] = d.failResult;
}

/** Applies one disturbance to the values of one station (in place). */
export function applyDisturbance(
  d: DisturbanceEffect,
  station: DemoStation,
  values: Values,
  rng: Random,
): void {
  switch (d.kind) {
    case "mean_shift": {
      const v = values[d.signal];
      if (typeof v === "number") setMeasurement(station, values, d.signal, v + d.delta, d);
      return;
    }
    case "correlation_break": {
      const v = values[d.signals[1]];
      if (typeof v === "number") setMeasurement(station, values, d.signals[1], 2 * d.center - v, d);
      return;
    }
    case "spread": {
      const v = values[d.signal];
      if (typeof v === "number") setMeasurement(station, values, d.signal, v + rng.normal(0, d.extraSd), d);
      return;
    }
    case "failure_burst": {
      if (!rng.chance(d.share)) return;
      const failed = rng.pick(failValues(station, d.result));
      values[d.result] = failed;
      const cause = d.causes[failed];
      const v = cause ? values[cause] : undefined;
      if (!cause || typeof v !== "number") return;
      // Just past the limit: 2–15% of the tolerance band (or of the limit, one-sided).
      const { upper, lower } = limitsOf(values, signalOf(station, cause));
      const band = upper != null && lower != null ? upper - lower : Math.abs(upper ?? lower ?? v) || 1;
      const past = band * (0.02 + 0.13 * rng.next());
      const decimals = (String(v).split(".")[1] ?? "").length + 1;
      if (upper != null) values[cause] = round(upper + past, decimals);
      else if (lower != null) values[cause] = round(lower - past, decimals);
      return;
    }
    case "pause":
      return;
  }
}

/** A station's named values as a part record's measurements, limits, results and attributes. */
function toRecordBody(station: DemoStation, values: Values) {
  const measurements: Record<string, number> = {};
  const limits: Record<string, { lower?: number; upper?: number }> = {};
  const results: Record<string, string> = {};
  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value == null) continue;
    const s = signalOf(station, name);
    if (s.type === "UPPER_LIMIT" || s.type === "LOWER_LIMIT") {
      const side = s.type === "UPPER_LIMIT" ? "upper" : "lower";
      const m = station.signals.find((x) => x[side] === name);
      if (!m || typeof value !== "number") throw new Error(`demo live: limit "${name}" of nothing`);
      limits[m.name] = { ...limits[m.name], [side]: value };
    } else if (storageOf(s) === "num") {
      if (typeof value !== "number") throw new Error(`demo live: "${name}" needs a number`);
      measurements[name] = value;
    } else if (s.type === "RESULT") results[name] = String(value);
    // Attributes, component ids, units and unmapped texts: a gateway sends them as attributes.
    else attributes[name] = String(value);
  }
  return { measurements, limits, results, attributes };
}

type LineState = {
  plant: DemoPlant;
  line: DemoLine;
  sim: LineSimulator;
  rng: Random;
  /** Disturbances draw from their own stream, so the undisturbed parts stay the same. */
  disturbRng: Random;
  nextModel: () => string;
  index: number;
  nextNominal: number;
};

/** Model numbers in production runs of 3 to 9 hours (at rate 1), alternating, as in the seed. */
function modelSchedule(rng: Random, models: readonly string[]) {
  let current = rng.int(0, models.length - 1);
  let remaining = rng.int(180, 540);
  return () => {
    if (remaining-- <= 0) {
      current = (current + 1) % models.length;
      remaining = rng.int(180, 540);
    }
    return models[current] as string;
  };
}

/**
 * The live parts of every simulated demo line. `due(now)` runs the lines up to `now` and answers
 * the records stamped at or before it, oldest first; call it with a clock that only moves forward.
 */
export function createLiveParts(opts: LiveOptions) {
  if (!(opts.rate > 0) || !Number.isFinite(opts.rate)) throw new Error("demo live: rate must be above 0");
  const seed = opts.seed ?? DEMO_SEED;
  const schedule = opts.schedule ?? DEMO_LIVE_SCHEDULE;
  const intervalMs = DEMO_PART_INTERVAL_MS / opts.rate;
  // Faster than one a minute, a part also moves through the line faster.
  const timeScale = Math.min(1, 1 / opts.rate);
  const lead = START_JITTER_MS * timeScale;

  const states: LineState[] = [];
  for (const plant of DEMO_CATALOG) {
    if (opts.plants && !opts.plants.includes(plant.name)) continue;
    for (const line of plant.lines) {
      const sim = LINE_SIMULATORS[line.name];
      if (!line.hasRecords || !sim) continue;
      const resume = opts.resume?.get(line.name);
      const index = resume?.nextIndex ?? Math.floor(opts.startedAt / intervalMs);
      const rng = createRandom(deriveSeed(seed, `live/${line.name}/${index}`));
      states.push({
        plant,
        line,
        sim,
        rng,
        disturbRng: createRandom(deriveSeed(seed, `live-disturbances/${line.name}/${index}`)),
        nextModel: modelSchedule(rng, sim.productionModels),
        index,
        // Seamless: one interval after the last stored record, never before the start.
        nextNominal: Math.max(opts.startedAt, resume ? resume.lastTs + intervalMs : opts.startedAt),
      });
    }
  }

  let pending: LiveRecord[] = [];

  const pausedAt = (line: string, ts: number) =>
    disturbancesAt(ts - opts.startedAt, schedule).some((d) => d.kind === "pause" && d.line === line);

  function runPart(st: LineState) {
    const { plant, line, sim, rng, index } = st;
    const nominal = st.nextNominal;
    const started = nominal + Math.round(rng.int(-START_JITTER_MS, START_JITTER_MS) * timeScale);
    const isChallenge = index % CHALLENGE_EVERY_PARTS === 0;
    const challengeId =
      sim.challengeParts[Math.floor(index / CHALLENGE_EVERY_PARTS) % sim.challengeParts.length];
    const part: PartContext = {
      index,
      count: SEEDED_PARTS,
      // After the seeded period's end: the step change stays in, the drift stays at its end.
      msBeforeEnd: opts.startedAt - nominal - 1,
      partId: isChallenge && challengeId ? challengeId : `${sim.partPrefix}${String(index).padStart(6, "0")}`,
      modelNumber: isChallenge ? sim.challengeModel : st.nextModel(),
      isChallenge,
      shift: shiftAt(new Date(started), plant.timeZone),
      lotIndex: Math.floor(index / PARTS_PER_LOT),
    };
    const arrivals = sim.stationOffsetsMs.map(
      (offset) => started + Math.round((offset + rng.int(0, ARRIVAL_JITTER_MS)) * timeScale),
    );
    const { values, retest } = sim.simulate(rng, part);
    const active = disturbancesAt(nominal - opts.startedAt, schedule).filter((d) => d.line === line.name);

    const push = (stationIndex: number, ts: number, op: number, v: Values) => {
      const station = line.stations[stationIndex];
      if (!station) throw new Error(`demo live: station ${stationIndex} of ${line.name}`);
      for (const d of active) {
        if (d.kind !== "pause" && d.station === station.name) applyDisturbance(d, station, v, st.disturbRng);
      }
      if (pausedAt(line.name, ts)) return;
      pending.push({
        topic: liveTopic(plant, line.name, station.name),
        line: line.name,
        station: station.name,
        ts,
        record: {
          line: line.name,
          station: station.name,
          partId: part.partId,
          modelNumber: part.modelNumber,
          timestamp: new Date(ts).toISOString(),
          op,
          ...toRecordBody(station, v),
        },
      });
    };
    values.forEach((v, i) => {
      push(i, arrivals[i] ?? started, 1, v);
    });
    const final = line.stations.length - 1;
    if (retest)
      push(final, (arrivals[final] ?? started) + Math.round(RETEST_AFTER_MS * timeScale), 2, retest);
    st.index++;
    st.nextNominal += intervalMs;
  }

  return {
    startedAt: opts.startedAt,
    intervalMs,
    lines: states.map((s) => s.line.name),
    /** The disturbances on at `now`. */
    disturbances: (now: number): ActiveDisturbance[] => disturbancesAt(now - opts.startedAt, schedule),
    /** Records stamped at or before `now` not answered yet, oldest first. */
    due(now: number): LiveRecord[] {
      for (const st of states) {
        const behind = Math.floor((now - MAX_CATCH_UP_MS - st.nextNominal) / intervalMs);
        if (behind > 0) {
          st.index += behind;
          st.nextNominal += behind * intervalMs;
        }
        while (st.nextNominal - lead <= now) runPart(st);
      }
      pending.sort((a, b) => a.ts - b.ts);
      const cut = pending.findIndex((r) => r.ts > now);
      const out = cut < 0 ? pending : pending.slice(0, cut);
      pending = cut < 0 ? [] : pending.slice(cut);
      return out;
    },
  };
}
export type LiveParts = ReturnType<typeof createLiveParts>;
