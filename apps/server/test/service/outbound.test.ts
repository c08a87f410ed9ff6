import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blockedReason,
  checkOutboundUrl,
  createOutboundFetch,
  OutboundRefusedError,
  OutboundTimeoutError,
  type Resolver,
} from "../../src/lib/outbound.js";

const strict = { allowLoopback: false };
const loose = { allowLoopback: true };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("outbound URL guard", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["169.254.10.10", "link-local"],
    ["fe80::1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["64:ff9b::a00:1", "NAT64"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["0.0.0.0", "this network"],
    ["0.1.2.3", "this network"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["::ffff:192.168.0.1", "private"],
    ["::", "unspecified"],
    ["255.255.255.255", "reserved"],
  ])("refuses %s (%s)", async (ip, what) => {
    expect(blockedReason(ip, strict)).toContain(what);
    // as a literal host …
    const host = ip.includes(":") ? `[${ip}]` : ip;
    await expect(checkOutboundUrl(`https://${host}/x`, strict)).rejects.toBeInstanceOf(OutboundRefusedError);
    // … and as what a name resolves to
    await expect(checkOutboundUrl("https://hooks.example.com/x", strict, resolvesTo(ip))).rejects.toThrow(
      what,
    );
  });

  it("accepts public addresses", async () => {
    for (const ip of ["8.8.8.8", "52.1.2.3", "172.32.0.1", "100.128.0.1", "2606:4700::1111"]) {
      expect(blockedReason(ip, strict)).toBeNull();
    }
    const checked = await checkOutboundUrl("https://hooks.example.com/x", strict, resolvesTo("52.1.2.3"));
    expect(checked.address).toBe("52.1.2.3");
  });

  it("refuses a name when any of its addresses is internal", async () => {
    await expect(
      checkOutboundUrl("https://hooks.example.com/x", strict, resolvesTo("52.1.2.3", "10.0.0.5")),
    ).rejects.toThrow("private");
  });

  it("refuses anything but https, and credentials in the URL", async () => {
    await expect(
      checkOutboundUrl("http://hooks.example.com/x", strict, resolvesTo("52.1.2.3")),
    ).rejects.toThrow("must use https");
    await expect(checkOutboundUrl("ftp://hooks.example.com/x", strict)).rejects.toThrow("must use https");
    await expect(checkOutboundUrl("not a url", strict)).rejects.toThrow("not valid");
    await expect(
      checkOutboundUrl("https://a:b@hooks.example.com/x", strict, resolvesTo("52.1.2.3")),
    ).rejects.toThrow("user name or password");
  });

  it("allows loopback, and http to loopback, only with the explicit setting", async () => {
    await expect(checkOutboundUrl("http://127.0.0.1:9/x", strict)).rejects.toThrow(OutboundRefusedError);
    expect((await checkOutboundUrl("http://127.0.0.1:9/x", loose)).address).toBe("127.0.0.1");
    expect((await checkOutboundUrl("https://[::1]:9/x", loose)).address).toBe("::1");
    // The setting opens loopback only: private addresses and http elsewhere stay refused.
    await expect(checkOutboundUrl("https://10.0.0.1/x", loose)).rejects.toThrow("private");
    await expect(
      checkOutboundUrl("http://hooks.example.com/x", loose, resolvesTo("52.1.2.3")),
    ).rejects.toThrow("must use https");
  });
});

describe("outbound fetch", () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      if (req.url === "/redirect") {
        res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
      } else if (req.url === "/slow") {
        setTimeout(() => res.end("late"), 2000);
      } else {
        res.writeHead(200, { "content-type": "text/plain" }).end(`hello ${req.headers.host}`);
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("connects to the checked address (pinned), whatever the name", async () => {
    // This name has no DNS entry: the request can only arrive through the pinned address.
    const fetch = createOutboundFetch(loose, resolvesTo("127.0.0.1"));
    const res = await fetch(`http://teams.invalid:${port}/ok`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(`hello teams.invalid:${port}`);
  });

  it("does not follow redirects", async () => {
    hits.length = 0;
    const res = await createOutboundFetch(loose)(`http://127.0.0.1:${port}/redirect`);
    expect(res.status).toBe(302);
    expect(hits).toEqual(["/redirect"]);
  });

  it("gives up after the time limit", async () => {
    await expect(
      createOutboundFetch(loose)(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200 }),
    ).rejects.toBeInstanceOf(OutboundTimeoutError);
  });

  it("refuses loopback without the setting, before connecting", async () => {
    hits.length = 0;
    await expect(createOutboundFetch(strict)(`http://127.0.0.1:${port}/ok`)).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    await expect(
      createOutboundFetch(strict, resolvesTo("127.0.0.1"))(`https://teams.invalid:${port}/ok`),
    ).rejects.toThrow("loopback");
    expect(hits).toEqual([]);
  });
});
