import type { TMonitor } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
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
