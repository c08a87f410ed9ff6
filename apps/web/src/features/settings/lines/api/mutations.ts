import type { TAlertViewingWindow, TLine, TLinePatch } from "@linewatch/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import {
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { plantKeys } from "../../../../shared/data/plants/keys";
import { lineManagementKeys } from "./keys";

/** Everything that shows a line: the plant's lines (top bar, home, this page), the line, the page's polls. */
const invalidateLines = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: plantKeys.all }),
    qc.invalidateQueries({ queryKey: ["lines"] }),
    qc.invalidateQueries({ queryKey: lineManagementKeys.all }),
  ]);

type UpdateLineVars = { lineId: string; patch: TLinePatch };

/** PATCH /api/lines/{lineId} (requirements.md settings §7); the caller words success and failure. */
export function useUpdateLine(options?: ResourceMutationOptions<TLine, UpdateLineVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<TLine>("PATCH", `/api/lines/${encodeURIComponent(v.lineId)}`, v.patch),
      invalidate: invalidateLines,
      successText: false,
      errorText: false,
    },
    options,
  );
}

type ViewingWindowVars = { lineId: string; alertViewingWindowDays: number };

/** PUT …/lines/{lineId}/alert-viewing-window (requirements.md settings §7); the caller words success and failure. */
export function useSetAlertViewingWindow(
  options?: ResourceMutationOptions<TAlertViewingWindow, ViewingWindowVars>,
) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TAlertViewingWindow>(
          "PUT",
          `/api/notifications/notifications/lines/${encodeURIComponent(v.lineId)}/alert-viewing-window`,
          { alertViewingWindowDays: v.alertViewingWindowDays },
        ),
      invalidate: invalidateLines,
      successText: false,
      errorText: false,
    },
    options,
  );
}
