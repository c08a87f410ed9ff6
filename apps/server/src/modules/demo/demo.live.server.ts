/**
 * The line simulator inside the server (DEMO on, ingest role): finds where each demo line's
 * stored records end — the seed's last part, or the last live part before a restart — so the
 * live parts continue from there without a gap or a repeated part number, then starts it.
 */
import type { TMqttLogin } from "@linewatch/contracts";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { customers, ingestors, lines, partRecords, plants, stations } from "../../db/schema/index.js";
import { DEMO_CATALOG } from "./demo.catalog.js";
import type { LiveResume } from "./demo.live.js";
import { type LineSimulatorHandle, type LineSimulatorOptions, startLineSimulator } from "./demo.live.mqtt.js";
import { LINE_SIMULATORS } from "./demo.simulate.js";

/** Newest records read per station to find the last production part's number. */
const TAIL = 50;

/** Where each simulated demo line's records end; null when there is no demo customer. */
export async function findLiveResume(db: Db): Promise<Map<string, LiveResume> | null> {
  const [demo] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.isDemo, true))
    .limit(1);
  if (!demo) return null;
  const resume = new Map<string, LiveResume>();
  for (const plant of DEMO_CATALOG) {
    for (const def of plant.lines) {
      const sim = LINE_SIMULATORS[def.name];
      if (!sim) continue;
      const [line] = await db
        .select({ id: lines.id })
        .from(lines)
        .innerJoin(plants, eq(plants.id, lines.plantId))
        .where(and(eq(lines.customerId, demo.id), eq(plants.name, plant.name), eq(lines.name, def.name)));
      if (!line) continue;
      const stationRows = await db
        .select({ id: stations.id })
        .from(stations)
        .where(eq(stations.lineId, line.id));
      let lastTs = 0;
      let lastIndex = -1;
      for (const st of stationRows) {
        // (station_id, ts, …) is the primary key: a short backward index scan per station.
        const tail = await db
          .select({ ts: partRecords.ts, partId: partRecords.partId })
          .from(partRecords)
          .where(eq(partRecords.stationId, st.id))
          .orderBy(desc(partRecords.ts))
          .limit(TAIL);
        for (const r of tail) {
          lastTs = Math.max(lastTs, r.ts.getTime());
          if (!r.partId.startsWith(sim.partPrefix)) continue;
          const n = Number(r.partId.slice(sim.partPrefix.length));
          if (Number.isSafeInteger(n)) lastIndex = Math.max(lastIndex, n);
        }
      }
      if (lastTs > 0 && lastIndex >= 0) resume.set(def.name, { lastTs, nextIndex: lastIndex + 1 });
    }
  }
  return resume;
}

export type DemoLiveOptions = Omit<LineSimulatorOptions, "resume"> & {
  db: Db;
  /**
   * The login for the demo plants' topics on the embedded broker (ingest.internalLogin); on an
   * external broker undefined, and the URL's user (MQTT_URL) is used.
   */
  loginFor?: (ingestorIds: string[]) => TMqttLogin | undefined;
};

/** The demo customer's ingestors: the plants whose topics the simulator publishes on. */
async function demoIngestorIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: ingestors.id })
    .from(ingestors)
    .innerJoin(customers, eq(customers.id, ingestors.customerId))
    .where(eq(customers.isDemo, true));
  return rows.map((r) => r.id);
}

/**
 * Starts the line simulator against the broker at `url` when there is a demo customer and the
 * rate is above 0; null otherwise (a real installation with DEMO left on publishes nothing).
 */
export async function startDemoLive(opts: DemoLiveOptions): Promise<LineSimulatorHandle | null> {
  if (!(opts.rate > 0)) return null;
  const resume = await findLiveResume(opts.db);
  if (!resume) {
    opts.log?.("no demo customer in the database: line simulator off");
    return null;
  }
  const { db, loginFor, ...rest } = opts;
  const login = loginFor?.(await demoIngestorIds(db));
  return startLineSimulator({ ...rest, ...login, resume });
}
