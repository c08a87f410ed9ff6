import net from "node:net";
import { Aedes, type Client } from "aedes";
import { type Logger, silentLogger } from "../lib/logger.js";
import type { IngestBatcher } from "./batcher.js";
import type { BrokerAccess } from "./broker-access.js";
import { CONNECT_MAX_BYTES, guardPacketSizes, MQTT_MAX_PACKET_BYTES } from "./packet-size.js";
import type { SourceDirectory } from "./sources.js";

export class BrokerPortTakenError extends Error {}

export type EmbeddedIngest = { directory: SourceDirectory; batcher: IngestBatcher };

/**
 * The embedded MQTT broker: loopback only, so a fresh machine needs nothing else. A taken port
 * stops start-up with a message naming both ways out.
 *
 * With `ingest`, the broker itself stores what is published on a data source's topic before it
 * acknowledges the PUBLISH (Aedes asks authorizePublish before it sends the PUBACK), so a QoS 1
 * publisher never holds an acknowledgement for a record that a crash could still lose.
 *
 * `access` authenticates every CONNECT and keeps each client to its plant's data source topics
 * (broker-access.ts).
 *
 * Packet sizes are bounded (packet-size.ts): before a client has authenticated, a packet
 * announcing more than CONNECT_MAX_BYTES closes its connection before the packet is read; after,
 * one announcing more than `maxPacketBytes` (MQTT_MAX_PACKET_BYTES) does.
 */
export async function startEmbeddedBroker(
  port: number,
  opts: { ingest?: EmbeddedIngest; access: BrokerAccess; maxPacketBytes?: number; logger?: Logger },
) {
  const ingest = opts.ingest;
  const access = opts.access;
  const logger = opts.logger ?? silentLogger;
  const maxPacketBytes = opts.maxPacketBytes ?? MQTT_MAX_PACKET_BYTES;
  const guards = new WeakMap<Client, ReturnType<typeof guardPacketSizes>>();
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) =>
      access.authenticate(client, username, password, (error, success) => {
        // Aedes reads nothing more from the client while it authenticates: the larger limit
        // applies from the first packet after a successful CONNECT.
        if (!error && success) guards.get(client)?.authenticated();
        done(error, success);
      }),
    authorizeSubscribe: access.authorizeSubscribe,
    authorizePublish: (client, packet, callback) => {
      // A client publishes only on its own plant's topics; refused = disconnected (MQTT 3.1.1 §3.3.5).
      if (client && !access.canPublish(client, packet.topic)) {
        return callback(new Error(`not authorised to publish on ${packet.topic}`));
      }
      // Messages the broker publishes itself ($SYS, wills) and topics no data source claims pass.
      if (!ingest || !client || !ingest.directory.match(packet.topic)) return callback(null);
      ingest.batcher.add(packet).then(
        () => callback(null),
        (err: Error) => callback(err),
      );
    },
  });
  access.attach(aedes);
  const server = net.createServer((socket) => {
    const client = aedes.handle(socket);
    guards.set(
      client,
      guardPacketSizes(socket, {
        maxPacketBytes,
        onRefused: ({ announced, limit, authenticated }) =>
          logger.warn(
            { clientId: client.id ?? undefined, remoteAddress: socket.remoteAddress, announced, limit },
            authenticated
              ? `MQTT client disconnected: a packet of ${announced} bytes, more than MQTT_MAX_PACKET_BYTES (${limit})`
              : `MQTT client disconnected: a packet of ${announced} bytes before it authenticated, more than ${CONNECT_MAX_BYTES}`,
          ),
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") {
        reject(
          new BrokerPortTakenError(
            `The embedded MQTT broker cannot listen on 127.0.0.1:${port}: the port is taken (another MQTT broker?). ` +
              `Set MQTT_URL to use that broker (e.g. MQTT_URL=mqtt://127.0.0.1:${port}) or MQTT_PORT to run the embedded broker on another port.`,
          ),
        );
      } else reject(err);
    });
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    port: actualPort,
    url: `mqtt://127.0.0.1:${actualPort}`,
    /** Whether the broker accepts connections now (GET /ready). */
    isListening: () => server.listening && !aedes.closed,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
