import type { TCapabilityView } from "@linewatch/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { get } from "../../../shared/api/client";
import { capabilityKeys } from "./keys";

export const capabilityPath = (
  lineId: string,
  signalId: string,
  from: string,
  to: string,
  model: string | null = null,
) =>
  `/api/lines/${lineId}/signals/${signalId}/capability?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${model ? `&model=${encodeURIComponent(model)}` : ""}`;

/**
 * GET /api/lines/:lineId/signals/:signalId/capability (issue #14): the view of a period; the
 * previous period's view stays while the next one loads. Off while the period is not valid. `model`:
 * one model number's records only.
 */
export const useCapability = (
  lineId: string,
  signalId: string,
  period: { from: string; to: string } | null,
  model: string | null = null,
) =>
  useQuery({
    queryKey: capabilityKeys.view(lineId, signalId, period?.from ?? "", period?.to ?? "", model),
    queryFn: () =>
      get<TCapabilityView>(capabilityPath(lineId, signalId, period?.from ?? "", period?.to ?? "", model)),
    enabled: period !== null,
    placeholderData: keepPreviousData,
  });
