import {
  isNoIngestion,
  OVERVIEW_ALERT_TYPES,
  overviewHours,
  overviewLineStatus,
  overviewMonitorOrder,
  PLANT_OVERVIEW_HOURS,
  PLANT_OVERVIEW_NEWEST_ALERTS,
  type TOverviewLine,
  type TOverviewMonitor,
  type TOverviewOpenAlerts,
  type TPlantOverview,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";
import { createPlantOverviewRepo, isQuarterHour } from "./plant-overview.repo.js";

const iso = (v: Date | string) => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null) => (v == null ? null : iso(v));

/** Appends to the list kept under `key`, creating it first. */
function push<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The plant at a glance (issue 18 §3): the plant is the customer's or it is a 404; then five
 * plant-wide queries over its active lines (lines, records per hour, open alerts, monitors, newest
 * alerts) are put together per line here.
 */
export function createPlantOverviewService(deps: { db: Db; plants: PlantsService; now?: () => Date }) {
  const repo = createPlantOverviewRepo(deps.db);
  const clock = deps.now ?? (() => new Date());
  // Every open home page asks every PLANT_OVERVIEW_POLL_MS: the counts the ingest keeps per line
  // and quarter hour answer it in a few hundred rows whatever the plant's rate, a record stored
  // late into an older hour (a CSV upload, a backlog after an outage) included, at once
  // (docs/decisions/0299-hourly-counts-kept-at-ingest.md).
  const recordsPerHour = (customerId: string, plantId: string, from: Date, to: Date) =>
    isQuarterHour(from) && isQuarterHour(to)
      ? repo.recordsPerHour(customerId, plantId, from, to)
      : repo.recordsPerHourCounted(customerId, plantId, from, to);
  return {
    async get(ctx: AuthContext, plantId: string): Promise<TPlantOverview> {
      const plant = await deps.plants.get(ctx, plantId);
      const now = clock();
      const { from, to } = overviewHours(now, plant.timeZone);
      const c = ctx.customerId;
      const [lines, hours, open, monitors, newest] = await Promise.all([
        repo.lines(c, plantId),
        recordsPerHour(c, plantId, from, to),
        repo.openAlerts(c, plantId),
        repo.monitors(c, plantId),
        repo.newestAlerts(c, plantId, PLANT_OVERVIEW_NEWEST_ALERTS),
      ]);

      const perHour = new Map<string, number[]>();
      for (const h of hours) {
        const row = perHour.get(h.line_id) ?? new Array<number>(PLANT_OVERVIEW_HOURS).fill(0);
        perHour.set(h.line_id, row);
        if (h.bucket >= 0 && h.bucket < PLANT_OVERVIEW_HOURS) row[h.bucket] = Number(h.n);
      }
      const openOf = new Map<string, TOverviewOpenAlerts[]>();
      for (const o of open)
        push(openOf, o.line_id, { type: o.type, count: Number(o.n), oldestOpenedAt: iso(o.oldest) });
      const monitorsOf = new Map<string, TOverviewMonitor[]>();
      for (const m of monitors)
        push(monitorsOf, m.line_id, {
          id: m.id,
          name: m.name,
          type: m.type,
          active: m.active,
          lastState: m.last_state,
          lastEvaluatedAt: isoOrNull(m.last_evaluated_at),
        });

      const typeRank = (t: TOverviewOpenAlerts["type"]) => OVERVIEW_ALERT_TYPES.indexOf(t);
      return {
        plantId,
        timeZone: plant.timeZone,
        generatedAt: now.toISOString(),
        hoursFrom: from.toISOString(),
        lines: lines.map((l): TOverviewLine => {
          const line = {
            id: l.id,
            name: l.name,
            friendlyName: l.friendly_name,
            isNewLine: l.is_new_line,
            lastIngestedTime: isoOrNull(l.last_ingested_time),
            ingestionThresholdHours: l.ingestion_threshold_hours,
          };
          const openAlerts = (openOf.get(l.id) ?? []).sort((a, b) => typeRank(a.type) - typeRank(b.type));
          return {
            ...line,
            status: overviewLineStatus({ openAlerts, lastIngestedTime: line.lastIngestedTime }),
            noIngestion: isNoIngestion(line, now),
            openAlerts,
            monitors: (monitorsOf.get(l.id) ?? []).sort(overviewMonitorOrder),
            recordsPerHour: perHour.get(l.id) ?? new Array<number>(PLANT_OVERVIEW_HOURS).fill(0),
          };
        }),
        newestAlerts: newest.map((a) => ({
          id: a.id,
          lineId: a.line_id,
          kind: a.kind,
          state: a.state,
          monitor:
            a.monitor_id && a.monitor_name && a.monitor_type
              ? { id: a.monitor_id, name: a.monitor_name, type: a.monitor_type }
              : null,
          openedAt: iso(a.opened_at),
          lastSeenAt: iso(a.last_seen_at),
          count: Number(a.count),
        })),
      };
    },
  };
}
export type PlantOverviewService = ReturnType<typeof createPlantOverviewService>;
