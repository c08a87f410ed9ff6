import {
  ETQ_MESSAGES,
  TEAMS_MESSAGES,
  type TIntegrationTestResult,
  type TRelianceConfig,
  type TRelianceConfigBody,
  type TTeamsWebhook,
} from "@linewatch/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import {
  errorMessage,
  type ResourceMutationOptions,
  type SnackbarText,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { notificationKeys } from "./keys";

const invalidateNotifications = (qc: QueryClient) => qc.invalidateQueries({ queryKey: notificationKeys.all });

/** A test's outcome, told at once (it is also stored on the row). */
const testOutcome = (r: TIntegrationTestResult): SnackbarText => ({
  text: r.message,
  severity: r.ok ? "success" : "error",
});

type SaveTeamsVars = { plantId: string; lineId: string; lineName: string; url: string };

/**
 * PUT …/teams-webhooks/plants/{plantId}/lines/{lineId} (requirements.md settings §7). Success says
 * 'Microsoft Teams integration for {LINE} successfully configured'; a refusal says 'Teams webhook
 * save failed. Please check the URL' (§8) and the page puts the server's reason under the field.
 */
export function useSaveTeamsWebhook(options?: ResourceMutationOptions<TTeamsWebhook, SaveTeamsVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TTeamsWebhook>("PUT", `/api/notifications/teams-webhooks/plants/${v.plantId}/lines/${v.lineId}`, {
          url: v.url,
        }),
      invalidate: invalidateNotifications,
      successText: (_, v) => TEAMS_MESSAGES.configured(v.lineName),
      errorText: TEAMS_MESSAGES.saveFailed,
    },
    options,
  );
}

type DeleteTeamsVars = { id: string; lineName: string };

/** DELETE api/notifications/teams-webhooks/{id} (requirements.md settings §7). */
export function useDeleteTeamsWebhook(options?: ResourceMutationOptions<null, DeleteTeamsVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<null>("DELETE", `/api/notifications/teams-webhooks/${v.id}`),
      invalidate: invalidateNotifications,
      successText: (_, v) => TEAMS_MESSAGES.deleted(v.lineName),
      errorText: errorMessage,
    },
    options,
  );
}

/** "Send test message": the outcome is stored on the row (the list is refreshed) and told at once. */
export function useTestTeamsWebhook(
  options?: ResourceMutationOptions<TIntegrationTestResult, { id: string }>,
) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TIntegrationTestResult>("POST", `/api/notifications/teams-webhooks/${v.id}/test`),
      invalidate: invalidateNotifications,
      successText: testOutcome,
      errorText: errorMessage,
    },
    options,
  );
}

type SaveRelianceVars = { lineId: string; body: TRelianceConfigBody };

/** POST /api/reliance-configuration/lines/{lineId} (requirements.md settings §7); the page shows the failure dialog. */
export function useSaveReliance(options?: ResourceMutationOptions<TRelianceConfig, SaveRelianceVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TRelianceConfig>("POST", `/api/reliance-configuration/lines/${v.lineId}`, v.body),
      invalidate: invalidateNotifications,
      successText: false,
      errorText: false,
    },
    options,
  );
}

/** DELETE /api/reliance-configuration/lines/{lineId} (requirements.md settings §7). */
export function useDeleteReliance(options?: ResourceMutationOptions<null, { lineId: string }>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<null>("DELETE", `/api/reliance-configuration/lines/${v.lineId}`),
      invalidate: invalidateNotifications,
      successText: false,
      errorText: (err) => err.message || ETQ_MESSAGES.notFound,
    },
    options,
  );
}

/** "Test connection": sets the row's chip (Connection Active / Connection Failed) and its outcome. */
export function useTestReliance(
  options?: ResourceMutationOptions<TIntegrationTestResult, { lineId: string }>,
) {
  return useResourceMutation(
    {
      mutationFn: (v) =>
        api<TIntegrationTestResult>("POST", `/api/reliance-configuration/lines/${v.lineId}/test`),
      invalidate: invalidateNotifications,
      successText: testOutcome,
      errorText: errorMessage,
    },
    options,
  );
}
