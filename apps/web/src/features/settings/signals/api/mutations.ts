import type {
  TResultClassificationsPatchBody,
  TSignalAttributeUpdateBody,
  TSignalSingleSideBody,
} from "@linewatch/contracts";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { signalKeys } from "../../../signals/api/keys";
import { spcLimitsKeys } from "../../spc-limits/api/keys";

/** The caller words its snackbars (the same PATCH saves a friendly name, an entity type, associations). */
export type TSaveTexts = { successText?: string; errorText: string };

/**
 * After any Signal Management save: the line's signal lists (this page, the monitor forms' trees)
 * every cached classification (the monitor form's result select and association warning) and the
 * line's SPC limits.
 */
const invalidateSignals = (qc: QueryClient, lineId: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: signalKeys.line(lineId) }),
    qc.invalidateQueries({ queryKey: signalKeys.associatedClassificationsAll }),
    // Cap Limits and Cap Alerts list the line's measurements: an entity type change moves them.
    qc.invalidateQueries({ queryKey: spcLimitsKeys.all }),
  ]);

type SignalsVars<V> = V & { lineId: string; texts: TSaveTexts };

function useSignalsMutation<V>(
  send: (v: V) => Promise<unknown>,
  options?: ResourceMutationOptions<void, SignalsVars<V>>,
) {
  const qc = useQueryClient();
  return useResourceMutation<void, SignalsVars<V>>(
    {
      // The save is done once the lists show it: the refetch is part of the call.
      mutationFn: async (v) => {
        await send(v);
        await invalidateSignals(qc, v.lineId);
      },
      invalidate: () => undefined,
      successText: (_r, v) => v.texts.successText ?? false,
      // A refused change names its reason (the server's rule message) after the spec's text.
      errorText: (e, v) =>
        e instanceof ApiError && e.status >= 400 && e.status < 500 && typeof e.body.message === "string"
          ? `${v.texts.errorText}: ${e.message}`
          : v.texts.errorText,
    },
    options,
  );
}

/** PATCH /api/stations/{stationId} (requirements.md settings §7): 204, anything else 'Failed to update Station'. */
export const useSetStationFinal = () =>
  useSignalsMutation((v: { stationId: string; final: boolean }) =>
    api<null>("PATCH", `/api/stations/${v.stationId}`, { final: v.final }),
  );

/** PATCH /api/signal-attribute-update (requirements.md settings §7). */
export const useUpdateSignalAttributes = () =>
  useSignalsMutation((v: { body: TSignalAttributeUpdateBody }) =>
    api<null>("PATCH", "/api/signal-attribute-update", v.body),
  );

/** PATCH /api/signals (requirements.md settings §7): single-sided boundaries. */
export const useSetSingleSides = () =>
  useSignalsMutation((v: { body: TSignalSingleSideBody }) => api<null>("PATCH", "/api/signals", v.body));

/** PATCH /api/signal/result-classifications (requirements.md settings §7); on success the classification queries refresh. */
export const useSaveResultClassifications = () =>
  useSignalsMutation((v: { body: TResultClassificationsPatchBody }) =>
    api<null>("PATCH", "/api/signal/result-classifications", v.body),
  );
