import type { TAlertViewingWindow, TLine, TLinePatch } from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import { plantKeys } from "../../../../shared/data/plants/keys";
import { lineManagementKeys } from "./keys";

/** Everything that shows a line: the plant's lines (top bar, home, this page), the line, the page's polls. */
function useInvalidateLines() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: plantKeys.all }),
      qc.invalidateQueries({ queryKey: ["lines"] }),
      qc.invalidateQueries({ queryKey: lineManagementKeys.all }),
    ]);
}

/** PATCH /api/lines/{lineId} (spec settings §7); the caller words success and failure. */
export function useUpdateLine() {
  const invalidate = useInvalidateLines();
  return useMutation({
    mutationFn: (v: { lineId: string; patch: TLinePatch }) =>
      api<TLine>("PATCH", `/api/lines/${encodeURIComponent(v.lineId)}`, v.patch),
    onSettled: invalidate,
  });
}

/** PUT …/lines/{lineId}/alert-viewing-window (spec settings §7). */
export function useSetAlertViewingWindow() {
  const invalidate = useInvalidateLines();
  return useMutation({
    mutationFn: (v: { lineId: string; alertViewingWindowDays: number }) =>
      api<TAlertViewingWindow>(
        "PUT",
        `/api/notifications/notifications/lines/${encodeURIComponent(v.lineId)}/alert-viewing-window`,
        { alertViewingWindowDays: v.alertViewingWindowDays },
      ),
    onSettled: invalidate,
  });
}
