// Delivers the notification outbox (docs/monitoring.md "Notifications"): claims due rows with
// a lease, sends, logs every attempt, retries with backoff. At-least-once, one row per alert and
// channel; an ETQ document id stored on the alert stops a retry from creating a second document.
import type { Db } from "../../db/client.js";
import { describeDbError } from "../../db/errors.js";
import type { SecretBox } from "../../lib/crypto.js";
import { type Logger, silentLogger } from "../../lib/logger.js";
import { notificationsSent } from "../../lib/metrics.js";
import { createOutboundFetch, type OutboundFetch } from "../../lib/outbound.js";
import {
  asDeliveryError,
  type ChannelOptions,
  createEtqClient,
  DeliveryError,
  postTeams,
} from "../../modules/notifications/notifications.channels.js";
import {
  etqConnection,
  requireSecrets,
  SECRET_PURPOSE,
} from "../../modules/notifications/notifications.service.js";
import { alertCard, etqDocument, MAX_ATTEMPTS, retryDelayMs } from "./messages.js";
import { type ClaimedRow, createOutboxRepo } from "./outbox.repo.js";

export type NotifierOptions = {
  db: Db;
  now?: () => Date;
  /** Idle wait between polls of the outbox. */
  pollMs: number;
  /** Outbound HTTP; by default the guarded one (lib/outbound.ts). */
  fetch?: OutboundFetch;
  secrets?: SecretBox;
  /** PUBLIC_URL, for the link to the alert. */
  publicUrl?: string;
  allowLoopbackOutbound?: boolean;
  /** Per call (default 10 s); a timeout is retried. */
  requestTimeoutMs?: number;
  /** How long a claimed row is this worker's (default 60 s; covers a token call and a POST). */
  leaseMs?: number;
  batchSize?: number;
  /** false: no loop, the caller drives runOnce (tests with a fake clock). */
  autoStart?: boolean;
  logger?: Logger;
};

export type Notifier = {
  /** One pass: claims what is due and delivers it; answers how many rows it handled. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
  /** ETQ token requests made by this notifier (its token cache is per process). */
  readonly tokenFetches: number;
};

export function startNotifier(opts: NotifierOptions): Notifier {
  const now = opts.now ?? (() => new Date());
  const repo = createOutboxRepo(opts.db);
  const publicUrl = opts.publicUrl ?? "http://localhost:8080";
  const leaseMs = opts.leaseMs ?? 60_000;
  const batchSize = opts.batchSize ?? 10;
  const logger = opts.logger ?? silentLogger;
  const channel: ChannelOptions = {
    fetch: opts.fetch ?? createOutboundFetch({ allowLoopback: opts.allowLoopbackOutbound ?? false }),
    now,
    timeoutMs: opts.requestTimeoutMs ?? 10_000,
  };
  const etq = createEtqClient(channel);

  /**
   * Sends one row; answers the HTTP status and, for ETQ, the document id. `to` gets the id of the
   * integration (Teams webhook, Reliance configuration) it goes to, for the log.
   */
  async function send(
    row: ClaimedRow,
    to: { integrationId?: string },
  ): Promise<{ httpStatus: number | null; documentId?: string }> {
    const facts = await repo.alertFacts(row.alertId);
    if (!facts) throw new DeliveryError("The alert no longer exists", false);
    const secrets = requireSecrets(opts.secrets);
    if (row.channel === "teams") {
      const hook = await repo.teamsWebhook(facts.lineId);
      if (!hook) throw new DeliveryError("No Microsoft Teams webhook is configured for this line", false);
      to.integrationId = hook.id;
      const url = secrets.decrypt(hook.urlEncrypted, SECRET_PURPOSE.teamsUrl);
      return { httpStatus: await postTeams(channel, url, alertCard(facts, publicUrl)) };
    }
    // A document already exists for this alert (an earlier attempt): never a second one.
    if (facts.relianceDocumentId) return { httpStatus: null };
    const config = await repo.relianceConfig(facts.lineId);
    if (!config) throw new DeliveryError("No ETQ Reliance configuration exists for this line", false);
    to.integrationId = config.id;
    try {
      const created = await etq.createDocument(
        etqConnection(config, secrets),
        etqDocument(facts, publicUrl),
        facts.alertId,
      );
      await repo.setRelianceStatus(facts.lineId, "SUCCESS");
      return created;
    } catch (err) {
      await repo.setRelianceStatus(facts.lineId, "ERROR");
      throw err;
    }
  }

  async function deliver(row: ClaimedRow) {
    const startedAt = now();
    const t0 = performance.now();
    const durationMs = () => Math.round(performance.now() - t0);
    const to: { integrationId?: string } = {};
    try {
      const result = await send(row, to);
      await repo.delivered(
        row,
        { at: startedAt, httpStatus: result.httpStatus, error: null, durationMs: durationMs() },
        result.documentId,
      );
      notificationsSent.inc({ channel: row.channel, outcome: "delivered" });
    } catch (err) {
      const e = asDeliveryError(err);
      const attempt = { at: startedAt, httpStatus: e.httpStatus, error: e.message, durationMs: durationMs() };
      const attempts = row.attempts + 1;
      // Never the webhook URL or a secret: the integration's id, the HTTP status and our reason.
      const about = {
        outboxId: row.id,
        alertId: row.alertId,
        channel: row.channel,
        integrationId: to.integrationId ?? null,
        httpStatus: e.httpStatus,
        attempts,
        reason: e.message,
      };
      if (!e.retryable || attempts >= MAX_ATTEMPTS) {
        await repo.failed(row, attempt);
        notificationsSent.inc({ channel: row.channel, outcome: "failed" });
        logger.warn(about, "notification failed for good");
      } else {
        const retryInMs = retryDelayMs(attempts, e.retryAfterMs);
        await repo.retry(row, attempt, new Date(now().getTime() + retryInMs));
        notificationsSent.inc({ channel: row.channel, outcome: "retrying" });
        logger.info(
          { ...about, retryInMs },
          `notification failed, retrying in ${Math.round(retryInMs / 1000)} s`,
        );
      }
    }
  }

  let running: Promise<number> | undefined;
  async function runOnce(): Promise<number> {
    // One pass at a time in this process; other processes are kept apart by the leases.
    if (running) return running;
    running = (async () => {
      const rows = await repo.claim(now(), leaseMs, batchSize);
      await Promise.all(
        rows.map((r) =>
          deliver(r).catch((err) =>
            logger.error({ outboxId: r.id, reason: describeDbError(err) }, "delivery failed"),
          ),
        ),
      );
      return rows.length;
    })();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    let handled = 0;
    try {
      handled = await runOnce();
    } catch (err) {
      logger.warn({ reason: describeDbError(err) }, "notifier poll failed");
    }
    // A full batch means more may be due: go again at once.
    if (!stopped) timer = setTimeout(loop, handled >= batchSize ? 0 : opts.pollMs);
  };
  if (opts.autoStart !== false) timer = setTimeout(loop, 0);

  return {
    runOnce,
    get tokenFetches() {
      return etq.tokenFetches;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

/** The worker role's notifier, from the process settings (main.ts). */
export function startNotifierFor(
  db: Db,
  config: { publicUrl: string; allowLoopbackOutbound: boolean },
  secrets: SecretBox,
  logger: Logger,
): Notifier {
  return startNotifier({
    db,
    pollMs: 2_000,
    secrets,
    publicUrl: config.publicUrl,
    allowLoopbackOutbound: config.allowLoopbackOutbound,
    logger: logger.child({ component: "notifier" }),
  });
}
