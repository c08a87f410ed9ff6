import { readFileSync } from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { Aedes, type Client } from "aedes";
import { type Logger, silentLogger } from "../lib/logger.js";
import type { IngestBatcher } from "./batcher.js";
import type { BrokerAccess } from "./broker-access.js";
import { CONNECT_MAX_BYTES, guardPacketSizes, MQTT_MAX_PACKET_BYTES } from "./packet-size.js";
import type { SourceDirectory } from "./sources.js";

export class BrokerPortTakenError extends Error {}

/** Whether an address is this machine's loopback (only local clients reach the broker there). */
export const isLoopback = (host: string) => host === "localhost" || host === "::1" || host.startsWith("127.");

/** The MQTT-over-TLS listener's certificate and key, read from the files MQTT_TLS_CERT / MQTT_TLS_KEY name. */
export function readBrokerTls(files: { certFile: string; keyFile: string; port: number }) {
  const read = (file: string, setting: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(
        `${setting}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
  };
  return {
    cert: read(files.certFile, "MQTT_TLS_CERT"),
    key: read(files.keyFile, "MQTT_TLS_KEY"),
    port: files.port,
  };
}

export type EmbeddedIngest = { directory: SourceDirectory; batcher: IngestBatcher };

/**
 * The embedded MQTT broker: on loopback unless MQTT_HOST says otherwise (the plant's machines reach
 * it on the host's address), with an MQTT-over-TLS listener beside plain MQTT when given a
 * certificate. MQTT 3.1.1 and 3.1 only (Aedes does not speak MQTT 5: such devices use an external
 * broker, README). A taken port stops start-up with a message naming the ways out.
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
  opts: {
    ingest?: EmbeddedIngest;
    access: BrokerAccess;
    maxPacketBytes?: number;
    logger?: Logger;
    /** MQTT_HOST: the address to listen on (default loopback). */
    host?: string;
    /** MQTT-over-TLS on its own port beside plain MQTT (PEM certificate chain and key). */
    tls?: { cert: string | Buffer; key: string | Buffer; port: number };
  },
) {
  const host = opts.host ?? "127.0.0.1";
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
      if (!ingest || !client) return callback(null);
      // The one place this message's topic is matched to its data source: the source goes with it.
      const source = ingest.directory.resolve(packet.topic);
      if (!source) return callback(null);
      ingest.batcher.add(packet, source).then(
        () => callback(null),
        (err: Error) => callback(err),
      );
    },
  });
  access.attach(aedes);
  const serve = (socket: net.Socket) => {
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
  };
  const server = net.createServer(serve);
  // A listener that cannot start stops the broker too (its timers), and the listeners already up.
  const abandon = async (err: unknown): Promise<never> => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  };
  await listen(
    server,
    port,
    host,
    `Set MQTT_URL to use that broker (e.g. MQTT_URL=mqtt://127.0.0.1:${port}) or MQTT_PORT to run the embedded broker on another port.`,
  ).catch(abandon);
  const servers: net.Server[] = [server];
  let tlsPort: number | undefined;
  if (opts.tls) {
    // The same broker behind TLS: a client's packets reach the guards and Aedes decrypted.
    let secure: tls.Server;
    try {
      secure = tls.createServer({ cert: opts.tls.cert, key: opts.tls.key, minVersion: "TLSv1.2" }, serve);
    } catch (err) {
      return abandon(
        new Error(
          `MQTT_TLS_CERT / MQTT_TLS_KEY: not a usable certificate and key (${(err as Error).message})`,
        ),
      );
    }
    // A handshake that fails (a plain-MQTT client on the TLS port, a wrong certificate) is that
    // client's problem, logged, not the broker's.
    // At most one line a minute, with how many failed meanwhile: scanners must not flood the log.
    let lastLogged = 0;
    let unlogged = 0;
    secure.on("tlsClientError", (err, socket) => {
      const now = Date.now();
      if (now - lastLogged < 60_000) {
        unlogged++;
        return;
      }
      logger.warn(
        { remoteAddress: socket.remoteAddress, reason: err.message, alsoFailedSinceLastLine: unlogged },
        "MQTT over TLS: handshake failed",
      );
      lastLogged = now;
      unlogged = 0;
    });
    await listen(
      secure,
      opts.tls.port,
      host,
      "Set MQTT_TLS_PORT to another port for the MQTT-over-TLS listener.",
    ).catch(abandon);
    servers.push(secure);
    tlsPort = portOf(secure, opts.tls.port);
  }
  const actualPort = portOf(server, port);
  // The process's own clients (the line simulator) connect to it: on loopback when it listens on
  // every address.
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const urlHost = reachable.includes(":") ? `[${reachable}]` : reachable;
  return {
    port: actualPort,
    url: `mqtt://${urlHost}:${actualPort}`,
    /** The MQTT-over-TLS listener's port, when it has one. */
    tlsPort,
    /** Whether the broker accepts connections now (GET /ready). */
    isListening: () => servers.every((s) => s.listening) && !aedes.closed,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

const portOf = (server: net.Server, dflt: number) => {
  const address = server.address();
  return typeof address === "object" && address ? address.port : dflt;
};

/** Listens, or fails with a BrokerPortTakenError naming the address and the ways out. */
function listen(server: net.Server, port: number, host: string, wayOut: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") {
        reject(
          new BrokerPortTakenError(
            `The embedded MQTT broker cannot listen on ${host}:${port}: the port is taken (another MQTT broker?). ${wayOut}`,
          ),
        );
      } else if (err.code === "EADDRNOTAVAIL") {
        reject(
          new Error(
            `The embedded MQTT broker cannot listen on ${host}:${port}: this machine has no such address (MQTT_HOST).`,
          ),
        );
      } else reject(err);
    });
    server.listen(port, host, () => resolve());
  });
}
