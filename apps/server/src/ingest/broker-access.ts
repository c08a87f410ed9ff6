import { randomBytes, timingSafeEqual } from "node:crypto";
import { type TMqttLogin, topicFilterWithin, topicMatches, ZId } from "@linewatch/contracts";
import type { Aedes, AuthenticateError, Client, Subscription } from "aedes";
import type { Db } from "../db/client.js";
import { describeDbError } from "../db/errors.js";
import { type Logger, silentLogger } from "../lib/logger.js";
import { hashToken, newToken } from "../lib/tokens.js";
import { createMqttCredentialsRepo } from "../modules/mqtt-credentials/mqtt-credentials.repo.js";
import type { SourceDirectory } from "./sources.js";

/** A username and password for an MQTT client. */

/**
 * What a connected client may do: publish on, and subscribe within, the data source topics of
 * these ingestors (one plant's, or the demo plants' for the server's own line simulator).
 * `credential` is the stored password it connected with, re-checked at every refresh.
 */
type Grant = {
  ingestorIds: ReadonlySet<string>;
  credential?: { ingestorId: string; passwordHash: string };
};
/** MQTT_ALLOW_ANONYMOUS=true: a client without a username may do anything (local experiments). */
const ANONYMOUS = "anonymous" as const;

// MQTT 3.1.1 §3.2.2.3 CONNACK return codes.
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;
/** Longer passwords are refused unread (ours are 47 characters). */
const PASSWORD_MAX = 200;

const refusal = (returnCode: number, message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export type BrokerAccessOptions = {
  db: Db;
  directory: SourceDirectory;
  /** MQTT_ALLOW_ANONYMOUS: accept clients without a username, with no restriction. */
  allowAnonymous?: boolean;
  now?: () => Date;
  logger?: Logger;
};

/**
 * Authentication and authorisation of the embedded broker (README "Security", "MQTT broker
 * access"). A plant's clients connect with its MQTT credential (username = its ingestor id,
 * password set on the Data Sources page), publish only on topics its data sources match and
 * subscribe only to filters within them (others get SUBACK 0x80). The password check is one
 * SHA-256 and one indexed read, so the broker's event loop is never held. `refresh` re-reads the
 * passwords of connected clients: a rotated password disconnects the clients that used it.
 */
export function createBrokerAccess(opts: BrokerAccessOptions) {
  const repo = createMqttCredentialsRepo(opts.db);
  const now = opts.now ?? (() => new Date());
  const logger = opts.logger ?? silentLogger;
  const grants = new WeakMap<Client, Grant | typeof ANONYMOUS>();
  const connected = new Set<Client>();
  /** Credentials of this process's own clients (the line simulator): username → grant. */
  const internal = new Map<string, { passwordHash: string; grant: Grant }>();

  const sourcesOf = (grant: Grant) =>
    opts.directory.current().filter((s) => grant.ingestorIds.has(s.ingestorId));
  const isWithin = (grant: Grant, filter: string) =>
    sourcesOf(grant).some((s) => topicFilterWithin(filter, s.topic));

  return {
    authenticate(
      client: Client,
      username: string | undefined,
      password: Buffer | undefined,
      done: (error: AuthenticateError | null, success: boolean | null) => void,
    ) {
      if (!username) {
        if (!opts.allowAnonymous) {
          return done(refusal(NOT_AUTHORIZED, "anonymous connections are refused"), false);
        }
        grants.set(client, ANONYMOUS);
        return done(null, true);
      }
      const bad = () => done(refusal(BAD_USERNAME_OR_PASSWORD, "bad username or password"), false);
      if (!password || password.length > PASSWORD_MAX) return bad();
      const hash = hashToken(password.toString("utf8"));
      const own = internal.get(username);
      if (own) {
        if (!sameHash(own.passwordHash, hash)) return bad();
        grants.set(client, own.grant);
        return done(null, true);
      }
      if (!ZId.safeParse(username).success) return bad();
      repo.forBroker(username).then(
        (row) => {
          if (!row || !sameHash(row.passwordHash, hash)) return bad();
          grants.set(client, {
            ingestorIds: new Set([row.ingestorId]),
            credential: { ingestorId: row.ingestorId, passwordHash: row.passwordHash },
          });
          repo.touch(row.ingestorId, now()).catch(() => {});
          done(null, true);
        },
        (err: Error) => {
          logger.error({ reason: describeDbError(err) }, "MQTT credential check failed");
          done(refusal(SERVER_UNAVAILABLE, "credential check failed"), false);
        },
      );
    },

    authorizeSubscribe(
      client: Client,
      sub: Subscription,
      done: (error: Error | null, subscription?: Subscription | null) => void,
    ) {
      const grant = grants.get(client);
      if (grant === ANONYMOUS) return done(null, sub);
      // null: SUBACK 0x80 for this filter (MQTT 3.1.1 §3.9.3); the connection stays.
      done(null, grant && isWithin(grant, sub.topic) ? sub : null);
    },

    /** Whether the client may publish on this topic: one of its plant's data sources matches it. */
    canPublish(client: Client, topic: string): boolean {
      // '$' topics are the broker's own ($SYS).
      if (topic.startsWith("$")) return false;
      const grant = grants.get(client);
      if (grant === ANONYMOUS) return true;
      if (grant && sourcesOf(grant).some((s) => topicMatches(s.topic, topic))) return true;
      logger.warn(
        { clientId: client.id, topic },
        "MQTT client refused: publish outside its plant's data sources",
      );
      return false;
    },

    /**
     * A credential for a client of this process (the demo line simulator), valid until the
     * process ends and never stored or logged: it grants these ingestors' topics.
     */
    issueInternal(ingestorIds: string[]): TMqttLogin {
      const username = `linewatch-internal-${randomBytes(6).toString("hex")}`;
      const password = newToken();
      internal.set(username, {
        passwordHash: hashToken(password),
        grant: { ingestorIds: new Set(ingestorIds) },
      });
      return { username, password };
    },

    /** Tracks connected clients, so refresh can check them again. */
    attach(aedes: Aedes) {
      aedes.on("clientReady", (client) => connected.add(client));
      aedes.on("clientDisconnect", (client) => connected.delete(client));
    },

    /**
     * Disconnects clients whose password was replaced (or whose plant is gone), and clients
     * holding a subscription no longer within their plant's data sources (a source deleted).
     */
    async refresh() {
      const held: { client: Client; grant: Grant }[] = [];
      for (const client of connected) {
        const grant = grants.get(client);
        if (grant && grant !== ANONYMOUS) held.push({ client, grant });
      }
      if (held.length === 0) return;
      const ids = held.flatMap(({ grant }) => (grant.credential ? [grant.credential.ingestorId] : []));
      const hashes = await repo.passwordHashes([...new Set(ids)]);
      for (const { client, grant } of held) {
        const c = grant.credential;
        const stale = c && hashes.get(c.ingestorId) !== c.passwordHash;
        const subscriptions = Object.keys(
          (client as unknown as { subscriptions?: object }).subscriptions ?? {},
        );
        const outside = subscriptions.find((filter) => !isWithin(grant, filter));
        if (stale || outside) {
          logger.info(
            { clientId: client.id, ...(outside ? { topic: outside } : {}) },
            `MQTT client disconnected: ${stale ? "its password was replaced" : "a subscription is no longer within its plant's data sources"}`,
          );
          client.close();
        }
      }
    },
  };
}
export type BrokerAccess = ReturnType<typeof createBrokerAccess>;
