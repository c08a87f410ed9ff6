import type { TMqttLogin } from "@linewatch/contracts";
import type { Db } from "../db/client.js";
import type { Logger } from "../lib/logger.js";
import type { PartRecordsService } from "../modules/part-records/part-records.service.js";
import { createIngestBatcher } from "./batcher.js";
import { startEmbeddedBroker } from "./broker.js";
import { createBrokerAccess } from "./broker-access.js";
import { startMqttIngestor } from "./mqtt-ingestor.js";
import { createSourceDirectory } from "./sources.js";

export type IngestOptions = {
  db: Db;
  partRecords: PartRecordsService;
  /** External broker; unset = the embedded broker on mqttHost:mqttPort. */
  mqttUrl?: string;
  mqttPort: number;
  /** MQTT_HOST: the embedded broker's address. */
  mqttHost?: string;
  /** The embedded broker's MQTT-over-TLS listener. */
  mqttTls?: { cert: string | Buffer; key: string | Buffer; port: number };
  clientId?: string;
  shared?: boolean;
  /** MQTT_ALLOW_ANONYMOUS: the embedded broker accepts clients without credentials (local experiments). */
  allowAnonymous?: boolean;
  /** MQTT_MAX_PACKET_BYTES: the largest packet an authenticated client may send the embedded broker. */
  maxPacketBytes?: number;
  refreshMs?: number;
  logger?: Logger;
};

/**
 * The ingest role: part records from MQTT. On an external broker it subscribes to the data
 * sources' topics; on the embedded one the broker stores records itself before acknowledging.
 */
export async function startIngest(opts: IngestOptions) {
  const directory = createSourceDirectory(opts.db);
  await directory.refresh();
  const batcher = createIngestBatcher({
    partRecords: opts.partRecords,
    directory,
    logger: opts.logger,
  });
  if (opts.mqttUrl) {
    const ingestor = await startMqttIngestor({
      url: opts.mqttUrl,
      directory,
      batcher,
      clientId: opts.clientId,
      shared: opts.shared,
      refreshMs: opts.refreshMs,
      logger: opts.logger,
    });
    return {
      url: opts.mqttUrl,
      embedded: false,
      tlsPort: undefined as number | undefined,
      refresh: () => ingestor.refresh(),
      subscriptions: ingestor.subscriptions,
      /** GET /ready: rejects while the client is not connected to MQTT_URL's broker. */
      async ready() {
        if (!ingestor.isConnected()) throw new Error("not connected to the MQTT broker (MQTT_URL)");
      },
      /** On an external broker the credentials are the broker's business (MQTT_URL's user). */
      internalLogin: (_ingestorIds: string[]): TMqttLogin | undefined => undefined,
      close: () => ingestor.close(),
    };
  }
  const access = createBrokerAccess({
    db: opts.db,
    directory,
    allowAnonymous: opts.allowAnonymous,
    logger: opts.logger,
  });
  let broker: Awaited<ReturnType<typeof startEmbeddedBroker>>;
  try {
    broker = await startEmbeddedBroker(opts.mqttPort, {
      ingest: { directory, batcher },
      access,
      maxPacketBytes: opts.maxPacketBytes,
      logger: opts.logger,
      host: opts.mqttHost,
      tls: opts.mqttTls,
    });
  } catch (err) {
    await batcher.close();
    throw err;
  }
  const refresh = async () => {
    await directory.refresh();
    await access.refresh();
  };
  const interval = setInterval(() => void refresh().catch(() => {}), opts.refreshMs ?? 2_000);
  return {
    url: broker.url,
    embedded: true,
    tlsPort: broker.tlsPort,
    refresh,
    subscriptions: () => directory.current().map((s) => s.topic),
    /** GET /ready: rejects once the embedded broker no longer listens. */
    async ready() {
      if (!broker.isListening()) throw new Error("the embedded MQTT broker is not listening");
    },
    /** A login for this process's own client (the line simulator) on these ingestors' topics. */
    internalLogin: (ingestorIds: string[]): TMqttLogin | undefined => access.issueInternal(ingestorIds),
    async close() {
      clearInterval(interval);
      // Storing stops first: what is not committed is never acknowledged, and the publishers
      // send it again to the next broker they reach.
      await batcher.close();
      await broker.close();
    },
  };
}
export type Ingest = Awaited<ReturnType<typeof startIngest>>;
