import type { TApiToken } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { useMe } from "../../../../shared/data/session/queries";
import { apiTokenKeys } from "./keys";

/** GET /api/auth/tokens: the signed-in user's API tokens, newest first. */
export function useApiTokens() {
  const userId = useMe().data?.id;
  return useQuery({
    queryKey: apiTokenKeys.list(userId),
    queryFn: () => get<TApiToken[]>("/api/auth/tokens"),
    enabled: !!userId,
  });
}
