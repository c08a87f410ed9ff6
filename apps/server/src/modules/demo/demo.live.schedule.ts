/**
 * When the live line simulator (demo.live.ts) disturbs the demo lines, as data: every kind of
 * fault a monitor type looks for begins within the first 3 minutes after the simulator starts,
 * so the demo monitors (every 5 minutes, evaluation sets of 25 parts) alert for every type within
 * 15 minutes of `npm start` (test/service/demo.alerts.test.ts), and the cycle repeats
 * (docs/architecture.md "Processes": monitors breach and alerts appear within minutes). Times are
 * minutes on the simulator's clock, whatever the part rate.
 */
import { DEMO_LINES, DEMO_STATIONS } from "./demo.constants.js";

export const DISTURBANCE_KINDS = [
  "mean_shift",
  "correlation_break",
  "spread",
  "failure_burst",
  "pause",
] as const;
export type DisturbanceKind = (typeof DISTURBANCE_KINDS)[number];

type AtStation = { line: string; station: string };
/** Measurement changes keep the catalog's precision (decimals) and, when the new value falls
 * outside the signal's limits, set the station's result to `failResult` (a fail value of the
 * signal's result classifications). */
type Numeric = { decimals: number; failResult?: string };

export type DisturbanceEffect =
  /** The signal reads `delta` higher (SVD, CAP and, through its group, MVD find it). */
  | (AtStation & Numeric & { kind: "mean_shift"; signal: string; delta: number })
  /**
   * The second signal is mirrored around `center` (2·center − value): its own distribution stays
   * the same, its correlation with the first flips sign. Only MVD finds it.
   */
  | (AtStation & Numeric & { kind: "correlation_break"; signals: readonly [string, string]; center: number })
  /** Normal noise with standard deviation `extraSd` is added: same mean, wider spread. */
  | (AtStation & Numeric & { kind: "spread"; signal: string; extraSd: number })
  /**
   * `share` of the parts fail: the result takes one of its fail values (catalog classifications)
   * and the measurement `causes` names for that value is pushed just past its limit.
   */
  | (AtStation & {
      kind: "failure_burst";
      result: string;
      share: number;
      causes: Readonly<Record<string, string>>;
    })
  /** No part records of the line arrive (parts still run: the numbering skips them). */
  | { kind: "pause"; line: string };

export type ScheduledDisturbance = DisturbanceEffect & {
  /** Minutes after the simulator started, within the cycle. */
  startMinute: number;
  minutes: number;
  /** What a person reading the log sees. */
  what: string;
};

export type LiveSchedule = {
  /** The disturbances repeat every cycle (at least as long as the last one's end). */
  cycleMinutes: number;
  disturbances: readonly ScheduledDisturbance[];
};

/**
 * How long the ingestion pause lasts, in minutes. Axle Assembly has the smallest ingestion
 * threshold of the demo lines (2 h): a 10-minute pause shows as a gap in its records; set this
 * above 120 to see its "No Ingestion" status too (the cycle stretches to fit).
 */
export const LINE_PAUSE_MINUTES = 10;

const S = DEMO_STATIONS;

export const DEMO_LIVE_SCHEDULE: LiveSchedule = {
  cycleMinutes: 60,
  disturbances: [
    {
      kind: "mean_shift",
      what: "CMM fixture moved: Position X +0.025 mm (about 2 σ)",
      line: DEMO_LINES.valve,
      station: S.valve.cmm,
      signal: "Position X",
      // σ 0.012 mm against limits ±0.05 mm: Ppk 1.39 → 0.69.
      delta: 0.025,
      decimals: 4,
      failResult: "FAIL",
      startMinute: 0,
      minutes: 20,
    },
    {
      kind: "correlation_break",
      what: "Nut runner angle encoder inverted: Torque ↔ Angle correlation +0.87 → −0.87",
      line: DEMO_LINES.axle,
      station: S.axle.nutRunner,
      signals: ["Torque", "Angle"],
      // Angle = 70° + 3·(joint torque − 45 Nm) + noise: its mean is 70°.
      center: 70,
      decimals: 1,
      failResult: "NOK-A",
      startMinute: 1,
      minutes: 12,
    },
    {
      kind: "spread",
      what: "Boring spindle bearing loose: Bore Diameter σ 0.003 → 0.0067 mm",
      line: DEMO_LINES.valve,
      station: S.valve.boring,
      signal: "Bore Diameter",
      extraSd: 0.006,
      decimals: 4,
      failResult: "n.i.O.",
      startMinute: 0,
      minutes: 20,
    },
    {
      // The loose bearing also opens the bore: the calibrated MVD's mean test sees a 3 σ move in
      // the 10 of 25 evaluation parts made by the 10-minute evaluation; its structure test alone
      // needs about half the set disturbed (a rank test's z is at most 7.5 × the disturbed share).
      kind: "mean_shift",
      what: "Boring spindle bearing loose: Bore Diameter +0.009 mm (3 σ)",
      line: DEMO_LINES.valve,
      station: S.valve.boring,
      signal: "Bore Diameter",
      delta: 0.009,
      decimals: 4,
      failResult: "n.i.O.",
      startMinute: 0,
      minutes: 20,
    },
    {
      kind: "failure_burst",
      what: "Bearing press fails 60% of parts (NOK, NOK-D)",
      line: DEMO_LINES.axle,
      station: S.axle.press,
      result: "Press Result",
      share: 0.6,
      causes: { NOK: "Press Force", "NOK-D": "Press Depth" },
      startMinute: 3,
      minutes: 5,
    },
    {
      kind: "pause",
      what: `Axle Assembly sends nothing for ${LINE_PAUSE_MINUTES} min`,
      line: DEMO_LINES.axle,
      startMinute: 14,
      minutes: LINE_PAUSE_MINUTES,
    },
  ],
};

const MINUTE_MS = 60_000;

/** The cycle's length in ms: the schedule's, stretched to the end of its last disturbance. */
export function cycleMs(schedule: LiveSchedule = DEMO_LIVE_SCHEDULE): number {
  const lastEnd = Math.max(0, ...schedule.disturbances.map((d) => d.startMinute + d.minutes));
  return Math.max(schedule.cycleMinutes, lastEnd) * MINUTE_MS;
}

export type ActiveDisturbance = ScheduledDisturbance & {
  /** How long it has been on, and how long it stays on (ms). */
  sinceMs: number;
  leftMs: number;
};

/** The disturbances on at `elapsedMs` after the simulator started (none before it started). */
export function disturbancesAt(
  elapsedMs: number,
  schedule: LiveSchedule = DEMO_LIVE_SCHEDULE,
): ActiveDisturbance[] {
  if (!(elapsedMs >= 0)) return [];
  const inCycle = elapsedMs % cycleMs(schedule);
  const active: ActiveDisturbance[] = [];
  for (const d of schedule.disturbances) {
    const start = d.startMinute * MINUTE_MS;
    const end = start + d.minutes * MINUTE_MS;
    if (inCycle >= start && inCycle < end)
      active.push({ ...d, sinceMs: inCycle - start, leftMs: end - inCycle });
  }
  return active;
}
