/** An answer other than 2xx: carries the status, statusText and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Listener = (err: ApiError) => void;
const unauthorizedListeners = new Set<Listener>();
/** Called when any call answers 401: the session has ended. */
export const onUnauthorized = (l: Listener) => {
  unauthorizedListeners.add(l);
  return () => {
    unauthorizedListeners.delete(l);
  };
};

const NETWORK_ERROR = "The server could not be reached. Check your connection.";
/** An answer that is not what the call expects (a line that is not JSON, or not the contract's). */
export const UNREADABLE_ANSWER = "The server's answer could not be read.";

/** Sends a request as every call does: same-origin credentials, a JSON body, the caller's signal. */
async function send(
  method: string,
  path: string,
  body: unknown,
  opts: { signal?: AbortSignal; accept?: string },
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (opts.accept) headers.accept = opts.accept;
  try {
    return await fetch(path, {
      method,
      credentials: "same-origin",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // A request nobody waits for any more (React Query cancels it) is aborted.
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new ApiError(0, "Network Error", NETWORK_ERROR);
  }
}

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** The ApiError of an answer other than 2xx (the body's `message`); a 401 ends the session. */
function errorOf(res: Response, json: unknown, path: string): ApiError {
  const b = (json && typeof json === "object" ? json : {}) as Record<string, unknown>;
  const err = new ApiError(
    res.status,
    res.statusText,
    typeof b.message === "string" ? b.message : res.statusText,
    b,
  );
  if (res.status === 401 && !path.startsWith("/api/auth/login"))
    for (const l of unauthorizedListeners) l(err);
  return err;
}

/** The one way the web app talks to the API: JSON in, JSON out, errors as ApiError. */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  opts: { signal?: AbortSignal } = {},
): Promise<T> {
  const res = await send(method, path, body, opts);
  const json = parseJson(await res.text());
  if (!res.ok) throw errorOf(res, json, path);
  return json as T;
}

export const get = <T>(path: string) => api<T>("GET", path);

/**
 * A call whose answer may stream as NDJSON (`accept`, e.g. application/x-ndjson): each line's JSON
 * is handed to `onLine` as it arrives, and the promise resolves when the stream ends. An answer in
 * plain JSON (content type application/json: a server or a mock that does not stream) is handed
 * back whole. Errors as `api`'s; an `onLine` that throws ends the stream (the request is dropped).
 */
export async function apiStream(
  method: string,
  path: string,
  body: unknown,
  opts: { accept: string; onLine: (line: unknown) => void; signal?: AbortSignal },
): Promise<{ streamed: true } | { streamed: false; json: unknown }> {
  const res = await send(method, path, body, opts);
  const isJson = (res.headers.get("content-type") ?? "").includes("application/json");
  if (!res.ok || isJson || !res.body) {
    const json = parseJson(await res.text());
    if (!res.ok) throw errorOf(res, json, path);
    return { streamed: false, json };
  }
  await readLines(res.body, opts);
  return { streamed: true };
}

/** Hands each non-empty line of a UTF-8 stream to `onLine`, parsed as JSON. */
async function readLines(
  stream: ReadableStream<Uint8Array>,
  opts: { onLine: (line: unknown) => void; signal?: AbortSignal },
) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  const hand = (line: string) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new ApiError(0, "Unreadable Answer", UNREADABLE_ANSWER);
    }
    opts.onLine(json);
  };
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        throw new ApiError(0, "Network Error", NETWORK_ERROR);
      }
      if (chunk.done) break;
      rest += decoder.decode(chunk.value, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) hand(line);
    }
    hand(rest + decoder.decode());
  } catch (err) {
    // Stop the answer (and the server's work on it) when its reading is given up.
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    reader.releaseLock();
  }
}
