import type { TFeatureFlagsResponse, TLoginBody, TMe } from "@linewatch/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, get } from "../../shared/api/client";

export const sessionKeys = {
  me: ["me"] as const,
  flags: ["feature-flags"] as const,
  customers: ["customers-for-switch"] as const,
};

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

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TLoginBody) => api<TMe>("POST", "/api/auth/login", body),
    onSuccess: (me) => {
      qc.clear();
      qc.setQueryData(sessionKeys.me, me);
    },
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>("POST", "/api/auth/logout"),
    onSettled: () => {
      qc.clear();
      qc.setQueryData(sessionKeys.me, null);
    },
  });
}

export function useCustomersForSwitch(enabled: boolean) {
  return useQuery({
    queryKey: sessionKeys.customers,
    queryFn: () => get<{ id: string; name: string }[]>("/api/auth/customers"),
    enabled,
    staleTime: 5 * 60_000, // customer list cache: 5 minutes (spec settings §9)
  });
}

export function useSwitchCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (customerId: string) => api<TMe>("POST", "/api/auth/switch-customer", { customerId }),
    onSuccess: async (me) => {
      qc.setQueryData(sessionKeys.me, me);
      // Everything else cached belongs to the previous customer: reset it, and the screens on
      // show load the new customer's data.
      await qc.resetQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.me[0] });
    },
  });
}
