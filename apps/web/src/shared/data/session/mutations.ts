import type { TMe } from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { sessionKeys } from "./keys";

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
