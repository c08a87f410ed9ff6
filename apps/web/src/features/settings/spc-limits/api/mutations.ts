import {
  SPC_LIMITS_MESSAGES,
  type TSpcSignalLimits,
  type TSpcSuggestBody,
  type TSpcSuggestion,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { spcLimitsKeys } from "./keys";
import { spcLimitsPath } from "./queries";

/**
 * PUT /api/line-config/spc-signal-limits?line-id= (spec settings §7): 'Successfully saved limits',
 * or the server's message (§8 "Capability"), which names the cell, the model and the position.
 */
export function useSaveSpcLimits() {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { lineId: string; body: TSpcSignalLimits[] }) =>
      api<TSpcSignalLimits[]>("PUT", spcLimitsPath(v.lineId), v.body),
    onSuccess: (list, v) => {
      qc.setQueryData(spcLimitsKeys.line(v.lineId), list);
      snackbar(SPC_LIMITS_MESSAGES.saved);
    },
    onError: (err) => snackbar(err.message, { severity: "error" }),
    onSettled: () => qc.invalidateQueries({ queryKey: spcLimitsKeys.all }),
  });
}

/** POST …/spc-signal-limits/suggest?line-id= (issue #14): control limits from a stable period. */
export function useSuggestControlLimits() {
  return useMutation({
    mutationFn: (v: { lineId: string; body: TSpcSuggestBody }) =>
      api<TSpcSuggestion[]>("POST", `/api/line-config/spc-signal-limits/suggest?line-id=${v.lineId}`, v.body),
  });
}
