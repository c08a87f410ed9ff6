import type { TUserRow } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { useMe } from "../../../../shared/data/session/queries";
import { userKeys } from "./keys";

/** GET /api/customer-users-for-user: the customer's users (requirements.md settings §7). */
export function useUsers() {
  const customerId = useMe().data?.customer.id;
  return useQuery({
    queryKey: userKeys.list(customerId),
    queryFn: () => get<TUserRow[]>("/api/customer-users-for-user"),
    enabled: !!customerId,
  });
}
