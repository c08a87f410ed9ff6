import type { Duplex } from "node:stream";
import { INGEST_MAX_BYTES } from "@linewatch/contracts";

/**
 * The largest packet a client may send before it has authenticated (bytes of the packet after
 * its fixed header, MQTT's "remaining length"). A CONNECT holds a client id, a username (an
 * ingestor id, 36 bytes), a password (at most 200 bytes are checked, broker-access.ts) and
 * perhaps a will: a few hundred bytes; 16 KiB leaves room for a will message. Issue 27 §3: three
 * unauthenticated CONNECTs announcing 250 MB each were buffered whole (521 MB, never released).
 */
export const CONNECT_MAX_BYTES = 16 * 1024;

/**
 * The default largest packet of an authenticated client (MQTT_MAX_PACKET_BYTES): a payload as
 * large as POST /api/ingest's body (INGEST_MAX_BYTES, room for INGEST_BATCH_MAX records) plus
 * the topic (at most 65,535 bytes), its length and the packet id.
 */
export const MQTT_MAX_PACKET_BYTES = INGEST_MAX_BYTES + 64 * 1024;

/** What a guard reports when it closes a connection. */
export type PacketRefusal = { announced: number; limit: number; authenticated: boolean };

/**
 * Closes a broker connection as soon as a packet announces more bytes than the client may send:
 * CONNECT_MAX_BYTES until `authenticated()` is called, `maxPacketBytes` after. It reads only the
 * fixed header of each packet (MQTT 3.1.1 §2.2: one byte of type and flags, then the remaining
 * length in one to four bytes of seven bits each), so the connection ends before the packet's
 * body is read: the bytes taken from a refused client are the chunk that held the header, at
 * most one socket read.
 *
 * It sees the bytes Aedes takes: Aedes reads the socket with `read()` on 'readable', and a
 * stream with a 'readable' listener emits 'data' for each chunk `read()` returns (Node's stream
 * documentation, "Choose one API style"), so listening to 'data' here changes nothing in how
 * Aedes reads. Attach it after `aedes.handle(socket)` has added its 'readable' listener.
 */
export function guardPacketSizes(
  socket: Duplex,
  opts: { maxPacketBytes: number; onRefused: (refusal: PacketRefusal) => void },
) {
  let authenticated = false;
  let limit = CONNECT_MAX_BYTES;
  // Where the reading is: at a packet's first byte, in its remaining length, or in its body.
  let state: "type" | "length" | "body" = "type";
  let length = 0;
  let lengthBytes = 0;
  let bodyLeft = 0;

  const refuse = (announced: number) => {
    socket.removeListener("data", onData);
    socket.destroy();
    opts.onRefused({ announced, limit, authenticated });
  };

  function onData(chunk: Buffer) {
    let i = 0;
    while (i < chunk.length) {
      if (state === "body") {
        const n = Math.min(bodyLeft, chunk.length - i);
        bodyLeft -= n;
        i += n;
        if (bodyLeft === 0) state = "type";
      } else if (state === "type") {
        i++;
        state = "length";
        length = 0;
        lengthBytes = 0;
      } else {
        const byte = chunk[i++] ?? 0;
        length += (byte & 0x7f) * 128 ** lengthBytes;
        lengthBytes++;
        const more = (byte & 0x80) !== 0;
        // A fifth length byte is malformed (§2.2.3); the length so far already counts.
        if (length > limit || (more && lengthBytes === 4)) return refuse(length);
        if (more) continue;
        bodyLeft = length;
        state = length > 0 ? "body" : "type";
      }
    }
  }
  socket.on("data", onData);

  return {
    /** The client authenticated: from now on its packets may be up to `maxPacketBytes`. */
    authenticated() {
      authenticated = true;
      limit = opts.maxPacketBytes;
    },
  };
}
