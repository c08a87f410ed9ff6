import { describe, expect, it } from "vitest";
import type { OutboundFetch, OutboundInit } from "../../lib/outbound.js";
import { checkStatus, createEtqClient, DeliveryError, type EtqConnection } from "./notifications.channels.js";

// Which answers of Teams and ETQ Reliance a later attempt may mend (decision 0302).

const NOW = new Date("2026-11-28T12:00:00Z");
const answer = (status: number, text = "", headers: Record<string, string> = {}) => ({
  status,
  headers,
  text,
});

function thrown(fn: () => unknown): DeliveryError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DeliveryError) return err;
    throw err;
  }
  throw new Error("nothing was thrown");
}

describe("checkStatus", () => {
  it("passes 2xx", () => {
    expect(() => checkStatus("Teams", answer(202), NOW)).not.toThrow();
  });

  it("retries 408, 429 and 5xx, honouring Retry-After", () => {
    expect(thrown(() => checkStatus("Teams", answer(408), NOW))).toMatchObject({
      retryable: true,
      httpStatus: 408,
    });
    expect(thrown(() => checkStatus("Teams", answer(503), NOW))).toMatchObject({
      retryable: true,
      httpStatus: 503,
    });
    const limited = thrown(() => checkStatus("Teams", answer(429, "", { "retry-after": "30" }), NOW));
    expect(limited).toMatchObject({ retryable: true, httpStatus: 429, retryAfterMs: 30_000 });
  });

  it("makes other answers final, redirects included", () => {
    expect(thrown(() => checkStatus("Teams", answer(400, "bad card"), NOW))).toMatchObject({
      retryable: false,
    });
    expect(thrown(() => checkStatus("Teams", answer(404), NOW))).toMatchObject({ retryable: false });
    const moved = thrown(() => checkStatus("Teams", answer(302, "", { location: "https://elsewhere" }), NOW));
    expect(moved.retryable).toBe(false);
    expect(moved.message).toBe("Teams answered 302 (redirects are not followed)");
  });
});

describe("ETQ Reliance on a refused token", () => {
  const connection: EtqConnection = {
    key: "etq-1",
    apiHost: "reliance.example.com",
    clientId: "linewatch",
    clientSecret: "s3cret",
    tokenEndpoint: "https://login.example.com/token",
  };

  /** A far end whose API refuses the first token it was given (revoked early), then accepts the next. */
  function farEnd() {
    const calls: { url: string; init?: OutboundInit }[] = [];
    let issued = 0;
    const fetch: OutboundFetch = async (url, init) => {
      calls.push({ url, init });
      if (url === connection.tokenEndpoint) {
        issued++;
        return answer(200, JSON.stringify({ access_token: `token-${issued}`, expires_in: 3600 }));
      }
      const auth = init?.headers?.authorization;
      return auth === "Bearer token-1" ? answer(401) : answer(201, JSON.stringify({ id: "DOC-7" }));
    };
    return { fetch, calls };
  }

  it("drops the cached token on a 401 and fails the attempt as retryable; the next attempt takes a new token", async () => {
    const far = farEnd();
    const etq = createEtqClient({ fetch: far.fetch, now: () => NOW, timeoutMs: 1_000 });
    const first = await etq
      .createDocument(connection, { title: "Alert" }, "alert-1")
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ retryable: true, httpStatus: 401 });
    expect(await etq.createDocument(connection, { title: "Alert" }, "alert-1")).toEqual({
      documentId: "DOC-7",
      httpStatus: 201,
    });
    expect(etq.tokenFetches).toBe(2);
    // The cached good token serves the next delivery without a new request.
    await etq.createDocument(connection, { title: "Another" }, "alert-2");
    expect(etq.tokenFetches).toBe(2);
  });

  it("makes a refused token request final: wrong credentials do not retry", async () => {
    const fetch: OutboundFetch = async () => answer(401, '{"error":"invalid_client"}');
    const etq = createEtqClient({ fetch, now: () => NOW, timeoutMs: 1_000 });
    const err = await etq.createDocument(connection, {}, "alert-3").catch((e: unknown) => e);
    expect(err).toMatchObject({ retryable: false, httpStatus: 401 });
  });
});
