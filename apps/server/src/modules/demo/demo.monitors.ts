import { monitorFilterMd5, type TMonitorType, type TStoredMonitorFilter } from "@linewatch/contracts";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { customers, lines, monitors, signals, stations } from "../../db/schema/index.js";
import { DEMO_LINES, DEMO_STATIONS } from "./demo.constants.js";

type DemoMonitor = {
  name: string;
  type: TMonitorType;
  line: string;
  signals: { station: string; signal: string }[];
  sampleSize: number;
  /** Model numbers the monitor is limited to (cap: models whose spec limits differ). */
  partNumbers?: string[];
};

/**
 * The demo monitors' evaluation set: a quarter of 100 records, the smallest set the forms allow
 * (25). At one part a minute a disturbance then fills 40% of it after 10 minutes, enough for SVD
 * and MVD to breach at the second or third evaluation after the simulator starts; a window of
 * 150 with 0.2 (30 records) needed about 13 disturbed parts.
 */
export const DEMO_MONITOR_EVALUATION_RATIO = 0.25;

/**
 * Monitors that watch the simulator's disturbances (demo.live.schedule.ts): two of each type
 * across the two lines with records, every 5 minutes, so each type alerts within 15 minutes of
 * `npm start` (README "Line simulator").
 */
export const DEMO_MONITORS: readonly DemoMonitor[] = [
  {
    name: "Position X shift",
    type: "svd",
    line: DEMO_LINES.valve,
    signals: [{ station: DEMO_STATIONS.valve.cmm, signal: "Position X" }],
    sampleSize: 100,
  },
  {
    name: "Wheel nut torque",
    type: "svd",
    line: DEMO_LINES.axle,
    signals: [{ station: DEMO_STATIONS.axle.nutRunner, signal: "Torque" }],
    sampleSize: 100,
  },
  {
    name: "Torque and angle",
    type: "mvd",
    line: DEMO_LINES.axle,
    signals: [
      { station: DEMO_STATIONS.axle.nutRunner, signal: "Torque" },
      { station: DEMO_STATIONS.axle.nutRunner, signal: "Angle" },
    ],
    sampleSize: 100,
  },
  {
    name: "Bore geometry",
    type: "mvd",
    line: DEMO_LINES.valve,
    signals: [
      { station: DEMO_STATIONS.valve.boring, signal: "Bore Diameter" },
      { station: DEMO_STATIONS.valve.boring, signal: "Roundness" },
    ],
    sampleSize: 100,
  },
  {
    name: "Position X capability",
    type: "cap",
    line: DEMO_LINES.valve,
    signals: [{ station: DEMO_STATIONS.valve.cmm, signal: "Position X" }],
    sampleSize: 100,
  },
  {
    name: "Press force capability",
    type: "cap",
    line: DEMO_LINES.axle,
    signals: [{ station: DEMO_STATIONS.axle.press, signal: "Press Force" }],
    sampleSize: 100,
    // AX-100 and AX-200 have different press force limits: one capability per model.
    partNumbers: ["AX-100"],
  },
];

/** Seeds the demo monitors for the demo customer; a second call changes nothing. */
export async function seedDemoMonitors(db: Db, now = new Date()): Promise<number> {
  const [demo] = await db.select({ id: customers.id }).from(customers).where(eq(customers.isDemo, true));
  if (!demo) return 0;
  let created = 0;
  for (const m of DEMO_MONITORS) {
    const [line] = await db
      .select({ id: lines.id, plantId: lines.plantId })
      .from(lines)
      .where(and(eq(lines.customerId, demo.id), eq(lines.name, m.line)));
    if (!line) continue;
    const ids: string[] = [];
    for (const s of m.signals) {
      const [row] = await db
        .select({ id: signals.id })
        .from(signals)
        .innerJoin(stations, eq(stations.id, signals.stationId))
        .where(and(eq(stations.lineId, line.id), eq(stations.name, s.station), eq(signals.name, s.signal)));
      if (row) ids.push(row.id);
    }
    if (ids.length !== m.signals.length) continue;
    const filter: TStoredMonitorFilter = {
      signal_uuids: ids,
      signal_group_uuids: [],
      part_attributes: [],
      sample_size: m.sampleSize,
      pass_fail_filter: [],
      evaluation_ratio: DEMO_MONITOR_EVALUATION_RATIO,
      part_numbers: m.partNumbers ?? [],
      part_groups: [],
      ...(m.type === "cap" ? { op_count: "ALL" as const } : {}),
    };
    const inserted = await db
      .insert(monitors)
      .values({
        customerId: demo.id,
        plantId: line.plantId,
        lineId: line.id,
        name: m.name,
        type: m.type,
        active: true,
        frequency: 5,
        notes: "Demo monitor: watches a disturbance of the line simulator.",
        alertThreshold: "medium",
        filter,
        filterMd5: monitorFilterMd5(m.type, filter),
        nextRunAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: monitors.id });
    created += inserted.length;
  }
  return created;
}
