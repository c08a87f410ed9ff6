import {
  ACTIVE_MONITOR_COUNT_POLL_MS,
  ALERT_WINDOW_POLL_MS,
  type TActiveMonitorCount,
  type TAlertViewingWindow,
  type TFeederLineInfo,
  type TLineExclusionOptions,
} from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { lineManagementKeys as keys } from "./keys";

/** GET /api/plant/get-active-monitor-count?plantId=, every 60 s (requirements.md settings §7, §9). */
export const useActiveMonitorCounts = (plantId: string | undefined) =>
  useQuery({
    queryKey: keys.monitorCounts(plantId ?? "none"),
    queryFn: () =>
      get<TActiveMonitorCount[]>(
        `/api/plant/get-active-monitor-count?plantId=${encodeURIComponent(plantId ?? "")}`,
      ),
    enabled: !!plantId,
    refetchInterval: ACTIVE_MONITOR_COUNT_POLL_MS,
  });

/** GET …/plants/{plantId}/alert-viewing-window, every 10 s (requirements.md settings §7, §9). */
export const useAlertViewingWindows = (plantId: string | undefined) =>
  useQuery({
    queryKey: keys.alertWindows(plantId ?? "none"),
    queryFn: () =>
      get<TAlertViewingWindow[]>(`/api/notifications/notifications/plants/${plantId}/alert-viewing-window`),
    enabled: !!plantId,
    refetchInterval: ALERT_WINDOW_POLL_MS,
  });

/** Feeder line info (requirements.md settings §3): the line's feeders and every plant with its lines. */
export const useFeederLineInfo = (lineId: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: keys.feederInfo(lineId ?? "none"),
    queryFn: () => get<TFeederLineInfo>(`/api/lines/${lineId}/feeder-lines`),
    enabled: !!lineId && enabled,
  });

/** The line's challenge parts and model numbers, offered by the cap-exclusion fields. */
export const useLineExclusionOptions = (lineId: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: keys.exclusionOptions(lineId ?? "none"),
    queryFn: () => get<TLineExclusionOptions>(`/api/lines/${lineId}/exclusion-options`),
    enabled: !!lineId && enabled,
  });
