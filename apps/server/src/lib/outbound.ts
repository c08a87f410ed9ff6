// Outbound HTTP to addresses users configure (Teams webhooks, ETQ hosts and token URLs): https
// only, and never to an address inside our own network (docs/monitoring.md "Notifications").
// The host is resolved once, every address is checked, and the connection goes to the checked
// address (a custom `lookup`), so a DNS answer that changes between check and connect
// (rebinding) cannot reach a private address. Redirects are not followed.
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";

export type OutboundPolicy = {
  /** ALLOW_LOOPBACK_OUTBOUND: loopback (and http:// to loopback) for local fake servers in tests. */
  allowLoopback: boolean;
};

/** The URL or its address is not allowed: retrying will not help. */
export class OutboundRefusedError extends Error {
  override name = "OutboundRefusedError";
}

/** No complete answer within the time limit: worth retrying. */
export class OutboundTimeoutError extends Error {
  override name = "OutboundTimeoutError";
}

type Range = [address: string, prefix: number];

const LOOPBACK_V4: Range[] = [["127.0.0.0", 8]];
const LOOPBACK_V6: Range[] = [["::1", 128]];

/** IPv4 ranges refused, by reason; their IPv4-mapped IPv6 forms (::ffff:a.b.c.d) are refused too. */
const BLOCKED_V4: [reason: string, ranges: Range[]][] = [
  ["a cloud metadata address", [["169.254.169.254", 32]]],
  ["a loopback address", LOOPBACK_V4],
  [
    "a private address",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
    ],
  ],
  ["a link-local address", [["169.254.0.0", 16]]],
  ["a carrier-grade NAT address", [["100.64.0.0", 10]]],
  ["a 'this network' address", [["0.0.0.0", 8]]],
  ["a multicast address", [["224.0.0.0", 4]]],
  [
    "a reserved address",
    [
      ["240.0.0.0", 4], // includes 255.255.255.255
      ["192.0.0.0", 24],
      ["192.0.2.0", 24],
      ["198.18.0.0", 15],
      ["198.51.100.0", 24],
      ["203.0.113.0", 24],
    ],
  ],
];

const BLOCKED_V6: [reason: string, ranges: Range[]][] = [
  ["a cloud metadata address", [["fd00:ec2::254", 128]]],
  ["a loopback address", LOOPBACK_V6],
  [
    "a NAT64 address",
    [
      ["64:ff9b::", 96],
      ["64:ff9b:1::", 48],
    ],
  ],
  ["a unique-local address", [["fc00::", 7]]],
  [
    "a link-local address",
    [
      ["fe80::", 10],
      ["fec0::", 10],
    ],
  ],
  ["a multicast address", [["ff00::", 8]]],
  // :: (unspecified) and the deprecated IPv4-compatible ::a.b.c.d
  ["an unspecified or IPv4-compatible address", [["::", 96]]],
  // These embed an IPv4 address that could be a private one.
  [
    "a 6to4 or Teredo address",
    [
      ["2002::", 16],
      ["2001::", 32],
    ],
  ],
  [
    "a reserved address",
    [
      ["100::", 64],
      ["2001:db8::", 32],
    ],
  ],
];

type Rule = { reason: string; list: net.BlockList };

function buildRules(): Rule[] {
  const rules: Rule[] = [];
  for (const [reason, ranges] of BLOCKED_V4) {
    const list = new net.BlockList();
    for (const [a, p] of ranges) {
      list.addSubnet(a, p, "ipv4");
      list.addSubnet(`::ffff:${a}`, 96 + p, "ipv6");
    }
    rules.push({ reason, list });
  }
  for (const [reason, ranges] of BLOCKED_V6) {
    const list = new net.BlockList();
    for (const [a, p] of ranges) list.addSubnet(a, p, "ipv6");
    rules.push({ reason, list });
  }
  return rules;
}

const RULES = buildRules();
const LOOPBACK = (() => {
  const list = new net.BlockList();
  for (const [a, p] of LOOPBACK_V4) {
    list.addSubnet(a, p, "ipv4");
    list.addSubnet(`::ffff:${a}`, 96 + p, "ipv6");
  }
  for (const [a, p] of LOOPBACK_V6) list.addSubnet(a, p, "ipv6");
  return list;
})();

const familyOf = (ip: string) => (net.isIPv4(ip) ? "ipv4" : "ipv6");

export function isLoopbackAddress(ip: string): boolean {
  return net.isIP(ip) !== 0 && LOOPBACK.check(ip, familyOf(ip));
}

/** Why an address may not be called, or null when it may. */
export function blockedReason(ip: string, policy: OutboundPolicy): string | null {
  if (net.isIP(ip) === 0) return "not an IP address";
  if (policy.allowLoopback && isLoopbackAddress(ip)) return null;
  for (const rule of RULES) if (rule.list.check(ip, familyOf(ip))) return rule.reason;
  return null;
}

/** Static checks that need no DNS: a URL, https (or http to loopback when allowed), no credentials. */
export function parseOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError("The URL is not valid");
  }
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  // http only to loopback, and only with the setting; a name is checked again once resolved.
  const mayBeLoopback = net.isIP(literal) ? isLoopbackAddress(literal) : true;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLoopback && mayBeLoopback)) {
    throw new OutboundRefusedError("The URL must use https");
  }
  if (url.username || url.password)
    throw new OutboundRefusedError("The URL must not contain a user name or password");
  if (net.isIP(literal)) {
    const reason = blockedReason(literal, policy);
    if (reason) throw new OutboundRefusedError(`The URL's host ${literal} is ${reason}`);
  }
  return url;
}

export type CheckedUrl = { url: URL; address: string; family: 4 | 6 };

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Resolves the host and refuses it if any of its addresses is not allowed. */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy,
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
  const url = parseOutboundUrl(raw, policy);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await resolve(host);
  } catch (err) {
    throw new Error(
      `Cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  if (addresses.length === 0) throw new Error(`Cannot resolve ${host}`);
  for (const a of addresses) {
    const reason = blockedReason(a.address, policy);
    if (reason) throw new OutboundRefusedError(`${host} resolves to ${a.address}, ${reason}`);
  }
  const first = addresses[0] as { address: string; family: number };
  if (url.protocol === "http:" && !isLoopbackAddress(first.address)) {
    throw new OutboundRefusedError("The URL must use https");
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange, connect to last byte (default 10 s). */
  timeoutMs?: number;
};

export type OutboundResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
};

/** The one way outbound calls are made; the notifier takes another in tests if it likes. */
export type OutboundFetch = (url: string, init?: OutboundInit) => Promise<OutboundResponse>;

const MAX_BODY_BYTES = 1_048_576;

/** A fetch that checks the URL, pins the connection to the checked address and never follows redirects. */
export function createOutboundFetch(
  policy: OutboundPolicy,
  resolve: Resolver = systemResolver,
): OutboundFetch {
  return async (raw, init = {}) => {
    const { url, address, family } = await checkOutboundUrl(raw, policy, resolve);
    const timeoutMs = init.timeoutMs ?? 10_000;
    const mod = url.protocol === "https:" ? https : http;
    return new Promise<OutboundResponse>((resolvePromise, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const req = mod.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: init.method ?? "GET",
          headers: {
            "user-agent": "Linewatch",
            ...(init.body != null ? { "content-length": String(Buffer.byteLength(init.body)) } : {}),
            ...init.headers,
          },
          agent: false,
          // TLS still verifies the certificate against the host name.
          ...(url.protocol === "https:" && !net.isIP(host) ? { servername: host } : {}),
          // Connect to the address that was checked, not to a second DNS answer.
          lookup: ((_h: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) => {
            if (opts?.all) cb(null, [{ address, family }]);
            else cb(null, address, family);
          }) as never,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > MAX_BODY_BYTES) req.destroy(new Error("The answer is larger than 1 MB"));
            else chunks.push(c);
          });
          res.on("end", () => {
            clearTimeout(timer);
            resolvePromise({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            });
          });
          res.on("error", () => {});
        },
      );
      const timer = setTimeout(
        () => req.destroy(new OutboundTimeoutError(`No answer within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      req.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(init.body);
    });
  };
}
