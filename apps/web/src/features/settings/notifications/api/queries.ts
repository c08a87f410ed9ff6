import type { TDeliveryHealth, TRelianceConfigMap, TTeamsWebhook } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { notificationKeys } from "./keys";

/** Delivery health is refreshed while the page is open: the notifier keeps delivering. */
const HEALTH_POLL_MS = 30_000;

/** GET /api/notifications/teams-webhooks/plants/{plantId} (requirements.md settings §7). */
export function useTeamsWebhooks(plantId: string | undefined) {
  return useQuery({
    queryKey: notificationKeys.teams(plantId ?? "none"),
    queryFn: () => get<TTeamsWebhook[]>(`/api/notifications/teams-webhooks/plants/${plantId}`),
    enabled: !!plantId,
  });
}

/** GET /api/reliance-configuration/plants/{plantId} (requirements.md settings §7): configured lines only. */
export function useRelianceConfigs(plantId: string | undefined) {
  return useQuery({
    queryKey: notificationKeys.reliance(plantId ?? "none"),
    queryFn: () => get<TRelianceConfigMap>(`/api/reliance-configuration/plants/${plantId}`),
    enabled: !!plantId,
  });
}

/** Each line's deliveries on one channel (issue #13): lines without any are left out. */
export function useDeliveryHealth(plantId: string | undefined, channel: "teams" | "etq") {
  return useQuery({
    queryKey: notificationKeys.health(plantId ?? "none", channel),
    queryFn: () =>
      get<TDeliveryHealth[]>(`/api/notifications/delivery-health/plants/${plantId}?channel=${channel}`),
    enabled: !!plantId,
    refetchInterval: HEALTH_POLL_MS,
  });
}
