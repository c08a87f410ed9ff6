import type { TAlertResolveBody } from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../shared/api/client";
import { useSnackbar } from "../../../shared/ui/SnackbarProvider";
import { alertKeys } from "./keys";

/** Acknowledge, comment and resolve: each refreshes the line's alerts and the alert itself. */
export function useAlertActions(lineId: string) {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  const refresh = (alertId: string) => {
    void qc.invalidateQueries({ queryKey: alertKeys.byLine(lineId) });
    void qc.invalidateQueries({ queryKey: alertKeys.alert(alertId) });
  };
  const onError = (err: Error) => {
    snackbar(err.message, { severity: "error" });
    // A conflict means the alert changed meanwhile: show its state now.
    if (err instanceof ApiError && err.status === 409)
      void qc.invalidateQueries({ queryKey: alertKeys.byLine(lineId) });
  };
  const acknowledge = useMutation({
    mutationFn: (alertId: string) => api("POST", `/api/alerts/${alertId}/acknowledge`),
    onSuccess: (_d, alertId) => {
      refresh(alertId);
      snackbar("Alert acknowledged");
    },
    onError,
  });
  const comment = useMutation({
    mutationFn: (v: { alertId: string; comment: string }) =>
      api("POST", `/api/alerts/${v.alertId}/comments`, { comment: v.comment }),
    onSuccess: (_d, v) => {
      refresh(v.alertId);
      snackbar("Comment added");
    },
    onError,
  });
  const resolve = useMutation({
    mutationFn: (v: { alertId: string } & TAlertResolveBody) =>
      api("POST", `/api/alerts/${v.alertId}/resolve`, { cause: v.cause, comment: v.comment }),
    onSuccess: (_d, v) => {
      refresh(v.alertId);
      snackbar("Alert resolved");
    },
    onError,
  });
  return { acknowledge, comment, resolve };
}
