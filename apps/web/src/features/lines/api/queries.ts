import type { TAlert, TAlertCauses, TAlertDetail, TEvaluationValues, TMonitor } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
import { lineKeys } from "./keys";

/** The line's alerts inside its alert viewing window, newest first; refreshed every 30 s. */
export const useLineAlerts = (lineId: string) =>
  useQuery({
    queryKey: lineKeys.alerts(lineId),
    queryFn: () => get<TAlert[]>(`/api/lines/${lineId}/alerts`),
    refetchInterval: 30_000,
  });

export const useAlert = (alertId: string | null) =>
  useQuery({
    queryKey: lineKeys.alert(alertId ?? "none"),
    queryFn: () => get<TAlertDetail>(`/api/alerts/${alertId}`),
    enabled: !!alertId,
  });

export const useAlertCauses = (alertId: string | null) =>
  useQuery({
    queryKey: lineKeys.causes(alertId ?? "none"),
    queryFn: () => get<TAlertCauses>(`/api/alerts/${alertId}/causes`),
    enabled: !!alertId,
    staleTime: 60_000,
  });

/** The values an SVD or CAP evaluation judged (its window read again); they do not change. */
export const useEvaluationValues = (alertId: string, evaluationId: string) =>
  useQuery({
    queryKey: lineKeys.evaluationValues(alertId, evaluationId),
    queryFn: () => get<TEvaluationValues>(`/api/alerts/${alertId}/evaluations/${evaluationId}/values`),
    staleTime: 5 * 60_000,
  });

/** Every monitor of the line, all three types, sorted by name. */
export const useLineMonitors = (lineId: string) =>
  useQuery({
    queryKey: lineKeys.monitors(lineId),
    queryFn: async () => {
      const lists = await Promise.all(
        (["svd", "mvd", "cap"] as const).map((type) =>
          get<TMonitor[]>(`/api/lines/${lineId}/monitors?type=${type}`),
        ),
      );
      return lists.flat().sort((a, b) => a.monitor_name.localeCompare(b.monitor_name));
    },
    refetchInterval: 60_000,
  });
