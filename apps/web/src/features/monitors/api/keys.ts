import type { TMonitorType } from "@linewatch/contracts";
import type { QueryKey } from "@tanstack/react-query";
import { plantKeys } from "../../../shared/data/plants/keys";
import { lineOverviewKeys } from "../../line-overview/api/keys";

/** Query keys of the monitor forms and pages; the monitor lists are invalidated after saves. */
export const monitorKeys = {
  all: ["monitors"] as const,
  list: (lineId: string, type?: TMonitorType) => ["monitors", "list", lineId, type ?? "all"] as const,
  byId: (monitorId: string) => ["monitors", "by-id", monitorId] as const,
  rules: (monitorId: string) => ["monitors", "rules", monitorId] as const,
  nextName: (lineId: string, type: TMonitorType) => ["monitors", "next-name", lineId, type] as const,
  formBounds: ["monitors", "form-bounds"] as const,
  preview: (body: unknown) => ["monitors", "preview", body] as const,
  backtest: (body: unknown) => ["monitors", "backtest", body] as const,
  partAttributes: (lineId: string) => ["lines", lineId, "part-attributes"] as const,
  modelNumbers: (lineId: string) => ["lines", lineId, "model-numbers"] as const,
};

/**
 * Every query that shows monitors, for a change to one monitor (or a new one) on a line: the
 * monitor lists, the line overview's monitors, the plant's lines and the line (their
 * activeMonitorsCount), the monitor and its rules. The one place that knows the other features'
 * keys, so a move of those features changes one import here.
 */
export function monitorDisplayKeys(c: {
  monitorId: string | null;
  lineId: string;
  plantId: string | null;
}): { queryKey: QueryKey; exact?: boolean }[] {
  return [
    { queryKey: monitorKeys.all },
    { queryKey: lineOverviewKeys.monitors(c.lineId) },
    ...(c.plantId ? [{ queryKey: plantKeys.lines(c.plantId) }] : []),
    // Exact: ["lines", lineId] is also the start of the line's signals and attributes.
    { queryKey: plantKeys.line(c.lineId), exact: true },
    ...(c.monitorId
      ? [{ queryKey: monitorKeys.byId(c.monitorId) }, { queryKey: monitorKeys.rules(c.monitorId) }]
      : []),
  ];
}
