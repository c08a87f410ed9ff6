import type { TCapabilityView } from "@linewatch/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
import { capabilityKeys } from "./keys";

export const capabilityPath = (lineId: string, signalId: string, from: string, to: string) =>
  `/api/lines/${lineId}/signals/${signalId}/capability?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

/**
 * GET /api/lines/:lineId/signals/:signalId/capability (issue #14): the view of a period; the
 * previous period's view stays while the next one loads. Off while the period is not valid.
 */
export const useCapability = (
  lineId: string,
  signalId: string,
  period: { from: string; to: string } | null,
) =>
  useQuery({
    queryKey: capabilityKeys.view(lineId, signalId, period?.from ?? "", period?.to ?? ""),
    queryFn: () =>
      get<TCapabilityView>(capabilityPath(lineId, signalId, period?.from ?? "", period?.to ?? "")),
    enabled: period !== null,
    placeholderData: keepPreviousData,
  });
