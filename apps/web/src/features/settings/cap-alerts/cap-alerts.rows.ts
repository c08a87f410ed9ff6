import type { TCapMonitorStatus, TMonitor, TSpcSignalLimits, TStation } from "@linewatch/contracts";
import { compareValues } from "../../../shared/ui/settings/expandable-rows";

/** One row of the Cap Alerts grid: a signal with limits (or with a cap monitor), and its monitor. */
export type TCapAlertRow = {
  id: string;
  station: string;
  signal: string;
  hasLimits: boolean;
  /**
   * No SPC limits, but the signal has limit signals (Signal Management's upper/lower limit): its
   * cap monitor judges capability against the limits that arrive with its records.
   */
  hasRecordLimits: boolean;
  monitor: TMonitor | null;
  status: TCapMonitorStatus | null;
};

/**
 * The grid's rows (requirements.md settings §2.4): the signals with configured limits, plus any signal whose
 * cap monitor outlived its limits, sorted by station then signal. `recordLimitSignals`: the ids of
 * signals with an upper or lower limit signal, which the worker reads as spec limits when there are
 * no SPC limits (window.plan.ts); only a row with neither gets the no-limits warning.
 */
export function capAlertRows(
  limits: TSpcSignalLimits[],
  monitors: TMonitor[],
  statuses: TCapMonitorStatus[] = [],
  recordLimitSignals: ReadonlySet<string> = new Set(),
): TCapAlertRow[] {
  const monitorOf = new Map<string, TMonitor>();
  for (const m of monitors) {
    const signalId = m.monitor_type === "cap" ? m.monitor_filter.signal_uuids[0] : undefined;
    // Several cap monitors on one signal: the active one is the row's.
    if (signalId && (!monitorOf.has(signalId) || m.active)) monitorOf.set(signalId, m);
  }
  const statusOf = new Map(statuses.map((s) => [s.monitorId, s]));
  return limits
    .filter((s) => s.limits.length > 0 || monitorOf.has(s.signalUUID))
    .map((s) => {
      const monitor = monitorOf.get(s.signalUUID) ?? null;
      return {
        id: s.signalUUID,
        station: s.stationName,
        signal: s.signalName,
        hasLimits: s.limits.length > 0,
        hasRecordLimits: s.limits.length === 0 && recordLimitSignals.has(s.signalUUID),
        monitor,
        status: monitor ? (statusOf.get(monitor.monitor_uuid) ?? null) : null,
      };
    })
    .sort((a, b) => compareValues(a.station, b.station) || compareValues(a.signal, b.signal));
}

/** The rows whose station or signal contains the search text (any case). */
export const filterCapAlertRows = (rows: TCapAlertRow[], search: string) => {
  const q = search.trim().toLowerCase();
  return q ? rows.filter((r) => `${r.station} ${r.signal}`.toLowerCase().includes(q)) : rows;
};

/** The ids of the stations' signals that have an upper or lower limit signal. */
export const recordLimitSignalIds = (stations: TStation[]): Set<string> =>
  new Set(stations.flatMap((st) => st.signals.filter((s) => s.upperLimit || s.lowerLimit).map((s) => s.id)));
