// Integrations: Microsoft Teams webhooks and ETQ Reliance configurations per line
// (requirements.md settings §2.2, §2.3, §3, §5, §7, §8; docs/monitoring.md "Notifications").
import { z } from "zod";
import { ZId, ZIsoDateTime, zString } from "./common.js";
import { ZNotificationChannel } from "./domain.js";
import { RELIANCE_CONNECTION_STATUSES } from "./domain-values.js";

/** Spec requirements.md settings §8 "Teams" and "ETQ Reliance", plus the server's own words. */
export const TEAMS_MESSAGES = {
  urlBlank: "URL cannot be blank",
  saveFailed: "Teams webhook save failed. Please check the URL",
  notHttps: "The webhook URL must start with https://",
  notWorkflows:
    "The webhook URL must be a Microsoft Teams Workflows URL (a host ending in .logic.azure.com or .powerplatform.com)",
  retiredConnector:
    "Office 365 connector URLs are retired by Microsoft: create a webhook with the Teams Workflows app and paste its URL",
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
  /** The Client Secret placeholder on edit when one is stored (it is write-only, requirements.md settings §3). */
  keepStoredSecret: "Leave empty to keep the stored secret",
  deleteConfirm: "This will remove the ETQ integration. Do you wish to continue?",
  notFound: "ETQ configuration not found",
  notHttps: (field: string) => `${field} must be an https URL`,
  connected: "Connection successful",
} as const;

/**
 * Hosts of Teams Workflows webhooks (Power Automate / Logic Apps). A URL whose host is a
 * subdomain of one of these is accepted.
 */
export const TEAMS_WEBHOOK_HOST_SUFFIXES = ["logic.azure.com", "powerplatform.com"] as const;

/** Hosts of the Office 365 connector webhooks Microsoft retired (refused with their own reason). */
export const TEAMS_RETIRED_CONNECTOR_HOSTS = ["webhook.office.com", "outlook.office.com"] as const;

const isHostOf = (host: string, suffix: string) => {
  const h = host.toLowerCase();
  return h === suffix || h.endsWith(`.${suffix}`);
};

export const isTeamsWorkflowsHost = (host: string) =>
  TEAMS_WEBHOOK_HOST_SUFFIXES.some((s) => host.toLowerCase().endsWith(`.${s}`));

export const isRetiredConnectorHost = (host: string) =>
  TEAMS_RETIRED_CONNECTOR_HOSTS.some((s) => isHostOf(host, s));

/**
 * Words of the integrations pages beyond the spec (issue #13): the test buttons, their outcome
 * on the row, and each line's delivery health.
 */
export const INTEGRATION_MESSAGES = {
  teamsTitle: "Microsoft Teams Integrations",
  // Both grids' columns (requirements.md settings §2.2, §2.3)
  columns: { line: "Line", dateConfigured: "Date Configured", status: "Status" },
  statusFilterAll: "All",
  // Not worded by the spec: a plant with no lines, and no plant picked
  noLines: "No lines found",
  pickPlant: "Pick a plant to see its lines.",
  configured: "Configured",
  notConfigured: "Not Configured",
  connectionActive: "Connection Active",
  connectionFailed: "Connection Failed",
  webhookUrl: "Webhook URL",
  sendTest: "Send test message",
  testConnection: "Test connection",
  testing: "Testing...",
  delivered: "Delivered",
  readOnly: "Only administrators can change integrations.",
  testOutcome: (ok: boolean, httpStatus: number | null, message: string) =>
    ok
      ? `Last test: delivered${httpStatus != null ? ` (HTTP ${httpStatus})` : ""}`
      : `Last test failed: ${message}`,
  lastDelivery: "Last delivery",
  noDeliveries: "No deliveries yet",
  deliveryFailed: "Last delivery failed",
  failures24h: (n: number) => `${n} failed ${n === 1 ? "attempt" : "attempts"} in the last 24 hours`,
  retrying: (n: number) => `${n} open ${n === 1 ? "alert" : "alerts"} still being retried`,
  healthError: "Delivery health could not be loaded",
} as const;

// ── Teams ──────────────────────────────────────────────────────────────────────────────────

/** The stored outcome of the last "Send test message" / "Test connection" (issue #13). */
export const ZIntegrationTestOutcome = z.object({
  at: ZIsoDateTime,
  ok: z.boolean(),
  httpStatus: z.number().int().nullable(),
  message: zString(),
});
export type TIntegrationTestOutcome = z.infer<typeof ZIntegrationTestOutcome>;

/** A webhook as answered: the URL is a secret, only its host is shown. */
export const ZTeamsWebhook = z.object({
  id: ZId,
  lineId: ZId,
  lastModifiedDateTime: ZIsoDateTime,
  urlHost: zString(),
  /** null: not tested since the URL was last saved. */
  lastTest: ZIntegrationTestOutcome.nullable(),
});
export type TTeamsWebhook = z.infer<typeof ZTeamsWebhook>;
export const ZTeamsWebhookList = z.array(ZTeamsWebhook);

/** PUT …/plants/{plantId}/lines/{lineId} (requirements.md settings §5 "Teams URL"). */
export const ZTeamsWebhookBody = z.strictObject({
  url: zString({ error: TEAMS_MESSAGES.urlBlank }).trim().min(1, TEAMS_MESSAGES.urlBlank).max(2048),
});
export type TTeamsWebhookBody = z.infer<typeof ZTeamsWebhookBody>;

export const ZTeamsPlantParams = z.strictObject({ plantId: ZId });
export const ZTeamsPlantLineParams = z.strictObject({ plantId: ZId, lineId: ZId });

// ── ETQ Reliance ───────────────────────────────────────────────────────────────────────────

/** A configuration as answered: never the client secret (requirements.md settings §3). */
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
  /** null: not tested since the configuration was last saved. */
  lastTest: ZIntegrationTestOutcome.nullable(),
});
export type TRelianceConfig = z.infer<typeof ZRelianceConfig>;

/** GET /api/reliance-configuration/plants/{plantId}: configured lines only, keyed by line id. */
export const ZRelianceConfigMap = z.record(zString(), ZRelianceConfig);
export type TRelianceConfigMap = z.infer<typeof ZRelianceConfigMap>;

const required = (max: number) =>
  zString({ error: ETQ_MESSAGES.required }).trim().min(1, ETQ_MESSAGES.required).max(max);

/**
 * POST /api/reliance-configuration/lines/{lineId} (requirements.md settings §5 "ETQ form": all four
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

// ── Delivery health (issue #13) ────────────────────────────────────────────────────────────

export const ZDeliveryHealthQuery = z.strictObject({ channel: ZNotificationChannel });

/** One line's deliveries on one channel: the last attempt, failures in 24 h, open alerts in retry. */
export const ZDeliveryHealth = z.object({
  lineId: ZId,
  lastAttempt: z
    .object({
      at: ZIsoDateTime,
      ok: z.boolean(),
      httpStatus: z.number().int().nullable(),
      error: zString().nullable(),
    })
    .nullable(),
  failuresLast24h: z.number().int().nonnegative(),
  /** Open (not resolved) alerts whose notification on this channel is still pending after a failure. */
  retryingAlerts: z.number().int().nonnegative(),
});
export type TDeliveryHealth = z.infer<typeof ZDeliveryHealth>;
export const ZDeliveryHealthList = z.array(ZDeliveryHealth);
