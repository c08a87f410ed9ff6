import {
  lineLabel,
  INTEGRATION_MESSAGES as M,
  type TDeliveryHealth,
  type TIntegrationTestOutcome,
  type TLine,
  type TRelianceConfig,
  type TRelianceConfigMap,
  type TTeamsWebhook,
} from "@linewatch/contracts";

// The rows of the integrations pages: one per line of the plant, configured or not (spec
// requirements.md settings §2.2, §2.3), with the last test's outcome and the line's delivery health (issue #13).

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
const byLine = (a: { line: string }, b: { line: string }) => collator.compare(a.line, b.line);

export type TConfigStatus = typeof M.configured | typeof M.notConfigured;

export type TTeamsRow = {
  /** The line's id. */
  id: string;
  line: string;
  webhookId: string | null;
  status: TConfigStatus;
  configuredAt: string | null;
  /** What is shown of the stored URL: its host (the URL itself is never answered). */
  urlHost: string | null;
  /** The Webhook URL input: always empty when the row opens. */
  url: string;
  lastTest: TIntegrationTestOutcome | null;
  health: TDeliveryHealth | null;
};

/** Teams rows, sorted by line (requirements.md settings §9 "Default sorts"). */
export function teamsRows(
  lines: readonly Pick<TLine, "id" | "name" | "friendlyName">[],
  webhooks: readonly TTeamsWebhook[],
  health: readonly TDeliveryHealth[] = [],
): TTeamsRow[] {
  const hookOf = new Map(webhooks.map((w) => [w.lineId, w]));
  const healthOf = new Map(health.map((h) => [h.lineId, h]));
  return lines
    .map((l) => {
      const w = hookOf.get(l.id);
      return {
        id: l.id,
        line: lineLabel(l),
        webhookId: w?.id ?? null,
        status: w ? M.configured : M.notConfigured,
        configuredAt: w?.lastModifiedDateTime ?? null,
        urlHost: w?.urlHost ?? null,
        url: "",
        lastTest: w?.lastTest ?? null,
        health: healthOf.get(l.id) ?? null,
      };
    })
    .sort(byLine);
}

export type TConnectionChip =
  | typeof M.connectionActive
  | typeof M.connectionFailed
  | typeof M.notConfigured
  | typeof M.configured;

export type TEtqRow = {
  id: string;
  line: string;
  status: TConfigStatus;
  /** Connection Active / Connection Failed; Configured while untested; Not Configured (requirements.md settings §2.3). */
  chip: TConnectionChip;
  configuredAt: string | null;
  config: TRelianceConfig | null;
  lastTest: TIntegrationTestOutcome | null;
  health: TDeliveryHealth | null;
};

export function connectionChip(config: TRelianceConfig | null): TConnectionChip {
  if (!config) return M.notConfigured;
  if (config.connectionStatus === "SUCCESS") return M.connectionActive;
  if (config.connectionStatus === "ERROR") return M.connectionFailed;
  return M.configured;
}

/** ETQ rows, sorted by line; `status` filters Configured / Not Configured (null: all). */
export function etqRows(
  lines: readonly Pick<TLine, "id" | "name" | "friendlyName">[],
  configs: TRelianceConfigMap,
  health: readonly TDeliveryHealth[] = [],
  status: TConfigStatus | null = null,
): TEtqRow[] {
  const healthOf = new Map(health.map((h) => [h.lineId, h]));
  return lines
    .map((l) => {
      const config = configs[l.id] ?? null;
      return {
        id: l.id,
        line: lineLabel(l),
        status: config ? M.configured : M.notConfigured,
        chip: connectionChip(config),
        configuredAt: config?.updatedTime ?? null,
        config,
        lastTest: config?.lastTest ?? null,
        health: healthOf.get(l.id) ?? null,
      };
    })
    .filter((r) => status == null || r.status === status)
    .sort(byLine);
}

/** A row whose last delivery failed is marked, so an administrator sees it without opening an alert. */
export const hasFailedDelivery = (health: TDeliveryHealth | null) => health?.lastAttempt?.ok === false;

/**
 * The configurations whose history the page offers: one per configured line, named by its line
 * (a record is about the webhook or configuration, by its id; issue 18 §2), ordered by line.
 */
export function historyItems(
  lines: readonly Pick<TLine, "id" | "name" | "friendlyName">[],
  configs: readonly { id: string; lineId: string }[],
): { id: string; name: string }[] {
  const byId = new Map(lines.map((l) => [l.id, l]));
  return configs
    .flatMap((c) => {
      const l = byId.get(c.lineId);
      return l ? [{ id: c.id, name: lineLabel(l), line: lineLabel(l) }] : [];
    })
    .sort(byLine)
    .map(({ id, name }) => ({ id, name }));
}
