import {
  ETQ_MESSAGES,
  TEAMS_MESSAGES,
  type TIntegrationTestResult,
  type TRelianceConfig,
  type TRelianceConfigBody,
  type TTeamsWebhook,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { notificationKeys } from "./keys";

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: notificationKeys.all });
}

/**
 * PUT …/teams-webhooks/plants/{plantId}/lines/{lineId} (spec settings §7). Success says
 * 'Microsoft Teams integration for {LINE} successfully configured'; a refusal says 'Teams webhook
 * save failed. Please check the URL' (§8) and the page puts the server's reason under the field.
 */
export function useSaveTeamsWebhook() {
  const invalidate = useInvalidate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { plantId: string; lineId: string; lineName: string; url: string }) =>
      api<TTeamsWebhook>("PUT", `/api/notifications/teams-webhooks/plants/${v.plantId}/lines/${v.lineId}`, {
        url: v.url,
      }),
    onSuccess: (_, v) => snackbar(TEAMS_MESSAGES.configured(v.lineName)),
    onError: () => snackbar(TEAMS_MESSAGES.saveFailed, { severity: "error" }),
    onSettled: invalidate,
  });
}

/** DELETE api/notifications/teams-webhooks/{id} (spec settings §7). */
export function useDeleteTeamsWebhook() {
  const invalidate = useInvalidate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { id: string; lineName: string }) =>
      api<null>("DELETE", `/api/notifications/teams-webhooks/${v.id}`),
    onSuccess: (_, v) => snackbar(TEAMS_MESSAGES.deleted(v.lineName)),
    onError: (err) => snackbar(err.message, { severity: "error" }),
    onSettled: invalidate,
  });
}

/** "Send test message": the outcome is stored on the row (the list is refreshed) and told at once. */
export function useTestTeamsWebhook() {
  const invalidate = useInvalidate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { id: string }) =>
      api<TIntegrationTestResult>("POST", `/api/notifications/teams-webhooks/${v.id}/test`),
    onSuccess: (r) => snackbar(r.message, { severity: r.ok ? "success" : "error" }),
    onError: (err) => snackbar(err.message, { severity: "error" }),
    onSettled: invalidate,
  });
}

/** POST /api/reliance-configuration/lines/{lineId} (spec settings §7); the page shows the failure dialog. */
export function useSaveReliance() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: { lineId: string; body: TRelianceConfigBody }) =>
      api<TRelianceConfig>("POST", `/api/reliance-configuration/lines/${v.lineId}`, v.body),
    onSettled: invalidate,
  });
}

/** DELETE /api/reliance-configuration/lines/{lineId} (spec settings §7). */
export function useDeleteReliance() {
  const invalidate = useInvalidate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { lineId: string }) =>
      api<null>("DELETE", `/api/reliance-configuration/lines/${v.lineId}`),
    onError: (err) => snackbar(err.message || ETQ_MESSAGES.notFound, { severity: "error" }),
    onSettled: invalidate,
  });
}

/** "Test connection": sets the row's chip (Connection Active / Connection Failed) and its outcome. */
export function useTestReliance() {
  const invalidate = useInvalidate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { lineId: string }) =>
      api<TIntegrationTestResult>("POST", `/api/reliance-configuration/lines/${v.lineId}/test`),
    onSuccess: (r) => snackbar(r.message, { severity: r.ok ? "success" : "error" }),
    onError: (err) => snackbar(err.message, { severity: "error" }),
    onSettled: invalidate,
  });
}
