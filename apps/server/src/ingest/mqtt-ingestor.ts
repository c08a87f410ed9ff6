import { topicMatches } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import mqtt, { type IPublishPacket, type MqttClient } from "mqtt";
import type { Db } from "../db/client.js";
import { dataSources, ingestors } from "../db/schema/index.js";
import type { PartRecordsService } from "../modules/part-records/part-records.service.js";
import { createIngestLog, type IngestLog } from "./ingest-log.js";

type Source = { id: string; topic: string; customerId: string; plantId: string; ingestorId: string };
type Held = { packet: IPublishPacket; release: () => void };

export type MqttIngestorOptions = {
  db: Db;
  partRecords: PartRecordsService;
  url: string;
  /** Stable id so a persistent session keeps QoS 1 messages while the ingestor is away. */
  clientId?: string;
  /** Subscribe as `$share/linewatch/<topic>` so several ingest processes share the messages. */
  shared?: boolean;
  /** How often data sources are re-read, so changes made by other processes take effect (ms). */
  refreshMs?: number;
  /** A batch is stored when it has this many messages, or after flushMs. */
  batchSize?: number;
  flushMs?: number;
  log?: (msg: string) => void;
};

/**
 * Line and station from the topic when the record has none: the last two levels name them
 * (`…/<line>/<station>`), README "Part records over MQTT".
 */
export function topicDefaults(topic: string): { line?: string; station?: string } {
  const levels = topic.split("/").filter(Boolean);
  if (levels.length < 2) return {};
  return { line: levels[levels.length - 2], station: levels[levels.length - 1] };
}

/**
 * Subscribes with QoS 1 to every data source's topic and stores the part records. A message's
 * PUBACK is sent only after its records are committed, so the broker redelivers anything a crash
 * interrupts; the part-record key makes the redelivery change nothing.
 */
export async function startMqttIngestor(opts: MqttIngestorOptions) {
  const log = opts.log ?? (() => {});
  const ingestLog: IngestLog = createIngestLog(opts.db);
  const batchSize = opts.batchSize ?? 1_000;
  const flushMs = opts.flushMs ?? 25;
  let sources: Source[] = [];
  const subscribed = new Set<string>();
  let held: Held[] = [];
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  const client: MqttClient = mqtt.connect(opts.url, {
    clientId: opts.clientId ?? `linewatch-ingest-${process.pid}`,
    clean: !opts.clientId,
    reconnectPeriod: 1_000,
    connectTimeout: 10_000,
  });

  // mqtt.js sends a PUBACK as soon as handleMessage calls back and handles one message at a time.
  // To store messages in batches and still acknowledge only after the commit, its PUBACKs are
  // held here and sent once the batch holding their message is committed.
  const pendingAcks = new Map<number, () => void>();
  type SendPacket = (
    packet: { cmd: string; messageId?: number },
    cb?: () => void,
    ...rest: unknown[]
  ) => void;
  const internals = client as unknown as { _sendPacket: SendPacket };
  const sendPacket: SendPacket = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, cb, ...rest) => {
    const id = packet.messageId;
    if (packet.cmd === "puback" && id != null && heldIds.has(id)) {
      heldIds.delete(id);
      pendingAcks.set(id, () => sendPacket(packet, undefined, ...rest));
      cb?.();
      return;
    }
    sendPacket(packet, cb, ...rest);
  };
  const heldIds = new Set<number>();

  client.handleMessage = (packet, callback) => {
    if (packet.qos > 0 && packet.messageId != null) heldIds.add(packet.messageId);
    const id = packet.messageId;
    held.push({
      packet,
      release: () => {
        if (id == null) return;
        const ack = pendingAcks.get(id);
        pendingAcks.delete(id);
        ack?.();
      },
    });
    callback();
    if (held.length >= batchSize) void flush();
    else timer ??= setTimeout(() => void flush(), flushMs);
  };

  async function flush() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = held;
    held = [];
    if (!batch.length) return;
    flushing = flushing.then(() => storeBatch(batch));
    await flushing;
  }

  async function storeBatch(batch: Held[]) {
    for (;;) {
      try {
        await ingestLog.store(
          batch.map((h) => h.packet),
          sources,
          opts.partRecords,
          topicDefaults,
        );
        for (const h of batch) h.release();
        return;
      } catch (err) {
        // The database is away: keep the messages unacknowledged and try again; never drop them.
        log(`storing ${batch.length} MQTT messages failed, retrying in 1 s: ${(err as Error).message}`);
        if (closed) return;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  async function refresh() {
    const rows = await opts.db
      .select({
        id: dataSources.id,
        topic: dataSources.topic,
        customerId: dataSources.customerId,
        ingestorId: dataSources.ingestorId,
        plantId: ingestors.plantId,
      })
      .from(dataSources)
      .innerJoin(ingestors, eq(ingestors.id, dataSources.ingestorId));
    sources = rows;
    const wanted = new Set(rows.map((r) => (opts.shared ? `$share/linewatch/${r.topic}` : r.topic)));
    const add = [...wanted].filter((t) => !subscribed.has(t));
    const remove = [...subscribed].filter((t) => !wanted.has(t));
    if (add.length) {
      await client.subscribeAsync(add, { qos: 1 });
      for (const t of add) subscribed.add(t);
      log(`subscribed to ${add.join(", ")}`);
    }
    if (remove.length) {
      await client.unsubscribeAsync(remove);
      for (const t of remove) subscribed.delete(t);
      log(`unsubscribed from ${remove.join(", ")}`);
    }
  }

  let refreshing: Promise<void> | undefined;
  const refreshSoon = () => {
    refreshing ??= refresh()
      .catch((err) => log(`data source refresh failed: ${(err as Error).message}`))
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };

  client.on("connect", () => {
    // A reconnect without a kept session needs the subscriptions again.
    subscribed.clear();
    void refreshSoon();
  });
  client.on("error", (err) => log(`MQTT: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    client.once("connect", () => resolve());
    client.once("error", reject);
  });
  await refreshSoon();
  const interval = setInterval(() => void refreshSoon(), opts.refreshMs ?? 2_000);

  return {
    /** Re-reads data sources now (called after a change in this process). */
    refresh: refreshSoon,
    /** Topic filters subscribed to right now. */
    subscriptions: () => [...subscribed],
    matchSource: (topic: string) => sources.find((s) => topicMatches(s.topic, topic)),
    async close() {
      closed = true;
      clearInterval(interval);
      await flush();
      await client.endAsync();
    },
  };
}
export type MqttIngestor = Awaited<ReturnType<typeof startMqttIngestor>>;
