// Integrations: Microsoft Teams webhooks and ETQ Reliance configurations per line
// (spec settings §2.2, §2.3, §3, §5, §7, §8; design/monitoring.md "Notifications").
import { z } from "zod";
import { ZId, ZIsoDateTime, zString } from "./common.js";
import { RELIANCE_CONNECTION_STATUSES } from "./domain.js";

/** Spec settings §8 "Teams" and "ETQ Reliance", plus the server's own words. */
export const TEAMS_MESSAGES = {
  urlBlank: "URL cannot be blank",
  saveFailed: "Teams webhook save failed. Please check the URL",
  notHttps: "The webhook URL must start with https://",
  notWorkflows:
    "The webhook URL must be a Microsoft Teams Workflows URL (a host ending in .logic.azure.com, .powerplatform.com or .webhook.office.com)",
  configured: (line: string) => `Microsoft Teams integration for ${line} successfully configured`,
  deleted: (line: string) => `Microsoft Teams integration for ${line} successfully deleted`,
  deleteTitle: "Delete Microsoft Teams Integration?",
  deleteText: (line: string) => `Alerts for ${line} will no longer be sent to this Microsoft Teams channel.`,
  notFound: "Teams webhook not found",
  testSent: "Test message sent",
} as const;

export const ETQ_MESSAGES = {
  required: "required",
  title: "ETQ Reliance Integrations",
  empty: "No ETQ configurations found",
  saving: "Saving...",
  deleting: "Deleting ETQ integration...",
  saveFailed: (line: string) => `Error saving configuration for ${line} line`,
  deleteConfirm: "This will remove the ETQ integration. Do you wish to continue?",
  notFound: "ETQ configuration not found",
  notHttps: (field: string) => `${field} must be an https URL`,
  connected: "Connection successful",
} as const;

/**
 * Hosts of Teams Workflows webhooks (Power Automate / Logic Apps, and the legacy connector host).
 * A URL whose host is one of these or a subdomain of one is accepted.
 */
export const TEAMS_WEBHOOK_HOST_SUFFIXES = [
  "logic.azure.com",
  "powerplatform.com",
  "webhook.office.com",
] as const;

export const isTeamsWorkflowsHost = (host: string) =>
  TEAMS_WEBHOOK_HOST_SUFFIXES.some((s) => host.toLowerCase().endsWith(`.${s}`));

// ── Teams ──────────────────────────────────────────────────────────────────────────────────

/** A webhook as answered: the URL is a secret, only its host is shown. */
export const ZTeamsWebhook = z.object({
  id: ZId,
  lineId: ZId,
  lastModifiedDateTime: ZIsoDateTime,
  urlHost: zString(),
});
export type TTeamsWebhook = z.infer<typeof ZTeamsWebhook>;
export const ZTeamsWebhookList = z.array(ZTeamsWebhook);

/** PUT …/plants/{plantId}/lines/{lineId} (spec settings §5 "Teams URL"). */
export const ZTeamsWebhookBody = z.strictObject({
  url: zString({ error: TEAMS_MESSAGES.urlBlank }).trim().min(1, TEAMS_MESSAGES.urlBlank).max(2048),
});
export type TTeamsWebhookBody = z.infer<typeof ZTeamsWebhookBody>;

export const ZTeamsPlantParams = z.strictObject({ plantId: ZId });
export const ZTeamsPlantLineParams = z.strictObject({ plantId: ZId, lineId: ZId });

// ── ETQ Reliance ───────────────────────────────────────────────────────────────────────────

/** A configuration as answered: never the client secret (spec settings §3). */
export const ZRelianceConfig = z.object({
  id: ZId,
  lineId: ZId,
  apiHost: zString(),
  clientId: zString(),
  tokenEndpoint: zString(),
  /** null: not tested yet ("Not Configured" chip only when there is no configuration at all). */
  connectionStatus: z.enum(RELIANCE_CONNECTION_STATUSES).nullable(),
  updatedTime: ZIsoDateTime,
  /** Whether a secret is stored (the form masks it in view mode). */
  hasClientSecret: z.boolean(),
});
export type TRelianceConfig = z.infer<typeof ZRelianceConfig>;

/** GET /api/reliance-configuration/plants/{plantId}: configured lines only, keyed by line id. */
export const ZRelianceConfigMap = z.record(zString(), ZRelianceConfig);
export type TRelianceConfigMap = z.infer<typeof ZRelianceConfigMap>;

const required = (max: number) =>
  zString({ error: ETQ_MESSAGES.required }).trim().min(1, ETQ_MESSAGES.required).max(max);

/**
 * POST /api/reliance-configuration/lines/{lineId} (spec settings §5 "ETQ form": all four
 * required). The secret is write-only: on an update, leaving `clientSecret` out keeps the stored
 * one (the form shows it masked and sends nothing unless it is retyped); an empty string is
 * 'required' like the other fields. On a new configuration it is required.
 */
export const ZRelianceConfigBody = z.strictObject({
  apiHost: required(2048),
  clientId: required(512),
  tokenEndpoint: required(2048),
  clientSecret: required(4096).optional(),
});
export type TRelianceConfigBody = z.infer<typeof ZRelianceConfigBody>;

export const ZReliancePlantParams = z.strictObject({ plantId: ZId });
export const ZRelianceLineParams = z.strictObject({ lineId: ZId });

// ── Test buttons ───────────────────────────────────────────────────────────────────────────

/** "Send test message" / "Test connection": the call succeeded; `ok` says whether the far end did. */
export const ZIntegrationTestResult = z.object({
  ok: z.boolean(),
  /** The far end's HTTP status, when it answered. */
  httpStatus: z.number().int().nullable(),
  message: zString(),
});
export type TIntegrationTestResult = z.infer<typeof ZIntegrationTestResult>;
