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

/** The one way the web app talks to the API: JSON in, JSON out, errors as ApiError. */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  opts: { signal?: AbortSignal } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      // A request nobody waits for any more (React Query cancels it) is aborted.
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new ApiError(0, "Network Error", "The server could not be reached. Check your connection.");
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const b = (json && typeof json === "object" ? json : {}) as Record<string, unknown>;
    const err = new ApiError(
      res.status,
      res.statusText,
      typeof b.message === "string" ? b.message : res.statusText,
      b,
    );
    if (res.status === 401 && !path.startsWith("/api/auth/login"))
      for (const l of unauthorizedListeners) l(err);
    throw err;
  }
  return json as T;
}

export const get = <T>(path: string) => api<T>("GET", path);
