import type { TLine, TPlant } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../api/client";
import { plantKeys } from "./keys";

/** The customer's plants (asked for once there is a session). */
export const usePlants = (enabled: boolean) =>
  useQuery({
    queryKey: plantKeys.all,
    queryFn: () => get<TPlant[]>("/api/plants"),
    enabled,
  });

/** The lines of one plant; idle without a plant. */
export const usePlantLines = (plantId: string | null) =>
  useQuery({
    queryKey: plantId ? plantKeys.lines(plantId) : ["plants", "none"],
    queryFn: () => get<TLine[]>(`/api/plants/${plantId}/lines`),
    enabled: !!plantId,
  });

/** One line by id, of any plant of the customer. */
export const useLineById = (lineId: string | null | undefined, enabled: boolean) =>
  useQuery({
    queryKey: plantKeys.line(lineId ?? "none"),
    queryFn: () => get<TLine>(`/api/lines/${lineId}`),
    enabled: !!lineId && enabled,
  });

/** GET /api/plants?includeInactive=true: every plant of the customer, to edit and reactivate. */
export const usePlantsWithInactive = () =>
  useQuery({
    queryKey: plantKeys.withInactive,
    queryFn: () => get<TPlant[]>("/api/plants?includeInactive=true"),
  });
