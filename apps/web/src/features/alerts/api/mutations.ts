import { ALERT_MESSAGES, type TAlertResolveBody } from "@linewatch/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { ApiError, api } from "../../../shared/api/client";
import { errorMessage, useResourceMutation } from "../../../shared/api/useResourceMutation";
import { alertKeys } from "./keys";

/**
 * After an action on an alert: the line's alerts and the alert itself; after a refusal only a
 * conflict (409: the alert changed meanwhile) refreshes the line's alerts, to show its state now.
 */
function refreshAlerts(qc: QueryClient, lineId: string, alertId: string, error: Error | null) {
  if (!error) {
    void qc.invalidateQueries({ queryKey: alertKeys.byLine(lineId) });
    void qc.invalidateQueries({ queryKey: alertKeys.alert(alertId) });
  } else if (error instanceof ApiError && error.status === 409)
    void qc.invalidateQueries({ queryKey: alertKeys.byLine(lineId) });
}

/** Acknowledge, comment and resolve: each refreshes the line's alerts and the alert itself. */
export function useAlertActions(lineId: string) {
  const acknowledge = useResourceMutation({
    mutationFn: (alertId: string) => api("POST", `/api/alerts/${alertId}/acknowledge`),
    invalidate: (qc, alertId, _d, error) => refreshAlerts(qc, lineId, alertId, error),
    successText: ALERT_MESSAGES.acknowledged,
    errorText: errorMessage,
  });
  const comment = useResourceMutation({
    mutationFn: (v: { alertId: string; comment: string }) =>
      api("POST", `/api/alerts/${v.alertId}/comments`, { comment: v.comment }),
    invalidate: (qc, v, _d, error) => refreshAlerts(qc, lineId, v.alertId, error),
    successText: ALERT_MESSAGES.commented,
    errorText: errorMessage,
  });
  const resolve = useResourceMutation({
    mutationFn: (v: { alertId: string } & TAlertResolveBody) =>
      api("POST", `/api/alerts/${v.alertId}/resolve`, { cause: v.cause, comment: v.comment }),
    invalidate: (qc, v, _d, error) => refreshAlerts(qc, lineId, v.alertId, error),
    successText: ALERT_MESSAGES.resolved,
    errorText: errorMessage,
  });
  return { acknowledge, comment, resolve };
}
