import type { TFeatureFlagsResponse, TMe } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { ApiError, get } from "../../api/client";
import { sessionKeys } from "./keys";

/** The signed-in user; null when there is no session. */
export function useMe() {
  return useQuery({
    queryKey: sessionKeys.me,
    queryFn: async () => {
      try {
        return await get<TMe>("/api/auth/me");
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
}

export function useFeatureFlags() {
  const me = useMe();
  return useQuery({
    queryKey: [...sessionKeys.flags, me.data?.customer.id],
    queryFn: () => get<TFeatureFlagsResponse>("/api/feature-flags"),
    enabled: !!me.data,
    staleTime: 30_000,
  });
}

export function useCustomersForSwitch(enabled: boolean) {
  return useQuery({
    queryKey: sessionKeys.customers,
    queryFn: () => get<{ id: string; name: string }[]>("/api/auth/customers"),
    enabled,
    staleTime: 5 * 60_000, // customer list cache: 5 minutes (requirements.md settings §9)
  });
}
