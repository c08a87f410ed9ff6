import {
  SPC_LIMITS_MESSAGES,
  type TSpcSignalLimits,
  type TSpcSuggestBody,
  type TSpcSuggestion,
} from "@linewatch/contracts";
import { api } from "../../../../shared/api/client";
import {
  errorMessage,
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { spcLimitsKeys } from "./keys";
import { spcLimitsPath } from "./queries";

type SaveVars = { lineId: string; body: TSpcSignalLimits[] };

/**
 * PUT /api/line-config/spc-signal-limits?line-id= (requirements.md settings §7): 'Successfully saved limits',
 * or the server's message (§8 "Capability"), which names the cell, the model and the position.
 */
export function useSaveSpcLimits(options?: ResourceMutationOptions<TSpcSignalLimits[], SaveVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<TSpcSignalLimits[]>("PUT", spcLimitsPath(v.lineId), v.body),
      invalidate: (qc, v, list) => {
        if (list) qc.setQueryData(spcLimitsKeys.line(v.lineId), list);
        return qc.invalidateQueries({ queryKey: spcLimitsKeys.all });
      },
      successText: SPC_LIMITS_MESSAGES.saved,
      errorText: errorMessage,
    },
    options,
  );
}

type SuggestVars = { lineId: string; body: TSpcSuggestBody };

/** POST …/spc-signal-limits/suggest?line-id= (issue #14): control limits from a stable period; the dialog says how it went. */
export function useSuggestControlLimits(options?: ResourceMutationOptions<TSpcSuggestion[], SuggestVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TSpcSuggestion[]>(
          "POST",
          `/api/line-config/spc-signal-limits/suggest?line-id=${v.lineId}`,
          v.body,
        ),
      invalidate: () => undefined,
      successText: false,
      errorText: false,
    },
    options,
  );
}
