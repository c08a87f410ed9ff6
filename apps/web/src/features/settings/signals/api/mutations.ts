import type {
  TResultClassificationsPatchBody,
  TSignalAttributeUpdateBody,
  TSignalSingleSideBody,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../../shared/api/client";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { signalKeys } from "../../../signals/api/keys";
import { spcLimitsKeys } from "../../spc-limits/api/keys";

/** The caller words its snackbars (the same PATCH saves a friendly name, an entity type, associations). */
export type TSaveTexts = { successText?: string; errorText: string };

/**
 * After any Signal Management save: the line's signal lists (this page, the monitor forms' trees)
 * every cached classification (the monitor form's result select and association warning) and the
 * line's SPC limits.
 */
function useInvalidateSignals() {
  const qc = useQueryClient();
  return (lineId: string) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: signalKeys.line(lineId) }),
      qc.invalidateQueries({ queryKey: signalKeys.associatedClassificationsAll }),
      // Cap Limits and Cap Alerts list the line's measurements: an entity type change moves them.
      qc.invalidateQueries({ queryKey: spcLimitsKeys.all }),
    ]);
}

function useSignalsMutation<V>(send: (v: V) => Promise<unknown>) {
  const invalidate = useInvalidateSignals();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: async (v: V & { lineId: string; texts: TSaveTexts }) => {
      await send(v);
      await invalidate(v.lineId);
    },
    onSuccess: (_r, v) => {
      if (v.texts.successText) snackbar(v.texts.successText);
    },
    // A refused change names its reason (the server's rule message) after the spec's text.
    onError: (e, v) =>
      snackbar(
        e instanceof ApiError && e.status >= 400 && e.status < 500 && typeof e.body.message === "string"
          ? `${v.texts.errorText}: ${e.message}`
          : v.texts.errorText,
        { severity: "error" },
      ),
  });
}

/** PATCH /api/stations/{stationId} (spec settings §7): 204, anything else 'Failed to update Station'. */
export const useSetStationFinal = () =>
  useSignalsMutation((v: { stationId: string; final: boolean }) =>
    api<null>("PATCH", `/api/stations/${v.stationId}`, { final: v.final }),
  );

/** PATCH /api/signal-attribute-update (spec §7). */
export const useUpdateSignalAttributes = () =>
  useSignalsMutation((v: { body: TSignalAttributeUpdateBody }) =>
    api<null>("PATCH", "/api/signal-attribute-update", v.body),
  );

/** PATCH /api/signals (spec §7): single-sided boundaries. */
export const useSetSingleSides = () =>
  useSignalsMutation((v: { body: TSignalSingleSideBody }) => api<null>("PATCH", "/api/signals", v.body));

/** PATCH /api/signal/result-classifications (spec §7); on success the classification queries refresh. */
export const useSaveResultClassifications = () =>
  useSignalsMutation((v: { body: TResultClassificationsPatchBody }) =>
    api<null>("PATCH", "/api/signal/result-classifications", v.body),
  );
