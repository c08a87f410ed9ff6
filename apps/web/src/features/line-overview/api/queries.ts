import type { TLineEvaluationSeries, TMonitor } from "@linewatch/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
import { PRESET_MS, type TPreset } from "../../capability/capability.view";
import { lineOverviewKeys } from "./keys";

/** Every monitor of the line, all three types, sorted by name. */
export const useLineMonitors = (lineId: string) =>
  useQuery({
    queryKey: lineOverviewKeys.monitors(lineId),
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

export const evaluationSeriesPath = (lineId: string, from: string, to: string) =>
  `/api/lines/${lineId}/evaluation-series?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

/**
 * GET /api/lines/:lineId/evaluation-series (issue 32 §4): each monitor's scores over the `preset`
 * long period ending now. Each fetch takes its own now, so the period moves along with the
 * refetch; the answer says which period it covers. The previous preset's charts stay while the
 * next one loads.
 */
export const useEvaluationSeries = (lineId: string, preset: TPreset) =>
  useQuery({
    queryKey: lineOverviewKeys.evaluationSeries(lineId, preset),
    queryFn: () => {
      const now = Date.now();
      return get<TLineEvaluationSeries>(
        evaluationSeriesPath(
          lineId,
          new Date(now - PRESET_MS[preset]).toISOString(),
          new Date(now).toISOString(),
        ),
      );
    },
    placeholderData: keepPreviousData,
    // As often as the monitors' table: the newest evaluations appear without a reload.
    refetchInterval: 60_000,
  });
