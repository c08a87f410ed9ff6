import type { TAlert, TAlertCauses, TAlertDetail, TEvaluationValues } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
import { alertKeys } from "./keys";

/** The line's alerts inside its alert viewing window, newest first; refreshed every 30 s. */
export const useLineAlerts = (lineId: string) =>
  useQuery({
    queryKey: alertKeys.byLine(lineId),
    queryFn: () => get<TAlert[]>(`/api/lines/${lineId}/alerts`),
    refetchInterval: 30_000,
  });

export const useAlert = (alertId: string | null) =>
  useQuery({
    queryKey: alertKeys.alert(alertId ?? "none"),
    queryFn: () => get<TAlertDetail>(`/api/alerts/${alertId}`),
    enabled: !!alertId,
  });

export const useAlertCauses = (alertId: string | null) =>
  useQuery({
    queryKey: alertKeys.causes(alertId ?? "none"),
    queryFn: () => get<TAlertCauses>(`/api/alerts/${alertId}/causes`),
    enabled: !!alertId,
    staleTime: 60_000,
  });

/** The values an SVD or CAP evaluation judged (its window read again); they do not change. */
export const useEvaluationValues = (alertId: string, evaluationId: string) =>
  useQuery({
    queryKey: alertKeys.evaluationValues(alertId, evaluationId),
    queryFn: () => get<TEvaluationValues>(`/api/alerts/${alertId}/evaluations/${evaluationId}/values`),
    staleTime: 5 * 60_000,
  });
