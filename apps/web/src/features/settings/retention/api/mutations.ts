import { RETENTION_TEXTS, type TRetentionBody, type TRetentionResponse } from "@linewatch/contracts";
import { api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { retentionKeys } from "./keys";

/**
 * PUT /api/retention (administrators). Success says 'Data retention saved'; a refusal is shown
 * under its field by the page (the server's `fields`), so no error snackbar by default.
 */
export function useSaveRetention(options?: ResourceMutationOptions<TRetentionResponse, TRetentionBody>) {
  return useResourceMutation(
    {
      mutationFn: (body) => api<TRetentionResponse>("PUT", "/api/retention", body),
      invalidate: (qc, _vars, data) => {
        if (data) qc.setQueryData(retentionKeys.all, data);
        return qc.invalidateQueries({ queryKey: retentionKeys.all });
      },
      successText: RETENTION_TEXTS.saved,
      errorText: false,
    },
    options,
  );
}
