import type { TAssociatedResultClassifications, TSignalGroup, TStation } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { api, get } from "../../../shared/api/client";
import { signalKeys } from "./keys";

/** Stations with their active signals (the signal tree shows only those). */
export const useLineSignals = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: signalKeys.active(lineId ?? "none"),
    queryFn: () => get<TStation[]>(`/api/lines/${lineId}/signals?active=true`),
    enabled: !!lineId,
  });

/** Stations with every signal, active or not (Signal Management). */
export const useAllLineSignals = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: signalKeys.all(lineId ?? "none"),
    queryFn: () => get<TStation[]>(`/api/lines/${lineId}/signals`),
    enabled: !!lineId,
  });

/** POST to the signal groups endpoint (requirements.md monitor-forms §7). */
export const useSignalGroups = (ids: {
  customerUuid?: string;
  plantUuid?: string;
  lineUuid?: string | null;
}) =>
  useQuery({
    queryKey: signalKeys.groups(ids.lineUuid ?? "none"),
    queryFn: () => api<TSignalGroup[]>("POST", "/api/signal-groups", ids),
    enabled: !!(ids.customerUuid && ids.plantUuid && ids.lineUuid),
  });

/** For the selected signals: the classifications of their result signals (empty map when none). */
export const useAssociatedResultClassifications = (signalIds: string[]) =>
  useQuery({
    queryKey: signalKeys.associatedClassifications(signalIds),
    queryFn: () =>
      api<TAssociatedResultClassifications>(
        "POST",
        "/api/signal/associated-result-classifications",
        signalIds,
      ),
    enabled: signalIds.length > 0,
  });
