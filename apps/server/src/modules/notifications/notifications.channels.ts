// The two far ends: a Teams Workflows webhook and the ETQ Reliance API (OAuth2 client
// credentials, then POST <apiHost>/documents). Used by the notifier and by the test buttons.
import { type OutboundFetch, OutboundRefusedError, OutboundTimeoutError } from "../../lib/outbound.js";

/** One failed call, with what the retry logic needs to know. */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly httpStatus: number | null = null,
    /** From Retry-After, in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

const MAX_TEXT = 300;
const brief = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

/** 2xx passes; 429, 408 and 5xx are worth retrying (Retry-After honoured); other answers are final. */
export function checkStatus(
  what: string,
  res: { status: number; headers: Record<string, string | string[] | undefined>; text: string },
  now: Date,
) {
  if (res.status >= 200 && res.status < 300) return;
  const detail = res.text ? `: ${brief(res.text.trim())}` : "";
  if (res.status >= 300 && res.status < 400) {
    throw new DeliveryError(`${what} answered ${res.status} (redirects are not followed)`, false, res.status);
  }
  const retryable = res.status === 429 || res.status === 408 || res.status >= 500;
  throw new DeliveryError(
    `${what} answered ${res.status}${detail}`,
    retryable,
    res.status,
    retryable ? parseRetryAfter(res.headers["retry-after"], now) : null,
  );
}

/** Any failure of a call as a DeliveryError: refusals are final, timeouts and network errors retryable. */
export function asDeliveryError(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (err instanceof OutboundRefusedError) return new DeliveryError(err.message, false);
  if (err instanceof OutboundTimeoutError) return new DeliveryError(err.message, true);
  const e = err as NodeJS.ErrnoException;
  return new DeliveryError(e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? err), true);
}

export type ChannelOptions = { fetch: OutboundFetch; now: () => Date; timeoutMs: number };

// ── Teams ──────────────────────────────────────────────────────────────────────────────────

/** The Workflows webhook envelope around an Adaptive Card (docs/monitoring.md "Notifications"). */
export function teamsMessage(card: Record<string, unknown>) {
  return {
    type: "message",
    attachments: [
      { contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card },
    ],
  };
}

export async function postTeams(opts: ChannelOptions, url: string, card: Record<string, unknown>) {
  const res = await opts.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(teamsMessage(card)),
    timeoutMs: opts.timeoutMs,
  });
  checkStatus("Microsoft Teams", res, opts.now());
  return res.status;
}

// ── ETQ Reliance ───────────────────────────────────────────────────────────────────────────

export type EtqConnection = {
  /** Cache key: the configuration and when it last changed. */
  key: string;
  apiHost: string;
  clientId: string;
  clientSecret: string;
  tokenEndpoint: string;
};

/** "Reliance API Host" may be a host name or a URL; https is assumed when no scheme is given. */
export function apiBase(apiHost: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(apiHost) ? apiHost : `https://${apiHost}`;
  return withScheme.replace(/\/+$/, "");
}

const TOKEN_MARGIN_MS = 60_000;

export function createEtqClient(opts: ChannelOptions) {
  const tokens = new Map<string, { token: string; expiresAt: number }>();
  const fetching = new Map<string, Promise<string>>();
  let tokenFetches = 0;

  async function fetchToken(c: EtqConnection): Promise<string> {
    tokenFetches++;
    const res = await opts.fetch(c.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: c.clientId,
        client_secret: c.clientSecret,
      }).toString(),
      timeoutMs: opts.timeoutMs,
    });
    checkStatus("The ETQ token URL", res, opts.now());
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new DeliveryError("The ETQ token URL did not answer JSON", false, res.status);
    }
    if (typeof body.access_token !== "string" || !body.access_token) {
      throw new DeliveryError("The ETQ token URL answered without an access_token", false, res.status);
    }
    // No expires_in: keep it a minute (RFC 6749 §5.1 makes it optional).
    const expiresInMs = (Number(body.expires_in) > 0 ? Number(body.expires_in) : 120) * 1000;
    tokens.set(c.key, {
      token: body.access_token,
      expiresAt: opts.now().getTime() + expiresInMs - TOKEN_MARGIN_MS,
    });
    return body.access_token;
  }

  return {
    /** How many token requests were made (tests prove the cache). */
    get tokenFetches() {
      return tokenFetches;
    },

    /** A cached token until 60 s before it expires, else a new one. */
    async token(c: EtqConnection, fresh = false): Promise<string> {
      const cached = tokens.get(c.key);
      if (!fresh && cached && cached.expiresAt > opts.now().getTime()) return cached.token;
      // Deliveries running side by side share one token request.
      let request = fetching.get(c.key);
      if (!request) {
        request = fetchToken(c).finally(() => fetching.delete(c.key));
        fetching.set(c.key, request);
      }
      return request;
    },

    /**
     * Creates one document; answers its id. `idempotencyKey` (the alert id) goes along so a far
     * end that honours Idempotency-Key does not create a second one after a lost answer.
     */
    async createDocument(c: EtqConnection, document: Record<string, unknown>, idempotencyKey: string) {
      const token = await this.token(c);
      const res = await opts.fetch(`${apiBase(c.apiHost)}/documents`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${token}`,
          "idempotency-key": idempotencyKey,
        },
        body: JSON.stringify(document),
        timeoutMs: opts.timeoutMs,
      });
      if (res.status === 401) {
        // The token was revoked or expired early: the next attempt fetches a new one.
        tokens.delete(c.key);
        throw new DeliveryError("ETQ Reliance answered 401 (token refused)", true, 401);
      }
      checkStatus("ETQ Reliance", res, opts.now());
      let id: unknown;
      try {
        const body = JSON.parse(res.text) as Record<string, unknown>;
        id = body.id ?? body.documentId ?? body.document_id ?? (body.document as { id?: unknown })?.id;
      } catch {}
      if (id == null) {
        const location = res.headers.location;
        const loc = Array.isArray(location) ? location[0] : location;
        id = loc?.split("/").filter(Boolean).pop();
      }
      if (id == null || (typeof id !== "string" && typeof id !== "number")) {
        throw new DeliveryError("ETQ Reliance answered without a document id", false, res.status);
      }
      return { documentId: String(id), httpStatus: res.status };
    },

    /**
     * "Test connection": a new token, then a GET on the API host with it. Any answer but 401,
     * 403, 5xx or none at all means the host is there and takes the token.
     */
    async testConnection(c: EtqConnection) {
      const token = await this.token(c, true);
      const res = await opts.fetch(apiBase(c.apiHost), {
        method: "GET",
        headers: { accept: "application/json", authorization: `Bearer ${token}` },
        timeoutMs: opts.timeoutMs,
      });
      if (res.status === 401 || res.status === 403 || res.status >= 500) {
        throw new DeliveryError(`ETQ Reliance answered ${res.status}`, false, res.status);
      }
      return res.status;
    },
  };
}

export type EtqClient = ReturnType<typeof createEtqClient>;
