import {
  AUDIT_SECRET_MARK,
  ETQ_MESSAGES,
  isRetiredConnectorHost,
  isTeamsWorkflowsHost,
  type TDeliveryHealth,
  TEAMS_MESSAGES,
  type TIntegrationTestOutcome,
  type TIntegrationTestResult,
  type TRelianceConfig,
  type TRelianceConfigBody,
  type TRelianceConfigMap,
  type TTeamsWebhook,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError, badRequest } from "../../errors.js";
import type { SecretBox } from "../../lib/crypto.js";
import {
  createOutboundFetch,
  isLoopbackAddress,
  type OutboundFetch,
  OutboundRefusedError,
  parseOutboundUrl,
} from "../../lib/outbound.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import { lineNotFound } from "../lines/lines.service.js";
import { plantNotFound } from "../plants/plants.service.js";
import {
  apiBase,
  asDeliveryError,
  createEtqClient,
  type EtqConnection,
  postTeams,
} from "./notifications.channels.js";
import { createNotificationsRepo, type TestOutcomeRow } from "./notifications.repo.js";

/** Purposes bound to the ciphertexts (lib/crypto.ts). */
export const SECRET_PURPOSE = {
  teamsUrl: "teams_webhooks.url",
  relianceSecret: "reliance_configs.client_secret",
} as const;

export type NotificationsOptions = {
  /** Encrypts webhook URLs and client secrets; without it, saving an integration fails. */
  secrets?: SecretBox;
  allowLoopbackOutbound?: boolean;
  fetch?: OutboundFetch;
  /** Per outbound call (default 10 s). */
  requestTimeoutMs?: number;
};

function isLoopbackUrl(url: URL) {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || isLoopbackAddress(host);
}

export function requireSecrets(secrets: SecretBox | undefined): SecretBox {
  if (!secrets)
    throw new Error("No encryption key: integrations cannot be saved or used (see ENCRYPTION_KEY)");
  return secrets;
}

export function etqConnection(
  row: {
    id: string;
    apiHost: string;
    clientId: string;
    tokenEndpoint: string;
    clientSecretEncrypted: string;
    updatedTime: Date;
  },
  secrets: SecretBox,
): EtqConnection {
  return {
    key: `${row.id}@${row.updatedTime.getTime()}`,
    apiHost: row.apiHost,
    clientId: row.clientId,
    tokenEndpoint: row.tokenEndpoint,
    clientSecret: secrets.decrypt(row.clientSecretEncrypted, SECRET_PURPOSE.relianceSecret),
  };
}

/**
 * A stored secret for comparing with a new one; null when it no longer decrypts (a replaced
 * encryption key): saving a new value must still work, and counts as a change.
 */
function decryptOrNull(secrets: SecretBox, ciphertext: string, purpose: string): string | null {
  try {
    return secrets.decrypt(ciphertext, purpose);
  } catch {
    return null;
  }
}

/** An ETQ configuration as the audit log records it: the form's fields, never the secret. */
const relianceAuditFields = (r: { apiHost: string; clientId: string; tokenEndpoint: string }) => ({
  apiHost: r.apiHost,
  clientId: r.clientId,
  tokenEndpoint: r.tokenEndpoint,
});

export function createNotificationsService(
  base: { db: Db; now?: () => Date },
  options: NotificationsOptions = {},
) {
  const deps = { ...base, ...options };
  const repo = createNotificationsRepo(deps.db);
  const now = deps.now ?? (() => new Date());
  const policy = { allowLoopback: deps.allowLoopbackOutbound ?? false };
  const channel = {
    fetch: deps.fetch ?? createOutboundFetch(policy),
    now,
    timeoutMs: deps.requestTimeoutMs ?? 10_000,
  };
  const etq = createEtqClient(channel);

  async function checkPlant(ctx: AuthContext, plantId: string) {
    if (!(await repo.plantExists(ctx.customerId, plantId))) throw plantNotFound();
  }

  async function lineOf(ctx: AuthContext, lineId: string, plantId?: string) {
    const line = await repo.line(ctx.customerId, lineId);
    if (!line || (plantId && line.plantId !== plantId)) throw lineNotFound();
    return line;
  }

  /** https, a Workflows host, not a private address (loopback only with the test setting). */
  function checkTeamsUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw badRequest(TEAMS_MESSAGES.saveFailed);
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const isFakeServer = policy.allowLoopback && isLoopbackUrl(url);
    if (url.protocol !== "https:" && !(isFakeServer && url.protocol === "http:")) {
      throw badRequest(TEAMS_MESSAGES.notHttps);
    }
    if (!isFakeServer && isRetiredConnectorHost(host)) throw badRequest(TEAMS_MESSAGES.retiredConnector);
    if (!isFakeServer && !isTeamsWorkflowsHost(host)) throw badRequest(TEAMS_MESSAGES.notWorkflows);
    try {
      return parseOutboundUrl(raw, policy);
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw badRequest(err.message);
      throw err;
    }
  }

  /** An https URL (a bare host is taken as https://host) that passes the static outbound checks. */
  function checkEtqUrl(field: string, raw: string, bareHostAllowed: boolean): string {
    const value = bareHostAllowed ? apiBase(raw) : raw;
    try {
      const url = parseOutboundUrl(value, policy);
      // http only for a loopback fake server, and only with the setting.
      if (url.protocol !== "https:" && !isLoopbackUrl(url)) throw new OutboundRefusedError("https");
    } catch (err) {
      if (err instanceof OutboundRefusedError) {
        throw badRequest(
          err.message.includes("https") ? ETQ_MESSAGES.notHttps(field) : `${field}: ${err.message}`,
        );
      }
      throw err;
    }
    return raw;
  }

  type LastTestColumns = {
    lastTestAt: Date | null;
    lastTestOk: boolean | null;
    lastTestHttpStatus: number | null;
    lastTestMessage: string | null;
  };
  const toLastTest = (r: LastTestColumns): TIntegrationTestOutcome | null =>
    r.lastTestAt && r.lastTestOk != null
      ? {
          at: r.lastTestAt.toISOString(),
          ok: r.lastTestOk,
          httpStatus: r.lastTestHttpStatus,
          message: r.lastTestMessage ?? "",
        }
      : null;

  const toWebhook = (
    r: { id: string; lineId: string; lastModifiedDateTime: Date; urlHost: string } & LastTestColumns,
  ): TTeamsWebhook => ({
    id: r.id,
    lineId: r.lineId,
    lastModifiedDateTime: r.lastModifiedDateTime.toISOString(),
    urlHost: r.urlHost,
    lastTest: toLastTest(r),
  });

  /** Runs a test call; its outcome is stored (shown on the row) and answered. */
  async function runTest(
    call: () => Promise<number>,
    okMessage: string,
    store: (o: TestOutcomeRow) => Promise<void>,
  ): Promise<TIntegrationTestResult> {
    let result: TIntegrationTestResult;
    try {
      result = { ok: true, httpStatus: await call(), message: okMessage };
    } catch (err) {
      const e = asDeliveryError(err);
      result = { ok: false, httpStatus: e.httpStatus, message: e.message };
    }
    await store({ at: now(), ...result });
    return result;
  }

  const toReliance = (
    r: {
      id: string;
      lineId: string;
      apiHost: string;
      clientId: string;
      tokenEndpoint: string;
      connectionStatus: "SUCCESS" | "ERROR" | null;
      updatedTime: Date;
    } & LastTestColumns,
  ): TRelianceConfig => ({
    id: r.id,
    lineId: r.lineId,
    apiHost: r.apiHost,
    clientId: r.clientId,
    tokenEndpoint: r.tokenEndpoint,
    connectionStatus: r.connectionStatus,
    updatedTime: r.updatedTime.toISOString(),
    hasClientSecret: true,
    lastTest: toLastTest(r),
  });

  return {
    // ── Teams (requirements.md settings §2.2, §7) ──

    async listWebhooks(ctx: AuthContext, plantId: string): Promise<TTeamsWebhook[]> {
      await checkPlant(ctx, plantId);
      return (await repo.listWebhooks(ctx.customerId, plantId)).map(toWebhook);
    },

    async saveWebhook(
      ctx: AuthContext,
      plantId: string,
      lineId: string,
      rawUrl: string,
    ): Promise<TTeamsWebhook> {
      await checkPlant(ctx, plantId);
      const line = await lineOf(ctx, lineId, plantId);
      const url = checkTeamsUrl(rawUrl);
      const secrets = requireSecrets(deps.secrets);
      const row = await deps.db.transaction(async (tx) => {
        const txRepo = createNotificationsRepo(tx);
        const existing = await txRepo.webhookOfLine(ctx.customerId, lineId);
        const saved = await txRepo.upsertWebhook({
          customerId: ctx.customerId,
          plantId,
          lineId,
          urlEncrypted: secrets.encrypt(url.toString(), SECRET_PURPOSE.teamsUrl),
          urlHost: url.host,
          at: now(),
        });
        if (!saved) throw lineNotFound();
        // The URL is write-only (requirements.md settings §3): the log keeps its host and that it changed, never it.
        const isUrlChanged =
          !existing ||
          decryptOrNull(secrets, existing.urlEncrypted, SECRET_PURPOSE.teamsUrl) !== url.toString();
        await recordAudit(tx, ctx, {
          resource: "teams_webhook",
          action: existing ? "update" : "create",
          resourceId: saved.id,
          resourceName: line.name,
          plantId,
          lineId,
          before: existing ? { urlHost: existing.urlHost } : null,
          after: { urlHost: saved.urlHost, ...(isUrlChanged ? { url: AUDIT_SECRET_MARK } : {}) },
        });
        return saved;
      });
      return toWebhook(row);
    },

    async deleteWebhook(ctx: AuthContext, id: string) {
      await deps.db.transaction(async (tx) => {
        const txRepo = createNotificationsRepo(tx);
        const row = await txRepo.webhook(ctx.customerId, id);
        if (!row || !(await txRepo.deleteWebhook(ctx.customerId, id)))
          throw new AppError("NOT_FOUND", TEAMS_MESSAGES.notFound);
        const line = await txRepo.line(ctx.customerId, row.lineId);
        await recordAudit(tx, ctx, {
          resource: "teams_webhook",
          action: "delete",
          resourceId: row.id,
          resourceName: row.lineName,
          plantId: line?.plantId ?? null,
          lineId: row.lineId,
          before: { urlHost: row.urlHost },
          after: null,
        });
      });
    },

    /** "Send test message": a small card to the configured URL; the outcome is the answer. */
    async testWebhook(ctx: AuthContext, id: string): Promise<TIntegrationTestResult> {
      const row = await repo.webhook(ctx.customerId, id);
      if (!row) throw new AppError("NOT_FOUND", TEAMS_MESSAGES.notFound);
      const url = requireSecrets(deps.secrets).decrypt(row.urlEncrypted, SECRET_PURPOSE.teamsUrl);
      return runTest(
        () => postTeams(channel, url, testCard(row.lineName)),
        TEAMS_MESSAGES.testSent,
        (o) => repo.setWebhookTest(ctx.customerId, id, o),
      );
    },

    // ── ETQ Reliance (requirements.md settings §2.3, §7) ──

    async listReliance(ctx: AuthContext, plantId: string): Promise<TRelianceConfigMap> {
      await checkPlant(ctx, plantId);
      const rows = await repo.listReliance(ctx.customerId, plantId);
      return Object.fromEntries(rows.map((r) => [r.lineId, toReliance(r)]));
    },

    async saveReliance(
      ctx: AuthContext,
      lineId: string,
      body: TRelianceConfigBody,
    ): Promise<TRelianceConfig> {
      const line = await lineOf(ctx, lineId);
      checkEtqUrl("Reliance API Host", body.apiHost, true);
      checkEtqUrl("Token URL", body.tokenEndpoint, false);
      const secrets = requireSecrets(deps.secrets);
      const row = await deps.db.transaction(async (tx) => {
        const txRepo = createNotificationsRepo(tx);
        const existing = await txRepo.reliance(ctx.customerId, lineId);
        let clientSecretEncrypted: string;
        if (body.clientSecret != null) {
          clientSecretEncrypted = secrets.encrypt(body.clientSecret, SECRET_PURPOSE.relianceSecret);
        } else {
          // Omitted on an update: the stored secret stays (it is never sent back to be re-sent).
          if (!existing) throw badRequest(`body.clientSecret: ${ETQ_MESSAGES.required}`);
          clientSecretEncrypted = existing.clientSecretEncrypted;
        }
        const saved = await txRepo.upsertReliance({
          customerId: ctx.customerId,
          lineId,
          apiHost: body.apiHost,
          clientId: body.clientId,
          tokenEndpoint: body.tokenEndpoint,
          clientSecretEncrypted,
          at: now(),
        });
        if (!saved) throw lineNotFound();
        // The client secret is write-only: the log keeps only that it was set or changed.
        const isSecretChanged =
          body.clientSecret != null &&
          (!existing ||
            decryptOrNull(secrets, existing.clientSecretEncrypted, SECRET_PURPOSE.relianceSecret) !==
              body.clientSecret);
        await recordAudit(tx, ctx, {
          resource: "etq_config",
          action: existing ? "update" : "create",
          resourceId: saved.id,
          resourceName: line.name,
          plantId: line.plantId,
          lineId,
          before: existing ? relianceAuditFields(existing) : null,
          after: {
            ...relianceAuditFields(saved),
            ...(isSecretChanged ? { clientSecret: AUDIT_SECRET_MARK } : {}),
          },
        });
        return saved;
      });
      return toReliance(row);
    },

    async deleteReliance(ctx: AuthContext, lineId: string) {
      const line = await lineOf(ctx, lineId);
      await deps.db.transaction(async (tx) => {
        const txRepo = createNotificationsRepo(tx);
        const existing = await txRepo.reliance(ctx.customerId, lineId);
        if (!existing || !(await txRepo.deleteReliance(ctx.customerId, lineId))) {
          throw new AppError("NOT_FOUND", ETQ_MESSAGES.notFound);
        }
        await recordAudit(tx, ctx, {
          resource: "etq_config",
          action: "delete",
          resourceId: existing.id,
          resourceName: line.name,
          plantId: line.plantId,
          lineId,
          before: relianceAuditFields(existing),
          after: null,
        });
      });
    },

    /** "Test connection": a new token and a call with it; sets the connection status. */
    async testReliance(ctx: AuthContext, lineId: string): Promise<TIntegrationTestResult> {
      await lineOf(ctx, lineId);
      const row = await repo.reliance(ctx.customerId, lineId);
      if (!row) throw new AppError("NOT_FOUND", ETQ_MESSAGES.notFound);
      const connection = etqConnection(row, requireSecrets(deps.secrets));
      return runTest(
        () => etq.testConnection(connection),
        ETQ_MESSAGES.connected,
        (o) => repo.setRelianceTest(ctx.customerId, lineId, o),
      );
    },

    // ── Delivery health (issue #13) ──

    /** Per line of the plant with any delivery on `channel`: its last attempt, failures in 24 h, retries. */
    async deliveryHealth(
      ctx: AuthContext,
      plantId: string,
      channelName: "teams" | "etq",
    ): Promise<TDeliveryHealth[]> {
      await checkPlant(ctx, plantId);
      const since = new Date(now().getTime() - DAY_MS);
      const { last, failures, retrying } = await repo.deliveryHealth(
        ctx.customerId,
        plantId,
        channelName,
        since,
      );
      const byLine = new Map<string, TDeliveryHealth>();
      const of = (lineId: string) => {
        let h = byLine.get(lineId);
        if (!h) {
          h = { lineId, lastAttempt: null, failuresLast24h: 0, retryingAlerts: 0 };
          byLine.set(lineId, h);
        }
        return h;
      };
      for (const r of last) {
        of(r.lineId).lastAttempt = {
          at: r.at.toISOString(),
          ok: r.error == null,
          httpStatus: r.httpStatus,
          error: r.error,
        };
      }
      for (const r of failures) of(r.lineId).failuresLast24h = Number(r.n);
      for (const r of retrying) of(r.lineId).retryingAlerts = Number(r.n);
      return [...byLine.values()];
    },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function testCard(lineName: string): Record<string, unknown> {
  return {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body: [
      { type: "TextBlock", text: "Linewatch test message", weight: "Bolder", size: "Medium", wrap: true },
      { type: "TextBlock", text: `Alerts for ${lineName} will be sent to this channel.`, wrap: true },
    ],
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
