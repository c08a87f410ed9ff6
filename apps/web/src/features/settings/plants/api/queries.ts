import type { TPlant } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { plantAdminKeys } from "./keys";

/** GET /api/plants?includeInactive=true: every plant of the customer, to edit and reactivate. */
export const usePlantsWithInactive = () =>
  useQuery({
    queryKey: plantAdminKeys.withInactive,
    queryFn: () => get<TPlant[]>("/api/plants?includeInactive=true"),
  });
