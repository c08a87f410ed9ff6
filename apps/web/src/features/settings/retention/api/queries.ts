import type { TRetentionResponse } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { retentionKeys } from "./keys";

/** GET /api/retention (administrators): the customer's horizons, or the defaults. */
export function useRetention() {
  return useQuery({ queryKey: retentionKeys.all, queryFn: () => get<TRetentionResponse>("/api/retention") });
}
