import type { FastifyRequest } from "fastify";

/**
 * A URL's path as the guards judge it, however the client spelled it: the query dropped,
 * percent-encodings decoded (the router decodes `/%61pi/…` to `/api/…`), repeated slashes and dot
 * segments resolved, and in lower case. A malformed percent-encoding is judged as sent.
 */
export function normalisePath(url: string): string {
  let path = url.split(/[?#]/, 1)[0] ?? "";
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed (`%zz`): the router cannot decode it either.
  }
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && /\/\.{0,2}$/.test(path) ? "/" : "";
  return `/${segments.join("/")}${trailing}`.toLowerCase();
}

/**
 * The path every guard of app.ts judges a request by (API or not, public docs, caching): the
 * route the router matched — what will run, whatever the spelling — or, for a request no route
 * matched, its normalised path.
 */
export function requestPath(req: FastifyRequest): string {
  return req.routeOptions.url ?? normalisePath(req.url);
}

/** Whether a request is the API's (guarded against other sites, behind a session, never cached). */
export const isApiPath = (path: string) => path.startsWith("/api/");
