/** Query parameters that carry a secret in a database or broker URL (pg-connection-string reads them). */
const SECRET_PARAMS = ["password", "sslpassword", "sslkey", "sslcert"];

/**
 * A URL as it may be logged: the user-info's password (mqtt://user:secret@host) and secret query
 * parameters (?password=…) are masked. The user-info is cut by hand, not by `URL`, which refuses
 * forms the drivers accept (postgres://u:p@/db?host=/var/run/postgresql, a raw / or # in the
 * password); a string it cannot read is never returned as it is.
 */
export function withoutPassword(url: string): string {
  const scheme = url.indexOf("://");
  if (scheme < 0) return "<a URL that cannot be read>";
  const rest = url.slice(scheme + 3);
  // The user-info ends at the last @ before the path's query (a password may hold / # ? and @).
  const queryAt = rest.lastIndexOf("?");
  const at = rest.lastIndexOf("@", queryAt < 0 ? rest.length : queryAt);
  let head = url.slice(0, scheme + 3);
  let tail = rest;
  if (at >= 0) {
    const userInfo = rest.slice(0, at);
    const colon = userInfo.indexOf(":");
    head += colon < 0 ? userInfo : `${userInfo.slice(0, colon)}:***`;
    head += "@";
    tail = rest.slice(at + 1);
  }
  const q = tail.indexOf("?");
  if (q < 0) return head + tail;
  const params = tail
    .slice(q + 1)
    .split("&")
    .map((p) => {
      const name = decodeURIComponent(p.split("=")[0] ?? "").toLowerCase();
      return SECRET_PARAMS.includes(name) ? `${p.split("=")[0]}=***` : p;
    });
  return `${head}${tail.slice(0, q)}?${params.join("&")}`;
}
