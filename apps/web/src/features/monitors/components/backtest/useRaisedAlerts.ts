import type { TAlert } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { alertKeys } from "../../../alerts/api/keys";
import type { Span } from "./BacktestChart";

/**
 * The alerts a saved monitor raised (its line's alert list, which covers the line's alert window),
 * as spans from opening to resolution (or now); null for an unsaved monitor.
 */
export function useRaisedAlerts(lineId: string | null, monitorId: string | null): Span[] | null {
  const q = useQuery({
    // The alerts feature's key for the line's alerts: one cache with the alerts page.
    queryKey: alertKeys.byLine(lineId ?? "none"),
    queryFn: () => get<TAlert[]>(`/api/lines/${lineId}/alerts`),
    enabled: !!lineId && !!monitorId,
  });
  if (!lineId || !monitorId || !q.data) return null;
  return q.data
    .filter((a) => a.monitor?.id === monitorId)
    .map((a) => ({ from: new Date(a.openedAt), to: new Date(a.resolvedAt ?? Date.now()) }));
}
