import { PLANT_OVERVIEW_POLL_MS, type TPlantOverview } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
import { homeKeys } from "./keys";

/** The plant at a glance; refreshed every PLANT_OVERVIEW_POLL_MS while the page is open. */
export const usePlantOverview = (plantId: string | null | undefined) =>
  useQuery({
    queryKey: homeKeys.overview(plantId ?? "none"),
    queryFn: () => get<TPlantOverview>(`/api/plants/${plantId}/overview`),
    enabled: !!plantId,
    refetchInterval: PLANT_OVERVIEW_POLL_MS,
  });
