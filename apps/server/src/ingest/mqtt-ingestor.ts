import mqtt, { type MqttClient } from "mqtt";
import { describeDbError } from "../db/errors.js";
import { type Logger, silentLogger } from "../lib/logger.js";
import type { IngestBatcher } from "./batcher.js";
import type { SourceDirectory } from "./sources.js";

export type MqttIngestorOptions = {
  url: string;
  directory: SourceDirectory;
  batcher: IngestBatcher;
  /** Stable id: the broker keeps a persistent session, so QoS 1 messages wait while the ingestor is away. */
  clientId?: string;
  /** Subscribe as `$share/linewatch/<topic>` so several ingest processes share the messages. */
  shared?: boolean;
  /** How often data sources are re-read, so changes made by other processes take effect (ms). */
  refreshMs?: number;
  logger?: Logger;
};

/**
 * Subscribes with QoS 1 to every data source's topic on an external broker and stores the part
 * records. A message's PUBACK is sent only after its records are committed, so the broker
 * redelivers anything a crash interrupts; the part-record key makes the redelivery change nothing.
 */
export async function startMqttIngestor(opts: MqttIngestorOptions) {
  const logger = opts.logger ?? silentLogger;
  const subscribed = new Set<string>();

  const client: MqttClient = mqtt.connect(opts.url, {
    clientId: opts.clientId ?? `linewatch-ingest-${process.pid}-${Date.now().toString(36)}`,
    clean: !opts.clientId,
    reconnectPeriod: 1_000,
    connectTimeout: 10_000,
  });

  // mqtt.js sends a PUBACK as soon as handleMessage calls back, and hands over one message at a
  // time. To store messages in batches and still acknowledge only after the commit, the PUBACKs
  // of messages still being stored are held here and sent when their batch is committed.
  type SendPacket = (
    packet: { cmd: string; messageId?: number },
    cb?: () => void,
    ...rest: unknown[]
  ) => void;
  const internals = client as unknown as { _sendPacket: SendPacket };
  const sendPacket: SendPacket = internals._sendPacket.bind(client);
  const storing = new Map<number, Promise<void>>();
  internals._sendPacket = (packet, cb, ...rest) => {
    const stored =
      packet.cmd === "puback" && packet.messageId != null ? storing.get(packet.messageId) : undefined;
    if (!stored) return sendPacket(packet, cb, ...rest);
    storing.delete(packet.messageId as number);
    cb?.();
    void stored.then(() => sendPacket(packet, undefined, ...rest));
  };
  client.handleMessage = (packet, callback) => {
    // The one place this message's topic is matched to its data source: the source goes with it.
    const stored = opts.batcher.add(packet, opts.directory.resolve(packet.topic));
    if (packet.qos > 0 && packet.messageId != null) storing.set(packet.messageId, stored);
    callback();
  };

  async function syncSubscriptions() {
    const rows = await opts.directory.refresh();
    const wanted = new Set(rows.map((r) => (opts.shared ? `$share/linewatch/${r.topic}` : r.topic)));
    const add = [...wanted].filter((t) => !subscribed.has(t));
    const remove = [...subscribed].filter((t) => !wanted.has(t));
    if (add.length) {
      await client.subscribeAsync(add, { qos: 1 });
      for (const t of add) subscribed.add(t);
      logger.info({ topics: add }, `subscribed to ${add.join(", ")}`);
    }
    if (remove.length) {
      await client.unsubscribeAsync(remove);
      for (const t of remove) subscribed.delete(t);
      logger.info({ topics: remove }, `unsubscribed from ${remove.join(", ")}`);
    }
  }
  let syncing: Promise<void> | undefined;
  const refresh = () => {
    syncing ??= syncSubscriptions()
      .catch((err) => logger.warn({ reason: describeDbError(err) }, "data source refresh failed"))
      .finally(() => {
        syncing = undefined;
      });
    return syncing;
  };

  client.on("connect", (connack) => {
    // Without a kept session the broker forgot the subscriptions.
    if (!connack.sessionPresent) subscribed.clear();
    void refresh();
  });
  client.on("error", (err) => logger.warn({ reason: err.message }, "MQTT client error"));
  await new Promise<void>((resolve, reject) => {
    client.once("connect", () => resolve());
    client.once("error", reject);
  });
  await refresh();
  const interval = setInterval(() => void refresh(), opts.refreshMs ?? 2_000);

  return {
    /** Re-reads data sources now (after a change in this process). */
    refresh,
    /** Topic filters subscribed to right now. */
    subscriptions: () => [...subscribed],
    /** Whether the client is connected to the broker now (GET /ready). */
    isConnected: () => client.connected,
    /** Stops storing and disconnects; messages not yet committed stay unacknowledged, for redelivery. */
    async close() {
      clearInterval(interval);
      await opts.batcher.close();
      await client.endAsync();
    },
  };
}
export type MqttIngestor = Awaited<ReturnType<typeof startMqttIngestor>>;
